import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPlanwrightClient } from '@planwright/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, verifiedAccount } from '../support/browser-accounts.js';
import { startTestServer, type TestServer, testDatabaseKind } from '../support/test-server.js';

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
    expect(result.stdout).toMatch(
      new RegExp(`: ok, database ${testDatabaseKind()}, version \\d+\\.\\d+\\.\\d+`),
    );
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

/** Signs up a verified account and answers the environment the examples read it from. */
async function exampleAccount(email: string) {
  await verifiedAccount(server, email);
  const client = createPlanwrightClient({ baseUrl: server.url });
  await client.auth.login({ email, password: TEST_PASSWORD });
  return { client, env: { PLANWRIGHT_EMAIL: email, PLANWRIGHT_PASSWORD: TEST_PASSWORD } };
}

/** The plain text of a subsection or section body, by its title. */
function textUnder(content: unknown, title: string): string {
  const json = JSON.stringify(content);
  const at = json.indexOf(`"text":"${title}"`);
  return at < 0 ? '' : json.slice(at, at + 2000);
}

describe('examples/fill-plan-from-markdown.ts', () => {
  const folder = join(root, 'examples/fixtures/seed-round');

  it('INT-E1: creates a plan from the default blueprint and fills each part its file names', async () => {
    const { client, env } = await exampleAccount('fill-example@example.com');
    const result = await example('fill-plan-from-markdown.ts', [folder, 'Bakery plan', server.url], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('01-executive-summary.md → section "Executive Summary"');
    expect(result.stdout).toContain('02-company-and-mission.md → subsection "Company and Mission"');
    expect(result.stdout).toContain('03-market.md → section "Market Analysis"');
    const uuid = /\(([0-9a-f-]{36})\)/.exec(result.stdout)?.[1] ?? '';
    const plan = await client.documents.get(uuid);
    expect(plan.title).toBe('Bakery plan');
    expect(textUnder(plan.content, 'Company and Mission')).toContain('sourdough');
    // A `##` inside a subsection's file lands as a level-4 heading, as in the AI's proposals.
    expect(textUnder(plan.content, 'Company and Mission')).toMatch(/"level":4[^}]*}[^\]]*Our promise/);
    expect(textUnder(plan.content, 'Market Analysis')).toContain('Subscriptions grew 40%');
  });

  it('INT-E2: a file that matches no part keeps no plan and names the file', async () => {
    const { client, env } = await exampleAccount('fill-example-bad@example.com');
    const scratch = mkdtempSync(join(tmpdir(), 'planwright-fill-'));
    try {
      writeFileSync(join(scratch, 'company-and-mission.md'), 'Fine.\n');
      writeFileSync(
        join(scratch, 'zz-<img src=x onerror=alert(1)>.md'),
        '# Nothing\u202e like this\n\nText.\n',
      );
      const result = await example('fill-plan-from-markdown.ts', [scratch, 'Rejected', server.url], env);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        'zz-<img src=x onerror=alert(1)>.md: no section or subsection is titled "Nothing\u202e like this"',
      ]);
      expect((await client.documents.list()).total).toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('examples/export-plans-docx.ts', () => {
  it('INT-E3: writes one .docx per plan, same titles kept apart, no partial file left', async () => {
    const { client, env } = await exampleAccount('export-example@example.com');
    for (const title of ['Plan: A/B', 'Plan: A/B', 'Other']) await client.documents.create({ title });
    const out = mkdtempSync(join(tmpdir(), 'planwright-export-'));
    try {
      const result = await example('export-plans-docx.ts', [out, server.url], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Exported 3 of 3 plans');
      const files = readdirSync(out).sort();
      expect(files).toHaveLength(3);
      for (const file of files) {
        expect(file).toMatch(/^[^/\\:]+\.docx$/);
        // A .docx is a zip: it starts with "PK\3\4".
        expect(readFileSync(join(out, file)).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 3, 4]));
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('examples/review-bot.ts', () => {
  it('INT-E4: asks for a review of each section over the chat and prints the answers, and proposals as word diffs (none offline)', async () => {
    const { client, env } = await exampleAccount('review-example@example.com');
    const plan = await client.documents.create({ title: 'Reviewed plan' });
    const result = await example('review-bot.ts', [plan.uuid, server.url], {
      ...env,
      PLANWRIGHT_REVIEW_TIMEOUT_MS: '20000',
    });
    expect(result.stderr, result.stdout).toBe('');
    expect(result.code).toBe(0);
    for (const section of plan.sections) expect(result.stdout).toContain(`## ${section.title}\n`);
    // The test server answers with the offline assistant: guidance and what looks missing, and no proposal —
    // a review asks for no edit it can build from the user's own words.
    expect(result.stdout).toContain('**Offline assistant**');
    expect(result.stdout).toContain('What this subsection should cover');
    expect(result.stdout.match(/^\(no proposal\)$/gm)).toHaveLength(plan.sections.length);
    // The bot only reads: the plan is unchanged.
    expect((await client.documents.get(plan.uuid)).revision).toBe(plan.revision);
  });

  it('INT-E5: an unknown plan exits 1 with one line', async () => {
    const { env } = await exampleAccount('review-example-404@example.com');
    const result = await example('review-bot.ts', ['00000000-0000-4000-8000-000000000000', server.url], env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
