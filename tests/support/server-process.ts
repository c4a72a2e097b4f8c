import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, testDatabaseKind } from './test-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The server's entry, run from source: the tests check the code in the checkout, never a stale build. */
const serverEntry = join(root, 'packages/server/src/server.ts');
/** How much of the child's output is kept for an error message. */
const OUTPUT_TAIL_CHARS = 8000;

/** The real server as a separate OS process, so `kill -9` is a real one. */
export interface ServerProcess {
  /** `http://127.0.0.1:{port}`; the same port on every start. */
  readonly url: string;
  readonly dataDir: string;
  readonly outboxDir: string;
  /** The running process's id; `null` while stopped. */
  readonly pid: number | null;
  /** Spawns the server again over the same data directory and resolves once `/api/v1/health` answers 200. */
  start(): Promise<void>;
  /** SIGKILL (no shutdown hook runs, nothing is flushed) and resolves once the process is gone. */
  kill9(): Promise<void>;
  /** Kills the process if it runs, removes the data directory and drops the PostgreSQL database. */
  close(): Promise<void>;
}

export interface ServerProcessOptions {
  env?: Record<string, string>;
  /** As in `startTestServer`: defaults to `PLANWRIGHT_TEST_DATABASE`, else PGlite. */
  database?: 'pglite' | 'postgres';
  /** Bound on one start (spawn to healthy); default 60 s (a cold tsx start is ~2 s, a loaded CI runner slower). */
  startTimeoutMs?: number;
  /** Told every chunk the process writes to stdout or stderr, whole (the log-secrets test reads the full log). */
  onOutput?: (text: string) => void;
}

/**
 * Starts the server from source (`node --conditions=planwright-source --import tsx`) on a port chosen once,
 * over one data directory (PGlite) or one PostgreSQL database of its own, and waits until it is healthy.
 */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'planwright-server-process-'));
  const port = await freePort();
  const usePostgres = (options.database ?? testDatabaseKind()) === 'postgres' && !options.env?.DATABASE_URL;
  const database = usePostgres ? await createTestDatabase() : undefined;
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(database ? { DATABASE_URL: database.url } : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    PLANWRIGHT_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PLANWRIGHT_PRINT_URL: '1',
    ...options.env,
  };
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) {
      throw new Error('the server process is already running');
    }
    const spawned = spawn(
      process.execPath,
      ['--conditions=planwright-source', '--import', 'tsx', serverEntry],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a kill reaches anything it may spawn.
        detached: true,
      },
    );
    child = spawned;
    let output = '';
    const append = (chunk: Buffer) => {
      options.onOutput?.(chunk.toString());
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
    };
    spawned.stdout?.on('data', append);
    spawned.stderr?.on('data', append);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the server did not start within ${startTimeoutMs} ms:\n${output}`)),
          startTimeoutMs,
        );
        const done = (error?: Error) => {
          clearTimeout(timer);
          spawned.stdout?.off('data', onOutput);
          spawned.off('exit', onExit);
          if (error) reject(error);
          else resolve();
        };
        // The server prints its URL once it listens (src/server.ts), after the database is open and migrated.
        const onOutput = () => {
          if (output.includes('Planwright is running at')) done();
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
          done(new Error(`the server exited (${signal ?? code}) before it listened:\n${output}`));
        spawned.stdout?.on('data', onOutput);
        spawned.on('exit', onExit);
      });
      const health = await fetch(`${url}/api/v1/health`);
      if (health.status !== 200) {
        throw new Error(`/api/v1/health answered ${health.status}: ${await health.text()}\n${output}`);
      }
    } catch (error) {
      await kill9();
      throw error;
    }
  };

  const kill9 = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    try {
      if (running.pid) process.kill(-running.pid, 'SIGKILL');
    } catch {
      // The group is gone already; the process's own handle is the fallback.
      running.kill('SIGKILL');
    }
    await exited;
  };

  await start();
  return {
    url,
    dataDir,
    outboxDir: join(dataDir, 'outbox'),
    get pid() {
      return child?.pid ?? null;
    },
    start,
    kill9,
    async close() {
      await kill9();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
