import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiError,
  createPlanwrightClient,
  type DocumentDetail,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import { lastKeyFor } from '@planwright/server';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliExit, ensureCliBuilt, runCliBinary } from '../support/cli-binary.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright export -o FILE` writes the format the file's name says, and the command line is checked
 * before the server is asked: a `--format` that disagrees with `-o`, an unknown extension, `--all` with a
 * uuid, or an argument that is not a uuid (for every command taking one) is a usage error, exit 2. The
 * built bin runs as a child process against one real server.
 */
const PASSWORD = 'a-sturdy-harbour-passphrase';
const ACCEPTED = '.md (or .markdown), .docx, .pdf, .html or .json';

let server: TestServer;
let scratch: string;
let client: PlanwrightClient;
let configDir: string;
let document: DocumentDetail;

/** Runs the built bin signed in as the test's one account, stdout kept as bytes. */
function planwright(args: string[], input = ''): Promise<CliExit> {
  return runCliBinary({ cwd: scratch, configDir, serverUrl: server.url }, args, input);
}

const file = (name: string) => join(scratch, name);

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-export-'));
  configDir = join(scratch, 'config');
  const email = 'export-ada@example.com';
  client = createPlanwrightClient({ baseUrl: server.url, tokenStore: new MemoryTokenStore() });
  await client.auth.signup({ email, password: PASSWORD, terms_agreement: true });
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  expect((await client.auth.verifyEmail(key)).kind).toBe('authenticated');
  expect(await planwright(['login', '--email', email, '--password-stdin'], PASSWORD)).toMatchObject({
    code: 0,
    stderr: '',
  });
  document = await client.documents.create({ title: 'Acme plan' });
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('export -o takes its format from the file name', () => {
  it('writes a PDF into plan.pdf', async () => {
    const path = file('plan.pdf');
    const result = await planwright(['export', document.uuid, '-o', path, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout.toString('utf8'))).toMatchObject({
      uuid: document.uuid,
      format: 'pdf',
      path,
    });
    expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('writes a Word document into plan.docx: a zip holding word/document.xml', async () => {
    const path = file('plan.docx');
    const result = await planwright(['export', document.uuid, '-o', path]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.toString('utf8')).toMatch(/^Exported \S+ to .*plan\.docx \(/);
    const entries = unzipSync(new Uint8Array(readFileSync(path)));
    expect(Object.keys(entries)).toContain('word/document.xml');
    expect(new TextDecoder().decode(entries['word/document.xml'])).toContain(document.sections[0]?.title);
  });

  it('writes Markdown into plan.md (and PLAN.MARKDOWN), with an agreeing --format too', async () => {
    for (const [name, extra] of [
      ['plan.md', []],
      ['PLAN.MARKDOWN', []],
      ['agreed.md', ['--format', 'markdown']],
    ] as const) {
      const path = file(name);
      expect(await planwright(['export', document.uuid, '-o', path, ...extra])).toMatchObject({
        code: 0,
        stderr: '',
      });
      const text = readFileSync(path, 'utf8');
      expect(text.startsWith('%PDF')).toBe(false);
      for (const section of document.sections) expect(text).toContain(`# ${section.title}`);
    }
  });

  it('refuses a --format that disagrees with -o (exit 2, one line), writing nothing', async () => {
    const path = file('mismatch.pdf');
    const result = await planwright(['export', document.uuid, '--format', 'docx', '-o', path]);
    expect(result).toEqual({
      code: 2,
      stdout: Buffer.alloc(0),
      stderr: `planwright: --format docx disagrees with -o "mismatch.pdf" (a .pdf file): drop --format, or name the file .docx\n`,
    });
    expect(existsSync(path)).toBe(false);
  });

  it.each(['plan.xyz', 'plan.txt', 'plan.doc'])(
    'refuses -o %s, an unknown extension, listing the accepted ones (exit 2)',
    async (name) => {
      const path = file(name);
      for (const extra of [[], ['--format', 'md']]) {
        const result = await planwright(['export', document.uuid, '-o', path, ...extra]);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          `planwright: -o: "${name}" has an unknown extension ${name.slice(name.indexOf('.'))}; use ${ACCEPTED}\nRun \`planwright export --help\` for usage.\n`,
        );
        expect(existsSync(path)).toBe(false);
      }
    },
  );

  it('refuses a name without extension unless --format says the format', async () => {
    const refused = await planwright(['export', document.uuid, '-o', file('plan')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^planwright: -o: cannot tell the format of "plan": name it \.md \(or/);
    expect(await planwright(['export', document.uuid, '-o', file('plan'), '--format', 'html'])).toMatchObject(
      {
        code: 0,
      },
    );
    expect(readFileSync(file('plan'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  });

  it('refuses --all together with a uuid (exit 2)', async () => {
    const result = await planwright(['export', document.uuid, '--all', '--out-dir', file('all')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^planwright: <uuid> and --all do not go together\n/);
    expect(existsSync(file('all'))).toBe(false);
  });
});

describe('an argument that is not a uuid is a usage error, not "not found"', () => {
  const notUuid = (what: string, value = 'not-a-uuid') =>
    `planwright: <uuid>: "${value}" is not a ${what} uuid (expected 8-4-4-4-12 hex digits, like 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c)\n`;

  it.each([
    [['documents', 'show']],
    [['documents', 'rename', 'not-a-uuid', 'New title']],
    [['documents', 'delete', 'not-a-uuid', '--yes']],
    [['export']],
    [['export', 'not-a-uuid', '-o', 'plan.pdf']],
    [['import', 'not-a-uuid', 'notes.md']],
    [['progress']],
    [['finalize', 'not-a-uuid', '--subsection', 'Overview']],
    [['chat', 'not-a-uuid', '--message', 'Hello']],
  ])('%j exits 2 naming the argument', async (args) => {
    const full = args.includes('not-a-uuid') ? args : [...args, 'not-a-uuid'];
    const result = await planwright(full);
    expect(result.code).toBe(2);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr.startsWith(notUuid('document'))).toBe(true);
  });

  it('names blueprints and organisations the same way', async () => {
    const show = await planwright(['blueprints', 'show', 'bp-1']);
    expect(show.code).toBe(2);
    expect(show.stderr.startsWith(notUuid('blueprint', 'bp-1'))).toBe(true);
    const create = await planwright(['documents', 'create', '--blueprint', 'default']);
    expect(create.code).toBe(2);
    expect(create.stderr).toMatch(/^planwright: --blueprint: "default" is not a blueprint uuid/);
    const publish = await planwright([
      'blueprints',
      'publish',
      '00000000-0000-4000-8000-000000000000',
      '--visibility',
      'restricted',
      '--org',
      'acme',
    ]);
    expect(publish.code).toBe(2);
    expect(publish.stderr).toMatch(/^planwright: --org: "acme" is not an organisation uuid/);
  });

  it('still says "Document not found." (exit 1) for a well-formed uuid nobody has', async () => {
    const result = await planwright(['documents', 'show', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^planwright: Document not found\.\n/);
  });
});

describe('import takes what the server takes', () => {
  it('refuses a .txt before reading it, as the server refuses one (exit 2)', async () => {
    const path = file('notes.txt');
    writeFileSync(path, '# Notes\n\nPlain text.\n');
    const result = await planwright(['import', document.uuid, path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^planwright: <file>: Unsupported file type: only \.md, \.docx files/);
    // The server's import endpoint takes .md and .docx only: a .txt is refused there too, not read as Markdown.
    const refused = await client.documents
      .importFile(document.uuid, { name: 'notes.txt', bytes: readFileSync(path) }, { mode: 'merge' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(ApiError.isInstance(refused) && refused.status).toBe(415);
  });
});
