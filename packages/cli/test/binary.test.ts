import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuildOptions } from '../tsup.config.js';
import { closedPortUrl } from './support/http-server.js';

// The built `planwright` bin, run as a child process: what users get from `npm install`. It is built
// with the options of `npm run build` into its own directory rather than dist/, so that other test
// projects running at the same time (tests/ runs the CLI end to end) never see a half-cleaned dist/.
// That directory sits next to dist/, where the bin finds ../package.json and node_modules the same way.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(packageDir, '.dist-test');
const bin = join(outDir, 'cli.js');
const recorder = fileURLToPath(new URL('./support/record-modules.mjs', import.meta.url));
const version = (JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string })
  .version;

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(file: string, args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve) => {
    // A clean environment: no PLANWRIGHT_* or NODE_OPTIONS from the test runner leak in.
    const childEnv = { PATH: process.env.PATH ?? '', HOME: scratch, ...env };
    execFile(file, args, { cwd: packageDir, env: childEnv }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const planwright = (args: string[], env?: Record<string, string>) =>
  exec(process.execPath, [bin, ...args], env);

/** The module URLs a `node …` run loaded, recorded by support/record-modules.mjs. */
async function modulesLoadedBy(nodeArgs: string[]): Promise<{ exit: Exit; modules: string[] }> {
  const out = join(scratch, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const exit = await exec(process.execPath, ['--import', recorder, ...nodeArgs], { RECORD_MODULES_TO: out });
  const modules = (await readFile(out, 'utf8')).split('\n').filter(Boolean);
  return { exit, modules };
}

const heavy = ['ink', 'react', 'react-reconciler', 'zod', '@planwright/sdk', 'string-width'];

/**
 * What a run loaded, file by file: each module URL, and for a file of the build, every source file its
 * source map names. The build bundles zod, the SDK and undici's Agent into its chunks (tsup.config.ts), so
 * their code runs from files under the build's own directory: the chunk's sources say whose code it holds.
 */
async function loadedSources(modules: string[]): Promise<string[]> {
  const buildDir = pathToFileURL(`${outDir}/`).href;
  const sources = await Promise.all(
    modules
      .filter((url) => url.startsWith(buildDir))
      .map(async (url) => {
        const map = JSON.parse(await readFile(fileURLToPath(`${url}.map`), 'utf8')) as { sources: string[] };
        return map.sources.map((source) => new URL(source, url).href);
      }),
  );
  return [...modules, ...sources.flat()];
}

/** The {@link heavy} packages whose code a run loaded, as a module of their own or bundled into a chunk. */
const loadedPackages = async (modules: string[]) => {
  const sources = await loadedSources(modules);
  return heavy.filter((name) =>
    sources.some(
      (url) =>
        url.includes(`/node_modules/${name}/`) ||
        (name === '@planwright/sdk' && url.includes('/packages/sdk/')),
    ),
  );
};

let scratch = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'planwright-bin-'));
  // The real build (same options as `npm run build`), in-process: much faster than spawning tsup.
  await build({ ...cliBuildOptions, outDir, config: false, silent: true });
}, 60_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await rm(outDir, { recursive: true, force: true });
});

