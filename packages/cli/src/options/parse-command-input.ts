import type { Command } from 'commander';
import type * as z from 'zod';
import { UsageError } from '../errors/cli-error.js';
import type * as commandZod from './command-zod.js';

/** The zod functions a command's schema factory is handed (command-zod.ts). */
export type Zod = typeof commandZod;

/**
 * A command's input schema, written as a function of zod so that zod (about 70 ms to import) is only
 * loaded when a command actually runs, never for `--help` or `--version`.
 */
export type CommandInputSchema<Schema extends z.ZodType = z.ZodType> = (zod: Zod) => Schema;

/**
 * Validates what commander parsed for `command`: its options merged with the global ones
 * (`--server`, `--json`) and its positional arguments under their declared names
 * (`config set <key> <value>` gives `{ key, value, server, json }`).
 *
 * @throws UsageError naming the offending flag or argument, e.g. `--server: "x" is not a URL…`.
 */
export async function parseCommandInput<Schema extends z.ZodType>(
  command: Command,
  schema: CommandInputSchema<Schema>,
): Promise<z.output<Schema>> {
  const z = await import('./command-zod.js');
  const input: Record<string, unknown> = { ...command.optsWithGlobals() };
  command.registeredArguments.forEach((argument, index) => {
    input[argument.name()] = command.processedArgs[index];
  });

  const parsed = schema(z).safeParse(input);
  if (parsed.success) return parsed.data;

  const issue = parsed.error.issues[0];
  const key = issue?.path[0];
  const subject = typeof key === 'string' ? describeInput(command, key) : 'input';
  throw new UsageError(`${subject}: ${issue?.message ?? 'invalid'}`, {
    suggestion: `Run \`${commandPath(command)} --help\` for usage.`,
    cause: parsed.error,
  });
}

/** `--server` for an option (of this command or a parent), `<key>` for a positional argument. */
function describeInput(command: Command, key: string): string {
  if (command.registeredArguments.some((argument) => argument.name() === key)) return `<${key}>`;
  for (let current: Command | null = command; current; current = current.parent) {
    const option = current.options.find((candidate) => candidate.attributeName() === key);
    if (option) return option.long ?? option.flags;
  }
  return key;
}

/** `planwright config set`, for "run … --help" hints. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent)
    names.unshift(current.name());
  return names.join(' ');
}
