import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs an example the way its README says: tsx, resolving the SDK from source. */
async function example(name: string, args: string[]) {
  return run(process.execPath, ['--conditions=source', '--import', 'tsx', `examples/${name}`, ...args], {
    cwd: root,
    env: { ...process.env, PLANWRIGHT_SERVER: '' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('examples/server-status.ts', () => {
  it('reports a healthy server', async () => {
    const result = await example('server-status.ts', [server.url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/: ok, database pglite, version \d+\.\d+\.\d+/);
  });

  it('exits 1 with one line when nothing listens there', async () => {
    const result = await example('server-status.ts', ['http://127.0.0.1:9']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('not healthy');
  });
});
