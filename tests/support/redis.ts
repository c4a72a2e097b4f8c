import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSystemPackage, REDIS } from './system-packages.mjs';
import { freePort } from './test-server.js';

/** A throwaway Redis for a test file. */
export interface TestRedis {
  /** `redis://127.0.0.1:{port}`, for REDIS_URL. */
  url: string;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts Debian's redis-server on a free loopback port, in memory only (`--save '' --appendonly no`),
 * installing the package first when it is missing and we are root (else it fails with the exact
 * instruction; never skipped). Resolves once it accepts connections.
 */
export async function startRedis(): Promise<TestRedis> {
  ensureSystemPackage(REDIS);
  const dir = mkdtempSync(join(tmpdir(), 'planwright-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
    child.once('error', reject);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
