import type { CliIo } from './cli-io.js';
import { reportError } from './errors/report-error.js';
import type { ExitCode } from './exit-codes.js';
import { createProgram, type GlobalOptions } from './program.js';

/**
 * Runs `planwright` with `args` (without `node` and the script path) and resolves to the exit code.
 * Never throws and never exits: `cli.ts` sets the exit code, tests just read it.
 */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const program = createProgram(io, args);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    // `--json` may be missing from opts() when parsing failed before reaching it; errors then
    // fall back to text, which is what a person typing a wrong command wants anyway.
    const json = program.opts<GlobalOptions>().json === true;
    return reportError(error, io, { json });
  }
}
