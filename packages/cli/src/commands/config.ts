import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { configKeyDescriptions, configKeys } from '../config/config-keys.js';
import { ConfigKeyNotSetError, UsageError } from '../errors/cli-error.js';
import { commandPath, parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput } from '../output.js';

const keyInput = (z: Zod) =>
  z.object({
    key: z.enum(configKeys, {
      error: (issue) => `unknown setting "${String(issue.input)}" (known: ${configKeys.join(', ')})`,
    }),
    json: z.boolean().default(false),
  });

const setInput = (z: Zod) => keyInput(z).extend({ value: z.string() });

const plainInput = (z: Zod) => z.object({ json: z.boolean().default(false) });

/**
 * `planwright config get|set|unset|list|path`: the settings in the config file. `set` validates the
 * value with the same schema that validates the file on every read, so a value that `set` accepts is
 * one that every later command can use.
 */
export function registerConfigCommand(program: Command, io: CliIo): void {
  const config = program
    .command('config')
    .description('read and change settings in the config file')
    .addHelpText('after', settingsHelp);

  config
    .command('get')
    .description('print the value of a setting')
    .argument('<key>', `the setting (${configKeys.join(', ')})`)
    .action(async (_key: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, keyInput);
      const { configFilePath, readConfigFile } = await import('../config/config-file.js');
      const path = configFilePath(io);
      const value = (await readConfigFile(path))[input.key];
      if (value === undefined) throw new ConfigKeyNotSetError(input.key, path);
      createOutput(io, input).result({ key: input.key, value }, () => value);
    });

  config
    .command('set')
    .description('change a setting')
    .argument('<key>', `the setting (${configKeys.join(', ')})`)
    .argument('<value>', 'its new value')
    .action(async (_key: string, _value: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, setInput);
      const [{ configValueSchemas }, { configFilePath, updateConfigFile }] = await Promise.all([
        import('../config/config-schema.js'),
        import('../config/config-file.js'),
      ]);
      const checked = configValueSchemas[input.key].safeParse(input.value);
      if (!checked.success) {
        throw new UsageError(`${input.key}: ${checked.error.issues[0]?.message ?? 'invalid value'}`, {
          suggestion: `Run \`${commandPath(command)} --help\` for usage.`,
        });
      }
      await updateConfigFile(configFilePath(io), (current) => ({ ...current, [input.key]: checked.data }));
      createOutput(io, input).result({ key: input.key, value: checked.data }, () => []);
    });

  config
    .command('unset')
    .description('remove a setting, so its default applies again')
    .argument('<key>', `the setting (${configKeys.join(', ')})`)
    .action(async (_key: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, keyInput);
      const { configFilePath, readConfigFile, updateConfigFile } = await import('../config/config-file.js');
      const path = configFilePath(io);
      // Nothing to remove means nothing to write: `unset` never creates the file.
      const wasSet = (await readConfigFile(path))[input.key] !== undefined;
      if (wasSet) {
        await updateConfigFile(path, ({ [input.key]: _removed, ...rest }) => rest);
      }
      createOutput(io, input).result({ key: input.key, removed: wasSet }, () => []);
    });

  config
    .command('list')
    .description('print every setting that is set')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, plainInput);
      const { configFilePath, readConfigFile } = await import('../config/config-file.js');
      const path = configFilePath(io);
      const file = await readConfigFile(path);
      const settings = Object.fromEntries(
        configKeys.flatMap((key) => (file[key] === undefined ? [] : [[key, file[key]]])),
      );
      createOutput(io, input).result(settings, () =>
        Object.keys(settings).length === 0
          ? `No settings in ${path}: defaults apply.`
          : Object.entries(settings).map(([key, value]) => `${key}=${value}`),
      );
    });

  config
    .command('path')
    .description('print where the config file is (it may not exist yet)')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, plainInput);
      const { configFilePath } = await import('../config/config-file.js');
      const path = configFilePath(io);
      createOutput(io, input).result({ path }, () => path);
    });
}

const settingsHelp = `
Settings:
${Object.entries(configKeyDescriptions)
  .map(([key, description]) => `  ${key.padEnd(8)}${description}`)
  .join('\n')}`;
