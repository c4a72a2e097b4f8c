import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportFileName } from '@planwright/sdk/formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uniqueExportFileNames } from '../src/transfer/export-file-names.js';
import { runWithStreams } from './support/byte-io.js';
import { corpusPath } from './support/corpus.js';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeWorkspaceServer, startFakeWorkspaceServer } from './support/workspace-server.js';

describe('planwright export', () => {
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
        { uuid: 'd0c00000-0000-4000-8000-000000000002', title: 'Zeta', outline: [[false]] },
      ],
    });
    const token = server.issueToken();
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({ sessions: { [server.url]: { token, email: 'ada@example.com' } } }),
    );
  });
  afterEach(async () => {
    await server.close();
  });

  const env = () => ({ PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const cli = (...args: string[]) => runCli(args, env());
  const requests = () => server.seen.map((request) => `${request.method} ${request.url}`);

  describe('one document', () => {
    it('prints Markdown on standard output by default, and nothing else', async () => {
      const result = await cli('export', 'd0c00000-0000-4000-8000-000000000001');
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(result.stdout).toMatch(/^# Section 1\n/);
      expect(result.stdout).toContain('## Part 2.1');
      expect(result.stdout).toContain('Text of Acme plan.');
      expect(requests()).toEqual(['GET /api/v1/documents/d0c00000-0000-4000-8000-000000000001/export']);
    });

    it('writes a .docx file with -o: a zip archive, and says where', async () => {
      const path = join(dir.path, 'acme.docx');
      const result = await cli(
        'export',
        'd0c00000-0000-4000-8000-000000000001',
        '--format',
        'docx',
        '-o',
        path,
      );
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(
        /^Exported d0c00000-0000-4000-8000-000000000001 to .*acme\.docx \(\d+\.\d kB\)\.\n$/,
      );
      const bytes = await readFile(path);
      expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
      expect(requests()).toEqual([
        'GET /api/v1/documents/d0c00000-0000-4000-8000-000000000001/export?format=docx',
      ]);
      // No temporary file is left beside it.
      expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    });

    it('prints {uuid, format, path, bytes} with --json', async () => {
      const path = join(dir.path, 'acme.html');
      const result = await cli(
        'export',
        'd0c00000-0000-4000-8000-000000000001',
        '--format',
        'html',
        '-o',
        path,
        '--json',
      );
      expect(result.exitCode).toBe(0);
      const html = await readFile(path, 'utf8');
      expect(JSON.parse(result.stdout)).toEqual({
        uuid: 'd0c00000-0000-4000-8000-000000000001',
        format: 'html',
        path,
        bytes: Buffer.byteLength(html),
      });
      expect(html.toLowerCase()).toContain('<!doctype html>');
    });

    it('refuses to write a binary format to a terminal, before asking the server', async () => {
      const result = await runWithStreams(
        ['export', 'd0c00000-0000-4000-8000-000000000001', '--format', 'docx'],
        env(),
        { stdout: true },
      );
      expect(result.exitCode).toBe(2);
      expect(result.stdout.text()).toBe('');
      expect(result.stderr.text()).toBe(
        'planwright: refusing to write binary .docx to a terminal\nUse -o FILE, or redirect standard output to a file.\n',
      );
      expect(server.seen).toEqual([]);
    });

    it('writes a binary format into a pipe as raw bytes', async () => {
      const result = await runWithStreams(
        ['export', 'd0c00000-0000-4000-8000-000000000001', '--format', 'pdf'],
        env(),
      );
      expect(result.exitCode).toBe(0);
      expect(result.stdout.bytes().subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(result.stderr.text()).toBe('');
    });

    it('prints text formats to a terminal', async () => {
      const result = await runWithStreams(
        ['export', 'd0c00000-0000-4000-8000-000000000002', '--format', 'json'],
        env(),
        { stdout: true },
      );
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout.text())).toMatchObject({ type: 'doc' });
    });

    it('keeps an existing file unless --force, and refuses before downloading', async () => {
      const path = join(dir.path, 'plan.md');
      await writeFile(path, 'mine');
      const refused = await cli('export', 'd0c00000-0000-4000-8000-000000000001', '-o', path);
      expect(refused).toMatchObject({ exitCode: 1, stdout: '' });
      expect(refused.stderr).toBe(
        `planwright: ${path} already exists\nPass --force to replace it, or choose another name.\n`,
      );
      expect(await readFile(path, 'utf8')).toBe('mine');
      expect(server.seen).toEqual([]);

      expect(
        (await cli('export', 'd0c00000-0000-4000-8000-000000000001', '-o', path, '--force')).exitCode,
      ).toBe(0);
      expect(await readFile(path, 'utf8')).toContain('# Section 1');
    });

    it('says when the folder of -o does not exist', async () => {
      const path = join(dir.path, 'missing', 'plan.md');
      const result = await cli('export', 'd0c00000-0000-4000-8000-000000000001', '-o', path);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(`planwright: cannot write ${path}: its folder does not exist (ENOENT)\n`);
    });

    it('refuses a folder as -o, even with --force', async () => {
      const folder = join(dir.path, 'plan.md');
      await mkdir(folder);
      const result = await cli('export', 'd0c00000-0000-4000-8000-000000000001', '-o', folder, '--force');
      expect(result).toMatchObject({ exitCode: 1, stdout: '' });
      expect(result.stderr).toBe(`planwright: cannot write ${folder}: it is a directory (EISDIR)\n`);
      expect(server.seen).toEqual([]);
    });

    it('says "Document not found." for an unknown uuid', async () => {
      const result = await cli('export', 'd0c00000-0000-4000-8000-0000000000ff');
      expect(result).toMatchObject({ exitCode: 1, stdout: '' });
      expect(result.stderr).toMatch(/^planwright: Document not found\.\n/);
    });

    it('says the server failed when it cannot convert', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000003', {
        uuid: 'd0c00000-0000-4000-8000-000000000003',
        title: 'Broken',
        exportFails: true,
      });
      const result = await cli('export', 'd0c00000-0000-4000-8000-000000000003');
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('The document could not be converted.');
    });

    it.each([
      [
        ['export', 'd0c00000-0000-4000-8000-000000000001', '--format', 'odt'],
        '--format: "odt" is not a format; use md, docx, pdf, html, json',
      ],
      [['export'], "<uuid>: expected the document's uuid, or --all"],
      [
        ['export', 'd0c00000-0000-4000-8000-000000000001', '--all', '--out-dir', 'x'],
        '<uuid> and --all do not go together',
      ],
      [['export', '--all'], '--all needs --out-dir <dir>'],
      [
        ['export', '--all', '--out-dir', 'x', '-o', 'y'],
        '--output is for one document; --all writes into --out-dir',
      ],
      [
        ['export', 'd0c00000-0000-4000-8000-000000000001', '--out-dir', 'x'],
        '--out-dir goes with --all; for one document use --output <file>',
      ],
    ])('refuses %j with exit 2 before calling the server', async (args, message) => {
      const result = await cli(...args);
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr.split('\n')[0]).toBe(`planwright: ${message}`);
      expect(server.seen).toEqual([]);
    });

    it('refuses --json without --output, as a JSON error', async () => {
      const result = await cli('export', 'd0c00000-0000-4000-8000-000000000001', '--json');
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(JSON.parse(result.stderr)).toEqual({
        error: {
          code: 'usage',
          message: '--json prints a report on standard output, so it needs --output <file>',
          suggestion: 'For the document itself as JSON, use --format json.',
          exitCode: 2,
        },
      });
      expect(server.seen).toEqual([]);
    });
  });

  describe('--all', () => {
    const naughty = async (): Promise<string[]> =>
      JSON.parse(await readFile(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];

    it('writes every document of every page, under safe and unique names inside the folder', async () => {
      // Every fourth naughty string (all of them go through the names below, without the server).
      const titles = [
        ...(await naughty()).filter((_, index) => index % 4 === 0),
        '../../etc/passwd',
        'plans/2027/q1',
        'nul\u0000byte',
        '🚀 Launch 漢字',
        '🚀'.repeat(300),
        'x'.repeat(1000),
        'Plan',
        'Plan',
        'plan',
        '.',
        '..',
        '',
        'CON',
      ];
      server.documents.clear();
      titles.forEach((title, index) => {
        const uuid = `doc-${String(index).padStart(4, '0')}`;
        server.documents.set(uuid, { uuid, title, outline: [[false]] });
      });
      const parent = join(dir.path, 'parent');
      const outDir = join(parent, 'out');
      await mkdir(parent);

      const result = await cli('export', '--all', '--out-dir', outDir);
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(result.stdout).toBe(`Exported ${titles.length} documents to ${outDir}.\n`);
      // More than one page of 100 was read.
      expect(requests().filter((request) => request.startsWith('GET /api/v1/documents/?'))).toEqual(
        Array.from(
          { length: Math.ceil(titles.length / 100) },
          (_, page) => `GET /api/v1/documents/?page=${page + 1}&page_size=100`,
        ),
      );

      const files = await readdir(outDir);
      expect(files).toHaveLength(titles.length);
      expect(await readdir(parent)).toEqual(['out']);
      expect(new Set(files.map((name) => name.toLowerCase())).size).toBe(titles.length);
      for (const name of files) {
        expect(name).toMatch(/\.md$/);
        expect(/[/\\\p{Cc}]/u.test(name)).toBe(false);
        expect(name.startsWith('.')).toBe(false);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      }
      expect(files).toEqual(
        expect.arrayContaining(['Plan.md', 'Plan (2).md', 'plan (3).md', 'etc passwd.md']),
      );
      // Each file holds its own document.
      const contents = await Promise.all(files.map((name) => readFile(join(outDir, name), 'utf8')));
      expect(contents.every((text) => text.startsWith('# Section 1'))).toBe(true);
    });

    it('gives every naughty title a plain, unique, short name', async () => {
      const titles = await naughty();
      const documents = titles.map((title, index) => ({ uuid: `doc-${index}`, title }));
      const names = uniqueExportFileNames(documents, 'docx', exportFileName).map(({ name }) => name);
      expect(new Set(names.map((name) => name.normalize('NFC').toLowerCase())).size).toBe(titles.length);
      for (const name of names) {
        expect(name).toMatch(/^[^.\s].*\.docx$/u);
        expect(/[/\\\p{Cc}]/u.test(name), JSON.stringify(name)).toBe(false);
        // Invisible format characters, but the zero-width joiner emoji sequences need.
        expect(/\p{Cf}/u.test(name.replaceAll('\u200d', '')), JSON.stringify(name)).toBe(false);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      }
    });

    it('shows a progress bar on a terminal, and clears it before the summary', async () => {
      const outDir = join(dir.path, 'out');
      const result = await runWithStreams(
        ['export', '--all', '--format', 'json', '--out-dir', outDir],
        env(),
        { stderr: true },
      );
      expect(result.exitCode).toBe(0);
      const stderr = result.stderr.text();
      expect(stderr).toContain('\r\u001b[2K[--------------------] 0/2 Acme plan');
      expect(stderr).toContain('\r\u001b[2K[##########----------] 1/2 Zeta');
      expect(stderr.endsWith('\r\u001b[2K')).toBe(true);
      expect(result.stdout.text()).toBe(`Exported 2 documents to ${outDir}.\n`);
      expect((await readdir(outDir)).sort()).toEqual(['Acme plan.json', 'Zeta.json']);
    });

    it('names each failure with its reason, writes the others, and exits 1', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000003', {
        uuid: 'd0c00000-0000-4000-8000-000000000003',
        title: 'Broken\u001b[31m',
        exportFails: true,
      });
      const outDir = join(dir.path, 'out');
      const result = await cli('export', '--all', '--format', 'docx', '--out-dir', outDir);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe(`Exported 2 documents to ${outDir} (1 failed).\n`);
      expect(result.stderr).toBe(
        [
          'failed: "Broken" (d0c00000-0000-4000-8000-000000000003): the server answered 500 Internal Server Error: The document could not be converted.',
          'planwright: 1 of 3 documents could not be exported',
          'The other files were written. Run again with --force to export everything anew.',
          '',
        ].join('\n'),
      );
      expect((await readdir(outDir)).sort()).toEqual(['Acme plan.docx', 'Zeta.docx']);
    });

    it('reports exported and failed documents with --json', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000003', {
        uuid: 'd0c00000-0000-4000-8000-000000000003',
        title: 'Broken',
        exportFails: true,
      });
      const outDir = join(dir.path, 'out');
      const result = await cli('export', '--all', '--out-dir', outDir, '--json');
      expect(result.exitCode).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({
        outDir,
        format: 'md',
        exported: [
          {
            uuid: 'd0c00000-0000-4000-8000-000000000001',
            title: 'Acme plan',
            file: join(outDir, 'Acme plan.md'),
          },
          { uuid: 'd0c00000-0000-4000-8000-000000000002', title: 'Zeta', file: join(outDir, 'Zeta.md') },
        ],
        failed: [
          {
            uuid: 'd0c00000-0000-4000-8000-000000000003',
            title: 'Broken',
            error: expect.stringContaining('could not be converted'),
          },
        ],
      });
      expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'export_failed', exitCode: 1 } });
    });

    it('refuses to replace files of an earlier run without --force, before exporting anything', async () => {
      const outDir = join(dir.path, 'out');
      await mkdir(outDir);
      await writeFile(join(outDir, 'Zeta.md'), 'mine');
      const refused = await cli('export', '--all', '--out-dir', outDir);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(`1 file exists already in ${outDir}: "${join(outDir, 'Zeta.md')}"`);
      expect(requests().some((request) => request.includes('/export'))).toBe(false);
      expect(await readFile(join(outDir, 'Zeta.md'), 'utf8')).toBe('mine');

      const forced = await cli('export', '--all', '--out-dir', outDir, '--force');
      expect(forced.exitCode).toBe(0);
      expect(await readFile(join(outDir, 'Zeta.md'), 'utf8')).toContain('Text of Zeta.');
    });

    it('says so when there is nothing to export', async () => {
      server.documents.clear();
      const result = await cli('export', '--all', '--out-dir', join(dir.path, 'out'));
      expect(result).toEqual({ exitCode: 0, stdout: 'No documents to export.\n', stderr: '' });
    });
  });

  it('needs a session (exit 3) and asks nothing without one', async () => {
    const result = await runCli(['export', 'd0c00000-0000-4000-8000-000000000001'], {
      PLANWRIGHT_CONFIG_DIR: join(dir.path, 'empty'),
      PLANWRIGHT_SERVER: server.url,
    });
    expect(result.exitCode).toBe(3);
    expect(server.seen).toEqual([]);
  });
});
