import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/admin/admin-command.js';
import { openStorage } from '../../src/storage/storage.js';
import { DEFAULT_GLOBAL_SYSTEM_PROMPT } from '../../src/system-prompt/global-system-prompt.js';

const serverDir = fileURLToPath(new URL('../../', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const adminEntry = join(serverDir, 'src/admin/admin.ts');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin command in this process with its own streams: fast, for everything decided before
 * the database is opened (or where opening it fails).
 */
async function runHere(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string | Buffer } = {},
): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCommand(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: options.env ?? {},
    cwd: root,
    now: () => new Date('2026-11-22T08:00:00.000Z'),
  });
  return { code, stdout, stderr };
}

/** Runs the admin command as `npm run admin` does (tsx over the source) in its own process. */
function run(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string | Buffer; cwd?: string; command?: string[] } = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = options.command ?? [
      process.execPath,
      '--conditions=planwright-source',
      '--import',
      'tsx',
      adminEntry,
    ];
    const child = spawn(command as string, [...prefix, ...args], {
      cwd: options.cwd ?? serverDir,
      // A clean environment: nothing from the machine (DATABASE_URL, a prompt) leaks into the test.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

let root: string;
/** A data directory holding a migrated database, as a server leaves it. */
let dataDir: string;
const env = () => ({ PLANWRIGHT_DATA_DIR: dataDir });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'planwright-admin-test-'));
  dataDir = join(root, 'data');
  const storage = await openStorage({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  await storage.close();
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function file(name: string, content: string | Buffer): string {
  const path = join(root, name);
  writeFileSync(path, content);
  return path;
}

/** `system-prompt show` in this process; it must succeed. */
async function show(extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const outcome = await runHere(['system-prompt', 'show'], { env: { ...env(), ...extraEnv } });
  expect(outcome.code, outcome.stderr).toBe(0);
  return outcome;
}

describe('planwright-admin usage', () => {
  it('prints its usage for --help, -h and no command', async () => {
    for (const args of [['--help'], ['-h'], [], ['help']]) {
      const outcome = await runHere(args);
      expect(outcome.code, args.join(' ')).toBe(0);
      expect(outcome.stdout).toContain('system-prompt set --file <path>');
      expect(outcome.stderr).toBe('');
    }
  });

  it('exits 2 with a one-line reason and the usage for a wrong command line', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['users'], /Unknown command: users/],
      [['system-prompt'], /needs show, set or clear/],
      [['system-prompt', 'edit'], /Unknown action: edit/],
      [['system-prompt', 'set'], /needs --file <path> or --stdin/],
      [['system-prompt', 'set', '--file'], /argument missing|--file/],
      [['system-prompt', 'set', '--file', ''], /--file needs a path/],
      [['system-prompt', 'set', '--file', 'a.txt', '--stdin'], /not both/],
      [['system-prompt', 'show', '--stdin'], /only go with system-prompt set/],
      [['system-prompt', 'show', 'extra'], /Unexpected argument: extra/],
      [['system-prompt', 'show', '--force'], /Unknown option '--force'/],
    ];
    for (const [args, message] of cases) {
      const outcome = await runHere(args, { env: env() });
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stderr, args.join(' ')).toMatch(/^planwright-admin: /);
      expect(outcome.stderr, args.join(' ')).toMatch(message);
      expect(outcome.stderr).toContain('Usage:');
      expect(outcome.stdout).toBe('');
    }
  });

  it('runs through `npm run admin -w @planwright/server`', async () => {
    const outcome = await run(['run', 'admin', '--silent', '-w', '@planwright/server', '--', '--help'], {
      command: ['npm'],
      cwd: repoRoot,
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('Usage: npm run admin -w @planwright/server');
  });
});

