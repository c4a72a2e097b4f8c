import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPlanwrightClient } from '@planwright/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, verifiedAccount } from '../support/browser-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs an example the way its README says: tsx, resolving the SDK from source. */
async function example(name: string, args: string[], env: Record<string, string> = {}) {
  return run(
    process.execPath,
    ['--conditions=planwright-source', '--import', 'tsx', `examples/${name}`, ...args],
    {
      cwd: root,
      env: { ...process.env, PLANWRIGHT_SERVER: '', ...env },
    },
  ).then(
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

describe('examples/plan-progress.ts', () => {
  const email = 'progress-example@example.com';
  const credentials = { PLANWRIGHT_EMAIL: email, PLANWRIGHT_PASSWORD: TEST_PASSWORD };

  it('prints each plan with its progress and the subsections left to finalize', async () => {
    await verifiedAccount(server, email);
    const client = createPlanwrightClient({ baseUrl: server.url });
    await client.auth.login({ email, password: TEST_PASSWORD });
    const plan = await client.documents.create({
      blueprint: (await client.blueprints.available()).items.find((b) => b.is_default)?.uuid ?? '',
      title: 'Seed round',
    });
    const first = plan.sections[0]?.subsections[0];
    if (!first || !plan.sections[0]) throw new Error('the default blueprint has no subsection');
    await client.documents.sections.subsections.update(plan.uuid, plan.sections[0].uuid, first.uuid, {
      finalized: true,
    });

    const result = await example('plan-progress.ts', [server.url], credentials);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const total = plan.progress.total;
    expect(result.stdout).toContain(
      `Seed round: ${Math.round(100 / total)}% (1/${total} subsections finalized)`,
    );
    // The finalized subsection is no longer listed as open; its siblings are.
    const sectionLine = result.stdout
      .split('\n')
      .find((line) => line.startsWith(`  ${plan.sections[0]?.title}:`));
    expect(sectionLine).toBeDefined();
    expect(sectionLine).not.toContain(first.title);
  });

  it('exits 1 with one line when the password is wrong', async () => {
    const result = await example('plan-progress.ts', [server.url], {
      ...credentials,
      PLANWRIGHT_PASSWORD: 'wrong-password-1',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('could not sign in');
  });
});
