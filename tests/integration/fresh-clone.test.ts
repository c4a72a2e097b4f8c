import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { killGroup, npmStart, type StartedNpm, stopNpm } from '../support/npm-start.js';

/*
 * A new user's first minutes: a copy of the checkout with nothing built and nothing installed, the README's
 * first command, then the `planwright` command from the repository root. The copy holds the files git
 * tracks or would track (so uncommitted work is tested too), never node_modules or dist/.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let work: string;
let clone: string;
let started: StartedNpm | undefined;

/** The first command of the README's "Run it" section, the one a new user types. */
function readmeFirstCommand(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /## Run it[\s\S]*?```sh\n([^\n]+)\n/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## Run it"');
  return block.trim();
}

/** The planwright command of the fresh copy, run the way the README says: `npx planwright` from its root. */
function planwright(args: string[], env: Record<string, string> = {}) {
  return run('npx', ['--no-install', 'planwright', ...args], {
    cwd: clone,
    env: { ...process.env, PLANWRIGHT_CONFIG_DIR: join(work, 'config'), ...env },
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'planwright-fresh-clone-'));
  clone = join(work, 'planwright');
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter(Boolean)) {
    // A file deleted in the working tree but not yet in the index is not part of the checkout.
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
});

afterAll(async () => {
  if (started) {
    await stopNpm(started).catch(() => {});
    killGroup(started.child);
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a fresh clone', () => {
  it("runs the README's first command, and then `npx planwright` works from the repository root", async () => {
    const command = readmeFirstCommand();
    expect(command).toBe('npm install && npm start');
    expect(existsSync(join(clone, 'node_modules')), 'the copy starts with nothing installed').toBe(false);
    expect(existsSync(join(clone, 'packages/cli/dist')), 'the copy starts with nothing built').toBe(false);

    started = await npmStart({
      cwd: clone,
      shell: command,
      // --prefer-offline: the packages come from npm's cache when it has them; the install is the same.
      env: { PORT: '0', PLANWRIGHT_DATA_DIR: join(work, 'data'), npm_config_prefer_offline: 'true' },
    });

    const cliVersion = z
      .object({ version: z.string() })
      .parse(JSON.parse(readFileSync(join(clone, 'packages/cli/package.json'), 'utf8'))).version;
    const version = await planwright(['--version']);
    expect(version.stdout.trim()).toBe(cliVersion);

    const status = await planwright(['status', '--json'], { PLANWRIGHT_SERVER: started.url });
    expect(JSON.parse(status.stdout)).toMatchObject({
      server: started.url,
      serverSource: expect.any(String),
      status: 'ok',
      database: 'pglite',
    });

    const help = await planwright(['--help']);
    expect(help.stdout).toContain('Usage: planwright');

    await stopNpm(started);
    started = undefined;
    // A whole `npm install` and a first build of every package: minutes on a busy machine, not seconds.
  }, 900_000);
});
