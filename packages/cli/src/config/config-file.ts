import { dirname, join } from 'node:path';
import envPaths from 'env-paths';
import { type CliIo, readEnv } from '../cli-io.js';
import { CliErrorCode, ConfigFileError } from '../errors/cli-error.js';
import { parseJsonFile } from '../files/json-file.js';
import { describeFsError, readTextFileIfPresent, writePrivateFileAtomically } from '../files/private-file.js';
import { type ConfigFile, configFileSchema } from './config-schema.js';

/** Overrides the config directory (tests, or several profiles side by side). */
export const CONFIG_DIR_ENV = 'PLANWRIGHT_CONFIG_DIR';

const CONFIG_FILE_NAME = 'config.json';

/**
 * The directory of the config file (and of `session.json`): `PLANWRIGHT_CONFIG_DIR`, else the
 * platform's config directory (`$XDG_CONFIG_HOME/planwright`, `~/.config/planwright`,
 * `~/Library/Preferences/planwright`, `%APPDATA%\planwright\Config`). env-paths reads
 * `XDG_CONFIG_HOME`/`APPDATA` from `process.env` itself; only our own variable comes from the
 * injected environment.
 */
export function configDirectory(io: CliIo): string {
  return readEnv(io, CONFIG_DIR_ENV) ?? envPaths('planwright', { suffix: '' }).config;
}

export function configFilePath(io: CliIo): string {
  return join(configDirectory(io), CONFIG_FILE_NAME);
}

/**
 * Reads and validates the config file. A missing file is an empty config; anything else that is
 * wrong with it (unreadable, not JSON, invalid values) is a {@link ConfigFileError} naming the file.
 */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  let text: string | undefined;
  try {
    text = await readTextFileIfPresent(path);
  } catch (error) {
    throw new ConfigFileError(
      CliErrorCode.configFileUnreadable,
      path,
      `cannot read the config file ${path}: ${describeFsError(error)}`,
      { cause: error },
    );
  }
  if (text === undefined) return {};

  const checked = parseJsonFile(text, configFileSchema);
  if (checked.ok) return checked.data;
  const key = checked.problem === 'schema' && checked.path.length > 0 ? checked.path.join('.') : undefined;
  throw new ConfigFileError(
    CliErrorCode.configFileInvalid,
    path,
    `the config file ${path} ${checked.reason}`,
    {
      suggestion:
        key === undefined
          ? 'Fix it in an editor, or delete it to start over with the defaults.'
          : `Fix it with \`planwright config set ${key} <value>\` or \`planwright config unset ${key}\`.`,
      cause: checked.cause,
    },
  );
}

/**
 * Writes the config file atomically (see {@link writePrivateFileAtomically}), 0600 in a 0700
 * directory: settings are nobody else's business, and the directory also holds `session.json`.
 */
export async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  try {
    await writePrivateFileAtomically(path, `${JSON.stringify(config, null, 2)}\n`);
  } catch (error) {
    throw new ConfigFileError(
      CliErrorCode.configFileUnwritable,
      path,
      `cannot write the config file ${path}: ${describeFsError(error)}`,
      {
        suggestion: `Check the permissions of ${dirname(path)}, or set ${CONFIG_DIR_ENV} to another directory.`,
        cause: error,
      },
    );
  }
}

/** Reads the config file, changes it and writes it back. Not safe against two concurrent writers. */
export async function updateConfigFile(
  path: string,
  change: (config: ConfigFile) => ConfigFile,
): Promise<ConfigFile> {
  const next = change(await readConfigFile(path));
  await writeConfigFile(path, next);
  return next;
}
