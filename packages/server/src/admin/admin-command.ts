import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type ServerConfig } from '../config/config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { openStorage, type Storage } from '../storage/storage.js';
import { globalSystemPromptText, resolveGlobalSystemPrompt } from '../system-prompt/global-system-prompt.js';

/** What the admin command reads and writes; the entry passes the process's, tests their own. */
export interface AdminIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read only by `set --stdin`. */
  stdin: AsyncIterable<Uint8Array | string> & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => Date;
}

/** A failure the administrator can act on: printed as one line, exit code 1 (2 for usage). */
export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export const ADMIN_USAGE = `Usage: npm run admin -w @planwright/server -- <command>
   or: node packages/server/dist/admin.js <command>

Commands:
  system-prompt show               print the global system prompt in force (its source goes to stderr)
  system-prompt set --file <path>  store the prompt in the file (UTF-8 text)
  system-prompt set --stdin        store the prompt read from standard input
  system-prompt clear              remove the stored prompt (the built-in default applies again)

The command opens the server's database with the server's configuration (DATABASE_URL, or the
embedded database in PLANWRIGHT_DATA_DIR). The embedded database allows one process at a time:
stop the server first. PLANWRIGHT_GLOBAL_SYSTEM_PROMPT, while set, wins over the stored prompt.
`;

// A prompt is at most 20,000 characters (80 KB in UTF-8); anything far bigger is the wrong file.
const MAX_INPUT_BYTES = 1024 * 1024;

type SystemPromptAction = { kind: 'show' } | { kind: 'clear' } | { kind: 'set'; from: 'stdin' | string };

function usage(message: string): AdminError {
  return new AdminError(`${message}\n\n${ADMIN_USAGE}`, 2);
}

/** The action `argv` asks for, or a usage error; nothing is opened or read yet. */
function parseCommand(argv: readonly string[]): SystemPromptAction | 'help' {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        file: { type: 'string' },
        stdin: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0 || positionals[0] === 'help') return 'help';
  const [area, action, ...rest] = positionals;
  if (area !== 'system-prompt') throw usage(`Unknown command: ${area}`);
  if (rest.length > 0) throw usage(`Unexpected argument: ${rest[0]}`);
  const file = values.file;
  const fromStdin = values.stdin === true;
  if (action === 'set') {
    if (typeof file === 'string' && fromStdin) throw usage('Use --file or --stdin, not both.');
    if (typeof file === 'string') {
      if (file === '') throw usage('--file needs a path.');
      return { kind: 'set', from: file };
    }
    if (fromStdin) return { kind: 'set', from: 'stdin' };
    throw usage('system-prompt set needs --file <path> or --stdin.');
  }
  if (file !== undefined || fromStdin) throw usage('--file and --stdin only go with system-prompt set.');
  if (action === 'show') return { kind: 'show' };
  if (action === 'clear') return { kind: 'clear' };
  throw usage(action === undefined ? 'system-prompt needs show, set or clear.' : `Unknown action: ${action}`);
}

function decodeUtf8(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AdminError(`${source} is not UTF-8 text.`);
  }
}

async function readPromptFile(path: string): Promise<string> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new AdminError(`${path} is not a file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof AdminError) throw error;
    throw new AdminError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
  if (size > MAX_INPUT_BYTES) throw new AdminError(`${path} is too large for a system prompt.`);
  return decodeUtf8(await readFile(path), path);
}

async function readPromptStdin(io: AdminIo): Promise<string> {
  if (io.stdin.isTTY) io.stderr.write('Reading the prompt from standard input; end it with Ctrl-D.\n');
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > MAX_INPUT_BYTES) throw new AdminError('Standard input is too large for a system prompt.');
    chunks.push(bytes);
  }
  return decodeUtf8(Buffer.concat(chunks), 'Standard input');
}

/** The prompt as it will be stored (trimmed), or why it cannot be. */
function checkedPrompt(text: string, source: string): string {
  const parsed = globalSystemPromptText.safeParse(text);
  if (parsed.success) return parsed.data;
  const reason = parsed.error.issues[0]?.message ?? 'is not a valid prompt';
  throw new AdminError(`The prompt from ${source} ${reason}.`);
}

function configOf(io: AdminIo): ServerConfig {
  try {
    return loadConfig(io.env, io.cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw new AdminError(error.message);
    throw error;
  }
}

async function openServerStorage(config: ServerConfig): Promise<Storage> {
  const location = config.database;
  // Opening a directory that does not exist would create an empty database the server never reads:
  // almost always a mistyped PLANWRIGHT_DATA_DIR.
  if (location.kind === 'pglite' && !existsSync(location.dataDir)) {
    throw new AdminError(
      `There is no Planwright database in ${config.dataDir}. Check PLANWRIGHT_DATA_DIR ` +
        '(the server creates the database when it first starts).',
    );
  }
  try {
    return await openStorage(location);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new AdminError(
        `The embedded database in ${config.dataDir} is in use by a running Planwright server (pid ${error.pid}). ` +
          'It allows one process at a time: stop the server, run this command, then start the server again.',
      );
    }
    throw new AdminError(`Could not open the database: ${(error as Error).message}`);
  }
}

const SOURCE_TEXT = {
  environment: 'PLANWRIGHT_GLOBAL_SYSTEM_PROMPT (environment; it wins while set)',
  database: 'the database (set with the admin command)',
  default: 'the built-in default',
} as const;

async function runSystemPrompt(action: SystemPromptAction, io: AdminIo): Promise<void> {
  // Input is read and checked before the database is opened, so a bad file changes nothing.
  const prompt =
    action.kind === 'set'
      ? action.from === 'stdin'
        ? checkedPrompt(await readPromptStdin(io), 'standard input')
        : checkedPrompt(await readPromptFile(resolve(io.cwd, action.from)), action.from)
      : undefined;
  const config = configOf(io);
  const storage = await openServerStorage(config);
  try {
    if (action.kind === 'show') {
      const resolved = await resolveGlobalSystemPrompt({
        fromEnvironment: config.globalSystemPrompt,
        appSettings: storage.appSettings,
      });
      io.stdout.write(`${resolved.prompt}\n`);
      io.stderr.write(`Source: ${SOURCE_TEXT[resolved.source]}.\n`);
      return;
    }
    if (action.kind === 'set' && prompt !== undefined) {
      await storage.appSettings.set('global_system_prompt', prompt, io.now());
      io.stdout.write(`Stored the global system prompt (${[...prompt].length} characters).\n`);
    } else {
      const cleared = await storage.appSettings.clear('global_system_prompt');
      io.stdout.write(
        cleared
          ? 'Removed the stored global system prompt; the built-in default applies.\n'
          : 'There was no stored global system prompt; the built-in default applies.\n',
      );
    }
    if (config.globalSystemPrompt !== undefined) {
      io.stderr.write(
        'Note: PLANWRIGHT_GLOBAL_SYSTEM_PROMPT is set in this environment. Where it is set for the server, it wins over the stored prompt.\n',
      );
    }
  } finally {
    await storage.close();
  }
}

/**
 * Runs `planwright-admin <argv>` and answers the exit code: 0 done, 1 failed (one line on stderr),
 * 2 usage error. Only unexpected errors (bugs) throw.
 */
export async function runAdminCommand(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    const command = parseCommand(argv);
    if (command === 'help') {
      io.stdout.write(ADMIN_USAGE);
      return 0;
    }
    await runSystemPrompt(command, io);
    return 0;
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    io.stderr.write(`planwright-admin: ${error.message}\n`);
    return error.exitCode;
  }
}
