import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { installGracefulShutdown } from '../src/lifecycle/graceful-shutdown.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** A GET answered in full; `agent` to keep its socket alive afterwards. */
function get(url: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Listens on a free loopback port and answers it. */
async function listen(app: TestApp['app']): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** The shutdown with a 5 s timeout and no signals; the exit codes it asks for are recorded, not run. */
function recordedShutdown(app: TestApp['app']) {
  const exits: number[] = [];
  return {
    exits,
    ...installGracefulShutdown(app, { timeoutMs: 5_000, signals: [], exit: (code) => exits.push(code) }),
  };
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close().catch(() => {});
  t = undefined;
});

describe('graceful shutdown', () => {
  it('lets a request in flight finish, refuses new connections, then exits 0', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const hasStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    t = await createTestApp(
      {},
      {
        routes: (app) =>
          app.get('/api/v1/test-slow', async () => {
            started();
            await released;
            return { done: true };
          }),
      },
    );
    const base = `http://127.0.0.1:${await listen(t.app)}`;
    const { exits, shutdown, dispose } = recordedShutdown(t.app);
    try {
      const inFlight = get(`${base}/api/v1/test-slow`);
      await hasStarted;
      const closing = shutdown('test');
      await expect(get(`${base}/api/v1/health`)).rejects.toThrow(/ECONNREFUSED|ECONNRESET|socket hang up/);
      expect(exits).toEqual([]);
      release();
      await expect(inFlight).resolves.toEqual({ status: 200, body: '{"done":true}' });
      await closing;
      expect(exits).toEqual([0]);
    } finally {
      dispose();
    }
  });

  it('is not held by connections that never sent a byte (a preconnect) nor by idle keep-alive ones', async () => {
    t = await createTestApp();
    const port = await listen(t.app);
    // Node does not count a socket without a request as idle: it would wait out its headers timeout.
    const silent = connect(port, '127.0.0.1');
    await once(silent, 'connect');
    const silentClosed = once(silent, 'close');
    const agent = new Agent({ keepAlive: true });
    expect((await get(`http://127.0.0.1:${port}/api/v1/health`, agent)).status).toBe(200);
    const { exits, shutdown, dispose } = recordedShutdown(t.app);
    try {
      await shutdown('test');
      // 1 would mean the shutdown timed out waiting for one of the sockets.
      expect(exits).toEqual([0]);
      await silentClosed;
    } finally {
      dispose();
      agent.destroy();
      silent.destroy();
    }
  });

  it('exits 1 on a second request to stop', async () => {
    t = await createTestApp();
    const { exits, shutdown, dispose } = recordedShutdown(t.app);
    const first = shutdown('SIGTERM');
    void shutdown('SIGINT');
    await first;
    dispose();
    expect(exits[0]).toBe(1);
  });
});

describe('the server process', () => {
  it('starts, answers health, and on SIGTERM closes the database and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planwright-server-proc-'));
    const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions=planwright-source', '--import', 'tsx', serverEntry],
      {
        env: {
          ...process.env,
          PORT: '0',
          PLANWRIGHT_DATA_DIR: dir,
          LOG_LEVEL: 'info',
          PLANWRIGHT_PRINT_URL: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /Planwright is running at (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', (code) => reject(new Error(`server exited early with ${code}:\n${output}`)));
      });
      const health = await get(`${url}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toMatchObject({ status: 'ok', database: 'pglite' });

      const exitCode = await new Promise<number | null>((resolve) => {
        child.on('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });
      expect(exitCode, output).toBe(0);
      expect(output).toContain('shutdown complete');
      // The data-dir lock is released only when the database has closed.
      expect(existsSync(join(dir, 'pglite', 'planwright.lock'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad configuration with one clear message and exit code 1', async () => {
    const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions=planwright-source', '--import', 'tsx', serverEntry],
      {
        env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'mysql://nope' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('planwright-server: Invalid configuration:');
    expect(stderr).toContain('PORT:');
    expect(stderr).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
