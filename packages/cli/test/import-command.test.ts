import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWithStreams } from './support/byte-io.js';
import { corpusPath } from './support/corpus.js';
import { runCli, useTempDir } from './support/run-cli.js';
import {
  FAKE_IMPORT_MAX_BYTES,
  type FakeUpload,
  type FakeWorkspaceServer,
  startFakeWorkspaceServer,
} from './support/workspace-server.js';

const MARKDOWN = [
  '# Market',
  '',
  '## Size',
  '',
  'Big, see ![chart](chart.png).',
  '',
  '## Trends',
  '',
  'Up.',
  '',
  '# Team',
  '',
  '## Founders',
  '',
  'Ada.',
  '',
].join('\n');

describe('planwright import', () => {
  const dir = useTempDir();
  let server: FakeWorkspaceServer;
  beforeEach(async () => {
    server = await startFakeWorkspaceServer({
      documents: [
        {
          uuid: 'd0c00000-0000-4000-8000-000000000001',
          title: 'Acme plan',
          outline: [[true, false], [true]],
        },
      ],
    });
    const token = server.issueToken();
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({ sessions: { [server.url]: { token, email: 'ada@example.com' } } }),
    );
    await writeFile(join(dir.path, 'plan.md'), MARKDOWN);
  });
  afterEach(async () => {
    await server.close();
  });

  const env = () => ({ PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const cli = (...args: string[]) => runCli(args, env());
  const uploads = () =>
    server.seen
      .filter((request) => request.method === 'POST')
      .map((request) => {
        const upload = request.body as FakeUpload;
        return {
          url: request.url,
          name: upload.file?.name,
          mode: upload.mode,
          size: upload.file?.bytes.length,
        };
      });

  it('merges a Markdown file: sends it as multipart, prints the outline and the report', async () => {
    const result = await cli('import', 'd0c00000-0000-4000-8000-000000000001', join(dir.path, 'plan.md'));
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Imported plan.md: merged into "Acme plan".',
      'Outline: 4 sections, 6 subsections.',
      'Import report:',
    ]);
    expect(lines.slice(3).join('\n')).toMatch(/^ {2}- .*\[image_dropped ×1\]$/m);
    expect(uploads()).toEqual([
      {
        url: '/api/v1/documents/d0c00000-0000-4000-8000-000000000001/import/',
        name: 'plan.md',
        mode: 'merge',
        size: Buffer.byteLength(MARKDOWN),
      },
    ]);
  });

  it('replaces the content with --replace', async () => {
    const result = await cli(
      'import',
      'd0c00000-0000-4000-8000-000000000001',
      join(dir.path, 'plan.md'),
      '--replace',
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n').slice(0, 2)).toEqual([
      'Imported plan.md: replaced the content of "Acme plan".',
      'Outline: 2 sections, 3 subsections.',
    ]);
    expect(uploads()[0]?.mode).toBe('replace');
  });

  it('imports a real .docx file', async () => {
    const result = await cli(
      'import',
      'd0c00000-0000-4000-8000-000000000001',
      corpusPath('docx/pandoc-headers.docx'),
      '--replace',
    );
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Imported pandoc-headers\.docx: replaced the content of "Acme plan"\.\n/);
    expect(result.stdout).toMatch(/\nOutline: \d+ sections?, \d+ subsections?\.\n/);
    expect(uploads()[0]).toMatchObject({ name: 'pandoc-headers.docx', mode: 'replace' });
  });

  it('prints the document and the report with --json', async () => {
    const result = await cli(
      'import',
      'd0c00000-0000-4000-8000-000000000001',
      join(dir.path, 'plan.md'),
      '--json',
    );
    expect(result.exitCode).toBe(0);
    const answer = JSON.parse(result.stdout) as {
      document: { uuid: string; sections: unknown[] };
      report: { format: string; notes: Array<{ code: string; count: number; message: string }> };
    };
    expect(answer.document.uuid).toBe('d0c00000-0000-4000-8000-000000000001');
    expect(answer.document.sections).toHaveLength(4);
    expect(answer.report.format).toBe('md');
    expect(answer.report.notes).toContainEqual(expect.objectContaining({ code: 'image_dropped', count: 1 }));
  });

  it('shows the server’s phases as a bar on a terminal, and clears it before the summary', async () => {
    const result = await runWithStreams(
      ['import', 'd0c00000-0000-4000-8000-000000000001', join(dir.path, 'plan.md')],
      env(),
      {
        stderr: true,
      },
    );
    expect(result.exitCode).toBe(0);
    const importCall = server.seen.find((request) => request.method === 'POST');
    expect(importCall?.url).toBe('/api/v1/documents/d0c00000-0000-4000-8000-000000000001/import/');
    expect(importCall?.accept).toContain('application/x-ndjson');
    const size = Buffer.byteLength(MARKDOWN);
    expect(result.stderr.text().split('\r\u001b[2K')).toEqual([
      '',
      'Reading plan.md…',
      '',
      `[#####---------------] 1/4 Uploading plan.md (${size} B)…`,
      '[##########----------] 2/4 Waiting for a converter… 0 s, 2 ahead',
      '[##########----------] 2/4 Waiting for a converter… 1 s',
      '[###############-----] 3/4 Converting plan.md… 0 s (limit 37.8 s)',
      '[###############-----] 3/4 Converting plan.md… 12 s (limit 37.8 s)',
      '[####################] 4/4 Saving…',
      '',
    ]);
    expect(result.stdout.text().split('\n')[0]).toBe('Imported plan.md: merged into "Acme plan".');
  });

  it('asks for no progress stream when stderr is not a terminal, and --json prints the same answer', async () => {
    const result = await runWithStreams(
      ['import', '--json', 'd0c00000-0000-4000-8000-000000000001', join(dir.path, 'plan.md')],
      env(),
      {},
    );
    expect(result.exitCode).toBe(0);
    expect(result.stderr.text()).toBe('');
    // The fake records an Accept only when it asks for something: here nothing is asked.
    const post = server.seen.find((request) => request.method === 'POST');
    expect(post).toBeDefined();
    expect(post?.accept ?? '').not.toContain('ndjson');
    const answer = JSON.parse(result.stdout.text()) as { document: { revision: number } };
    expect(answer.document.revision).toBe(2);
  });

  it.each(['notes.pdf', 'notes.doc', 'notes'])(
    'refuses %s before reading or sending anything, naming what is accepted',
    async (name) => {
      const result = await cli('import', 'd0c00000-0000-4000-8000-000000000001', join(dir.path, name));
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr.split('\n')[0]).toMatch(
        /^planwright: <file>: Unsupported file type.*: only \.md, \.docx files can be imported\.$/,
      );
      expect(server.seen).toEqual([]);
    },
  );

  it("prints the server's one line for a file it refuses (a truncated .docx), exit 1", async () => {
    const result = await cli(
      'import',
      'd0c00000-0000-4000-8000-000000000001',
      corpusPath('docx-malformed/poi-truncated62886.docx'),
    );
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toMatch(/^planwright: [^\n]+\n$/);
    expect(result.stderr).not.toContain('the server answered');
    expect(server.documents.get('d0c00000-0000-4000-8000-000000000001')?.outline).toEqual([
      [true, false],
      [true],
    ]);
  });

  it("prints the server's one line for a file over its size limit (413)", async () => {
    const path = join(dir.path, 'huge.md');
    await writeFile(path, `# Big\n\n${'word '.repeat(FAKE_IMPORT_MAX_BYTES / 5 + 1)}\n`);
    const result = await cli('import', 'd0c00000-0000-4000-8000-000000000001', path, '--json');
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: 'format_error', message: 'The file is larger than 1 MB.', exitCode: 1 },
    });
  });

  it('prints the reason as JSON with --json', async () => {
    const result = await cli(
      'import',
      'd0c00000-0000-4000-8000-000000000001',
      corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx'),
      '--json',
    );
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'format_error', exitCode: 1 } });
  });

  it('says when the file cannot be read, before sending anything', async () => {
    const path = join(dir.path, 'missing.md');
    const result = await cli('import', 'd0c00000-0000-4000-8000-000000000001', path);
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toBe(`planwright: cannot read ${path}: no such file (ENOENT)\n`);
    expect(server.seen).toEqual([]);
  });

  it('says "Document not found." for an unknown uuid', async () => {
    const result = await cli('import', 'd0c00000-0000-4000-8000-0000000000ff', join(dir.path, 'plan.md'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^planwright: Document not found\.\n/);
  });
});