describe('planwright-admin system-prompt, as its own process', () => {
  it('shows the default, sets from a file and from standard input, and shows each back', async () => {
    const fresh = await run(['system-prompt', 'show'], { env: env() });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toBe(`${DEFAULT_GLOBAL_SYSTEM_PROMPT}\n`);
    expect(fresh.stderr).toBe('Source: the built-in default.\n');

    const prompt = 'Du bist ein Berater für Gründerinnen.\n\n\t• Sei präzise — keine Floskeln. 🚀';
    const fromFile = await run(
      ['system-prompt', 'set', '--file', file('prompt.txt', `\uFEFF  ${prompt}\n\n`)],
      {
        env: env(),
      },
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe(`Stored the global system prompt (${[...prompt].length} characters).\n`);
    const shown = await show();
    expect(shown.stdout).toBe(`${prompt}\n`);
    expect(shown.stderr).toBe('Source: the database (set with the admin command).\n');

    const fromStdin = await run(['system-prompt', 'set', '--stdin'], {
      env: env(),
      stdin: 'From standard input.\n',
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect((await show()).stdout).toBe('From standard input.\n');
  });

  it('refuses a data directory a running server holds, saying what to do', async () => {
    const held = await openStorage({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    try {
      const outcome = await run(['system-prompt', 'set', '--stdin'], { env: env(), stdin: 'While running.' });
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(`is in use by a running Planwright server (pid ${process.pid})`);
      expect(outcome.stderr).toContain('stop the server, run this command, then start the server again');
      expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
      expect((await held.appSettings.get('global_system_prompt'))?.value).not.toBe('While running.');
    } finally {
      await held.close();
    }
  });

  it('resolves relative paths where `npm run admin` was typed, not in packages/server', async () => {
    file('relative.txt', 'Relative prompt.');
    const npmEnv = { npm_lifecycle_event: 'admin', INIT_CWD: root, PLANWRIGHT_DATA_DIR: 'data' };
    const set = await run(['system-prompt', 'set', '--file', 'relative.txt'], { env: npmEnv });
    expect(set.code, set.stderr).toBe(0);
    expect((await show()).stdout).toBe('Relative prompt.\n');
  });
});

describe('planwright-admin system-prompt', () => {
  it('shows an environment prompt over the stored one, and warns when setting while one is set', async () => {
    const set = await runHere(['system-prompt', 'set', '--stdin'], {
      env: { ...env(), PLANWRIGHT_GLOBAL_SYSTEM_PROMPT: 'From the environment.' },
      stdin: 'Stored while the environment wins.',
    });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toMatch(/PLANWRIGHT_GLOBAL_SYSTEM_PROMPT is set in this environment/);
    const withEnv = await show({ PLANWRIGHT_GLOBAL_SYSTEM_PROMPT: 'From the environment.' });
    expect(withEnv.stdout).toBe('From the environment.\n');
    expect(withEnv.stderr).toMatch(/PLANWRIGHT_GLOBAL_SYSTEM_PROMPT \(environment; it wins while set\)/);
    expect((await show()).stdout).toBe('Stored while the environment wins.\n');
  });

  it('refuses bad input with exit 1 and one line, before opening the database', async () => {
    mkdirSync(join(root, 'a-directory'), { recursive: true });
    const cases: Array<[string[], string | Buffer | undefined, RegExp]> = [
      [['--file', join(root, 'missing.txt')], undefined, /Cannot read .*missing\.txt: ENOENT/],
      [['--file', join(root, 'a-directory')], undefined, /is not a file/],
      [['--file', file('empty.txt', '')], undefined, /must not be empty/],
      [['--file', file('blank.txt', ' \n\t\n ')], undefined, /must not be empty/],
      [['--file', file('nul.txt', 'Be\u0000 brief')], undefined, /control characters/],
      // A lone surrogate as UTF-8 bytes (ED A0 80) is not valid UTF-8.
      [['--file', file('lone.txt', Buffer.from([0x48, 0xed, 0xa0, 0x80]))], undefined, /is not UTF-8 text/],
      [['--file', file('long.txt', 'x'.repeat(20_001))], undefined, /at most 20,000 characters/],
      [['--file', file('latin1.txt', Buffer.from([0x43, 0x61, 0x66, 0xe9]))], undefined, /is not UTF-8 text/],
      [['--file', file('huge.txt', Buffer.alloc(1024 * 1024 + 1, 0x61))], undefined, /too large/],
      [['--stdin'], '', /must not be empty/],
      [['--stdin'], Buffer.from([0xff, 0xfe, 0x00]), /Standard input is not UTF-8 text/],
      [['--stdin'], Buffer.alloc(1024 * 1024 + 1, 0x61), /too large/],
    ];
    // The data directory does not even exist: bad input is refused before the database is looked at.
    const noDatabase = { PLANWRIGHT_DATA_DIR: join(root, 'never-created') };
    for (const [flags, stdin, message] of cases) {
      const outcome = await runHere(['system-prompt', 'set', ...flags], {
        env: noDatabase,
        ...(stdin !== undefined ? { stdin } : {}),
      });
      expect(outcome.code, flags.join(' ')).toBe(1);
      expect(outcome.stderr, flags.join(' ')).toMatch(message);
      expect(outcome.stderr.trim().split('\n'), flags.join(' ')).toHaveLength(1);
    }
  });

  it('accepts 20,000 characters of any script', async () => {
    const prompt = '界'.repeat(20_000);
    const set = await runHere(['system-prompt', 'set', '--file', file('wide.txt', prompt)], { env: env() });
    expect(set.code, set.stderr).toBe(0);
    expect((await show()).stdout).toBe(`${prompt}\n`);
  });

  it('clears the stored prompt (twice is fine) and the default applies again', async () => {
    const first = await runHere(['system-prompt', 'clear'], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Removed the stored global system prompt/);
    const second = await runHere(['system-prompt', 'clear'], { env: env() });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^There was no stored global system prompt/);
    expect((await show()).stdout).toBe(`${DEFAULT_GLOBAL_SYSTEM_PROMPT}\n`);
  });

  it('refuses a data directory without a database instead of creating one', async () => {
    const outcome = await runHere(['system-prompt', 'show'], {
      env: { PLANWRIGHT_DATA_DIR: join(root, 'typo') },
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/There is no Planwright database in .*typo\. Check PLANWRIGHT_DATA_DIR/);
    expect(outcome.stdout).toBe('');
  });

  it('stops on a bad configuration, naming the variable', async () => {
    const outcome = await runHere(['system-prompt', 'show'], {
      env: { ...env(), DATABASE_URL: 'mysql://nope' },
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/DATABASE_URL: must be a postgres:\/\//);
  });
});