describe('the built planwright binary', () => {
  it('runs as an executable through its #!/usr/bin/env node line', async () => {
    expect((await stat(bin)).mode & 0o111).not.toBe(0);
    expect(await readFile(bin, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(await exec(bin, ['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('prints help with exit 0', async () => {
    const result = await planwright(['--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: planwright \[options\] \[command\]/);
    expect(result.stdout).toContain('status');
    expect(result.stdout).toContain('Exit codes:');
  });

  it('rejects a bad --server with one line, exit 2 and no stack trace', async () => {
    const result = await planwright(['--server', 'localhost:8787', 'status']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'planwright: --server: "localhost:8787" needs http:// or https:// in front (did you mean http://localhost:8787?)\n' +
        'Run `planwright status --help` for usage.\n',
    });
  });

  it('ends quietly with exit 0 when its reader closes the pipe early (`planwright … | head`)', async () => {
    const child = spawn(process.execPath, [bin, '--help'], {
      cwd: packageDir,
      env: { PATH: process.env.PATH ?? '', HOME: scratch },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the first write, as `head -c 0` would: every write then fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('says a reset connection in words every time: no request is left unsettled, no silent exit', async () => {
    // A process of its own, as a real server is: one in this busy test process answers too late for the race.
    const resetter = spawn(
      process.execPath,
      [
        '-e',
        `const server = require('node:net').createServer((socket) => { socket.on('error', () => {}); socket.resetAndDestroy(); });
         server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [port] = (await once(resetter.stdout, 'data')) as [Buffer];
    const url = `http://127.0.0.1:${port.toString().trim()}`;
    try {
      // Node 20's own connection pool left about one run in three waiting for ever, and the process
      // then ended with code 13 and nothing on stderr.
      const configDir = await mkdtemp(join(scratch, 'config-'));
      await writeFile(
        join(configDir, 'session.json'),
        JSON.stringify({ sessions: { [url]: { token: 'a-session-token', email: 'ada@example.com' } } }),
      );
      for (let run = 0; run < 20; run += 1) {
        const result = await planwright(['documents', 'list', '--server', url], {
          PLANWRIGHT_CONFIG_DIR: configDir,
        });
        expect(result, `run ${run}`).toEqual({
          code: 4,
          stdout: '',
          stderr:
            `planwright: cannot reach the Planwright server at ${url} (ECONNRESET)\n` +
            'Start one with `npm start` in the Planwright folder, or point to yours with --server <url> or PLANWRIGHT_SERVER.\n',
        });
      }
    } finally {
      resetter.kill();
    }
  }, 60_000);

  it('puts the config file under XDG_CONFIG_HOME, or PLANWRIGHT_CONFIG_DIR when set', async () => {
    const xdg = join(scratch, 'xdg');
    expect((await planwright(['config', 'path'], { XDG_CONFIG_HOME: xdg })).stdout).toBe(
      `${xdg}/planwright/config.json\n`,
    );
    const custom = join(scratch, 'custom');
    expect(
      (await planwright(['config', 'path'], { XDG_CONFIG_HOME: xdg, PLANWRIGHT_CONFIG_DIR: custom })).stdout,
    ).toBe(`${custom}/config.json\n`);
  });

  it('the module recorder sees Ink and React when they are loaded (control for the next test)', async () => {
    const { exit, modules } = await modulesLoadedBy(['--input-type=module', '-e', "await import('ink')"]);
    expect(exit.code).toBe(0);
    expect(await loadedPackages(modules)).toEqual(expect.arrayContaining(['ink', 'react']));
  });

  it.each([
    '--help',
    '--version',
    'config --help',
    'status --help',
    'login --help',
    'whoami --help',
    'logout --help',
    'tokens --help',
    'tokens create --help',
    'tokens list --help',
    'tokens revoke --help',
    'documents --help',
    'documents list --help',
    'documents delete --help',
    'blueprints --help',
    'blueprints show --help',
    'share --help',
    'members --help',
    'invitations --help',
    'invitations accept --help',
    'comment --help',
    'comments --help',
    'orgs --help',
    'versions --help',
    'versions restore --help',
    'diff --help',
    'export --help',
    'import --help',
    'convert --help',
  ])('`planwright %s` loads neither Ink, React, zod nor the SDK', async (command) => {
    const { exit, modules } = await modulesLoadedBy([bin, ...command.split(' ')]);
    expect(exit.code).toBe(0);
    // The recorder did record this run (commander is bundled into cli.js, so look for that).
    expect(modules).toContain(pathToFileURL(bin).href);
    expect(await loadedPackages(modules)).toEqual([]);
  });

  it('`planwright login --password-stdin` loads the SDK and zod but never Ink or React', async () => {
    const out = join(scratch, 'modules-login.txt');
    const url = await closedPortUrl();
    const exit = await new Promise<Exit>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          '--import',
          recorder,
          bin,
          'login',
          '--email',
          'ada@example.com',
          '--password-stdin',
          '--server',
          url,
        ],
        {
          cwd: packageDir,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: scratch,
            RECORD_MODULES_TO: out,
            PLANWRIGHT_CONFIG_DIR: scratch,
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin?.end('a-password\n');
    });
    // Nothing listens there: the run gets as far as the server, with the password read.
    expect(exit).toMatchObject({ code: 4, stdout: '' });
    expect(exit.stderr).toMatch(`planwright: cannot reach the Planwright server at ${url} (ECONNREFUSED)`);
    const modules = (await readFile(out, 'utf8')).split('\n').filter(Boolean);
    // Also the control for the checks above: bundled into chunks, zod and the SDK are still seen.
    expect(await loadedPackages(modules)).toEqual(['zod', '@planwright/sdk']);
  });

  it('`planwright login --token-stdin` loads the SDK and zod but never Ink or React', async () => {
    const out = join(scratch, 'modules-login-token.txt');
    const url = await closedPortUrl();
    const exit = await new Promise<Exit>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', recorder, bin, 'login', '--token-stdin', '--server', url],
        {
          cwd: packageDir,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: scratch,
            RECORD_MODULES_TO: out,
            PLANWRIGHT_CONFIG_DIR: scratch,
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin?.end(`pwt_${'a'.repeat(43)}\n`);
    });
    expect(exit).toMatchObject({ code: 4, stdout: '' });
    expect(exit.stderr).toMatch(`planwright: cannot reach the Planwright server at ${url} (ECONNREFUSED)`);
    const modules = (await readFile(out, 'utf8')).split('\n').filter(Boolean);
    expect(await loadedPackages(modules)).toEqual(['zod', '@planwright/sdk']);
  });

  it('`planwright status` loads zod and the SDK, but neither Ink, React nor the session store', async () => {
    const url = await closedPortUrl();
    const { exit, modules } = await modulesLoadedBy([bin, 'status', '--server', url]);
    expect(exit).toMatchObject({ code: 4, stdout: '' });
    expect(exit.stderr).toMatch(`planwright: cannot reach the Planwright server at ${url} (ECONNREFUSED)`);
    expect(await loadedPackages(modules)).toEqual(['zod', '@planwright/sdk']);
    // status asks the server signed out: the session file's code is not even loaded.
    const sources = await loadedSources(modules);
    expect(sources.filter((source) => source.includes('/packages/cli/src/session/'))).toEqual([]);
  });
});
