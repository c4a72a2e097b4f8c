import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { seedEmbeddedDatabase } from '../../packages/server/test/support/embedded-database-template.js';

// What the server writes to stdout, as a person or a log collector reads it (LOG_FORMAT, docs/deployment.md).
// Its stdout here is a pipe, not a terminal: `auto` must give JSON, `pretty` forces readable lines.
const root = fileURLToPath(new URL('../../', import.meta.url));
const serverEntry = join(root, 'packages/server/src/server.ts');
const dirs: string[] = [];
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  url: string;
  stdout: () => string;
  stop: () => Promise<void>;
}

/** The server from source on a free port over a copy of the migrated template; resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'planwright-log-format-'));
  dirs.push(dataDir);
  await seedEmbeddedDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
  const child = spawn(process.execPath, ['--conditions=planwright-source', '--import', 'tsx', serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PLANWRIGHT_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
      SMTP_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /Planwright is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${stdout}\n${stderr}`)));
  });
  return {
    url,
    stdout: () => stdout,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A health probe, then a request that must log; once the latter's line is there, the probe's would be too. */
async function probeThenRequest(url: string): Promise<void> {
  expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
  const answer = await fetch(`${url}/api/v1/documents/?token=in-the-query`);
  expect(answer.status).toBe(401);
}

describe('log format', () => {
  it('LOG_FORMAT=pretty: a readable banner, one short line per request, none for a health probe', async () => {
    const server = await startServer({ LOG_FORMAT: 'pretty', PLANWRIGHT_PRINT_URL: '1' });
    try {
      await probeThenRequest(server.url);
      await expect.poll(server.stdout, { timeout: 15_000 }).toMatch(/GET \/api\/v1\/documents\/ 401 \d+ ms/);
      const lines = server.stdout().split('\n');
      const requestLines = lines.filter((line) => line.includes('/api/v1/documents'));
      // One line, no colours (not a terminal), no JSON, no request id, no query string.
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/v1\/documents\/ 401 \d+ ms$/);
      expect(server.stdout()).not.toContain('/api/v1/health');
      expect(server.stdout()).not.toContain('in-the-query');
      expect(server.stdout()).not.toContain('incoming request');
      expect(server.stdout()).not.toMatch(/^\{/m);
      // The banner: the address to open, and where e-mails go without SMTP.
      expect(server.stdout()).toContain(`  Planwright is running at ${server.url}\n`);
      expect(server.stdout()).toContain(`they are written to ${join(dirs.at(-1) ?? '', 'outbox')}`);
    } finally {
      await server.stop();
    }
  });

  it('stdout not a terminal, LOG_FORMAT unset: JSON lines only, one per request, none for a health probe', async () => {
    const server = await startServer({ PLANWRIGHT_PRINT_URL: '0' });
    try {
      await probeThenRequest(server.url);
      await expect.poll(server.stdout, { timeout: 15_000 }).toContain('GET /api/v1/documents/ 401');
      const lines = server
        .stdout()
        .split('\n')
        .filter((line) => line !== '');
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const requests = records.filter((record) => record.req !== undefined);
      expect(requests).toEqual([
        expect.objectContaining({
          level: 30,
          req: { method: 'GET', url: '/api/v1/documents/' },
          res: { statusCode: 401 },
          responseTime: expect.any(Number),
          reqId: expect.any(String),
        }),
      ]);
      expect(server.stdout()).not.toContain('in-the-query');
      // The start is said in JSON too, with the outbox.
      expect(records).toContainEqual(
        expect.objectContaining({
          msg: `Planwright is running at ${server.url}`,
          outbox: expect.any(String),
        }),
      );
    } finally {
      await server.stop();
    }
  });
});
