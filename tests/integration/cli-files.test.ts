import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPlanwrightClient,
  type DocumentDetail,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliExit, ensureCliBuilt, runCliBinary } from '../support/cli-binary.js';
import { corpusPath } from '../support/corpus.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright export`, `import` and `convert` as a script runs them: the built bin as a child process
 * with pipes, signed in with `planwright login`, against the real server (its export and import routes
 * and conversion workers). The SDK sets up and checks what the commands cannot show by themselves.
 */
const PASSWORD = 'a-sturdy-harbour-passphrase';

let server: TestServer;
let scratch: string;
let ada: Account;

interface Account {
  email: string;
  client: PlanwrightClient;
  configDir: string;
}

/** Runs the built bin as `account` (or as nobody, with a server that is not there), stdout kept as bytes. */
function planwright(account: Account | null, args: string[], input = ''): Promise<CliExit> {
  return runCliBinary(
    {
      cwd: scratch,
      configDir: account?.configDir ?? join(scratch, 'nobody'),
      serverUrl: account ? server.url : 'http://127.0.0.1:9',
    },
    args,
    input,
  );
}

async function createAccount(name: string): Promise<Account> {
  const email = `${name}@example.com`;
  const client = createPlanwrightClient({ baseUrl: server.url, tokenStore: new MemoryTokenStore() });
  await client.auth.signup({ email, password: PASSWORD, terms_agreement: true });
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  expect((await client.auth.verifyEmail(key)).kind).toBe('authenticated');
  const account = { email, client, configDir: join(scratch, name) };
  const login = await planwright(account, ['login', '--email', email, '--password-stdin'], PASSWORD);
  expect(login).toMatchObject({ code: 0, stderr: '' });
  return account;
}

