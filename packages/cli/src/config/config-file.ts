import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';
import { type CliIo, readEnv } from '../cli-io.js';
import { CliErrorCode, ConfigFileError } from '../errors/cli-error.js';
import { type ConfigFile, configFileSchema } from './config-schema.js';

/** Overrides the config directory (tests, or several profiles side by side). */
export const CONFIG_DIR_ENV = 'PLANWRIGHT_CONFIG_DIR';

const CONFIG_FILE_NAME = 'config.json';

/**
 * The directory of the config file: `PLANWRIGHT_CONFIG_DIR`, else the platform's config directory
 * (`$XDG_CONFIG_HOME/planwright`, `~/.config/planwright`, `~/Library/Preferences/planwright`,
 * `%APPDATA%\planwright\Config`). env-paths reads `XDG_CONFIG_HOME`/`APPDATA` from `process.env`
 * itself; only our own variable comes from the injected environment.
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
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return {};
    throw new ConfigFileError(
      CliErrorCode.configFileUnreadable,
      path,
      `cannot read the config file ${path}: ${describeFsError(error)}`,
      { cause: error },
    );
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(
      CliErrorCode.configFileInvalid,
      path,
      `the config file ${path} is not valid JSON (${(error as Error).message})`,
      { suggestion: 'Fix it in an editor, or delete it to start over with the defaults.', cause: error },
    );
  }

  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ConfigFileError(
      CliErrorCode.configFileInvalid,
      path,
      `the config file ${path} is invalid: ${where}${issue?.message ?? 'unexpected content'}`,
      {
        suggestion:
          issue && issue.path.length > 0
            ? `Fix it with \`planwright config set ${issue.path.join('.')} <value>\` or \`planwright config unset ${issue.path.join('.')}\`.`
            : 'Fix it in an editor, or delete it to start over with the defaults.',
        cause: parsed.error,
      },
    );
  }
  return parsed.data;
}

/**
 * Writes the config file atomically: a temporary file in the same directory, flushed to disk, then
 * renamed over the old one, so a crash or a full disk never leaves half a file behind and readers
 * see the old or the new content, nothing in between. The file is created 0600 and its directory
 * 0700: settings are nobody else's business, and the directory is where the session token will live.
 */
export async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  const directory = dirname(path);
  const temporary = join(directory, `.${CONFIG_FILE_NAME}.${process.pid}.${randomUUID()}.tmp`);
  try {
    // `mode` only applies to directories mkdir creates: an existing directory keeps its mode,
    // because PLANWRIGHT_CONFIG_DIR may point somewhere the user chose on purpose.
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(config, null, 2)}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    // The umask may only remove bits from 0600, but a chmod makes the mode explicit either way.
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw new ConfigFileError(
      CliErrorCode.configFileUnwritable,
      path,
      `cannot write the config file ${path}: ${describeFsError(error)}`,
      {
        suggestion: `Check the permissions of ${directory}, or set ${CONFIG_DIR_ENV} to another directory.`,
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

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

const fsErrorText: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'a file is in the way of a directory',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
};

function describeFsError(error: unknown): string {
  const code = errorCode(error);
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return `${fsErrorText[code] ?? 'file system error'} (${code})`;
}