/** Section titles of a document, in order. */
const sectionTitles = (document: DocumentDetail) => document.sections.map((section) => section.title);

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-files-'));
  ada = await createAccount('files-ada');
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright export against the real server', () => {
  it('prints Markdown, writes .docx to a file and PDF into a pipe', async () => {
    const document = await ada.client.documents.create({ title: 'Acme plan' });
    const markdown = await planwright(ada, ['export', document.uuid]);
    expect(markdown).toMatchObject({ code: 0, stderr: '' });
    const text = markdown.stdout.toString('utf8');
    for (const title of sectionTitles(document)) expect(text).toContain(`# ${title}`);

    const path = join(scratch, 'acme.docx');
    const docx = await planwright(ada, ['export', document.uuid, '--format', 'docx', '-o', path]);
    expect(docx).toMatchObject({ code: 0, stderr: '' });
    expect(docx.stdout.toString('utf8')).toMatch(/^Exported \S+ to .*acme\.docx \(/);
    expect(readFileSync(path).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

    const pdf = await planwright(ada, ['export', document.uuid, '--format', 'pdf']);
    expect(pdf.code).toBe(0);
    expect(pdf.stdout.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('exports every document with --all under safe, unique names inside the folder', async () => {
    const bob = await createAccount('files-bob');
    const titles = [
      '../../etc/passwd',
      'plans/2027',
      'Plan',
      'Plan',
      '🚀 Launch 漢字',
      `${'Long '.repeat(39)}end`,
    ];
    for (const title of titles) await bob.client.documents.create({ title });
    const parent = join(scratch, 'bob-export');
    mkdirSync(parent);
    const outDir = join(parent, 'all');

    const result = await planwright(bob, ['export', '--all', '--format', 'html', '--out-dir', outDir]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.toString('utf8')).toBe(`Exported ${titles.length} documents to ${outDir}.\n`);
    expect(readdirSync(parent)).toEqual(['all']);
    const files = readdirSync(outDir).sort();
    expect(files).toHaveLength(titles.length);
    expect(files).toEqual(
      expect.arrayContaining(['etc passwd.html', 'plans 2027.html', 'Plan.html', 'Plan (2).html']),
    );
    for (const name of files) {
      expect(readFileSync(join(outDir, name), 'utf8').toLowerCase()).toMatch(/^<!doctype html>/);
    }

    // A second run keeps the files unless --force.
    const again = await planwright(bob, ['export', '--all', '--format', 'html', '--out-dir', outDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${titles.length} files exist already in ${outDir}`);
    const forced = await planwright(bob, [
      'export',
      '--all',
      '--format',
      'html',
      '--out-dir',
      outDir,
      '--force',
    ]);
    expect(forced.code).toBe(0);
  });

  it('says "Document not found." for a uuid that is not yours', async () => {
    const result = await planwright(ada, ['export', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^planwright: Document not found\.\n/);
  });
});

describe('planwright import against the real server', () => {
  it('merges a Markdown file, then replaces the content with a .docx, printing the reports', async () => {
    const document = await ada.client.documents.create({ title: 'Import target' });
    const before = document.sections.length;
    const markdown = join(scratch, 'extra.md');
    writeFileSync(markdown, '# Market\n\n## Size\n\nBig ![chart](c.png).\n\n# Team\n\n## Founders\n\nAda.\n');

    const merged = await planwright(ada, ['import', document.uuid, markdown]);
    expect(merged).toMatchObject({ code: 0, stderr: '' });
    const mergedText = merged.stdout.toString('utf8');
    expect(mergedText).toContain('Imported extra.md: merged into "Import target".');
    expect(mergedText).toContain(`Outline: ${before + 2} sections,`);
    expect(mergedText).toMatch(/\[image_dropped ×1\]/);
    const afterMerge = await ada.client.documents.get(document.uuid);
    expect(afterMerge.sections).toHaveLength(before + 2);

    const replaced = await planwright(ada, [
      'import',
      document.uuid,
      corpusPath('docx/pandoc-headers.docx'),
      '--replace',
      '--json',
    ]);
    expect(replaced).toMatchObject({ code: 0, stderr: '' });
    const answer = JSON.parse(replaced.stdout.toString('utf8')) as {
      document: DocumentDetail;
      report: { format: string };
    };
    expect(answer.report.format).toBe('docx');
    const afterReplace = await ada.client.documents.get(document.uuid);
    expect(afterReplace.uuid).toBe(document.uuid);
    expect(sectionTitles(afterReplace)).toEqual(sectionTitles(answer.document));
    expect(afterReplace.sections.length).toBeGreaterThan(0);
  });

  it("prints the server's one line for a broken .docx and saves nothing", async () => {
    const document = await ada.client.documents.create({ title: 'Kept' });
    const result = await planwright(ada, [
      'import',
      document.uuid,
      corpusPath('docx-malformed/poi-truncated62886.docx'),
    ]);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stdout.length).toBe(0);
    expect(result.stderr).toMatch(/^planwright: [^\n]+\n$/);
    expect(result.stderr).not.toContain('the server answered');
    expect(sectionTitles(await ada.client.documents.get(document.uuid))).toEqual(sectionTitles(document));
  });

  it('refuses a file type before sending it', async () => {
    const document = await ada.client.documents.create({ title: 'Untouched' });
    const path = join(scratch, 'notes.rtf');
    writeFileSync(path, '{\\rtf1 hi}');
    const result = await planwright(ada, ['import', document.uuid, path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('only .md, .docx files can be imported');
  });
});

describe('planwright convert without a server', () => {
  it('converts .docx to Markdown and Markdown to PDF, with no config and no server', async () => {
    const markdown = join(scratch, 'headers.md');
    const toMarkdown = await planwright(null, [
      'convert',
      corpusPath('docx/pandoc-headers.docx'),
      '-o',
      markdown,
    ]);
    expect(toMarkdown).toMatchObject({ code: 0 });
    expect(readFileSync(markdown, 'utf8')).toMatch(/^# /m);

    const pdf = await planwright(null, ['convert', markdown, '-o', '-', '--format', 'pdf']);
    expect(pdf.code).toBe(0);
    expect(pdf.stdout.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('refuses a password-protected .docx with its one-line message', async () => {
    const result = await planwright(null, [
      'convert',
      corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx'),
      '-o',
      join(scratch, 'never.md'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^planwright: [^\n]+\n$/);
    expect(readdirSync(scratch)).not.toContain('never.md');
  });
});
