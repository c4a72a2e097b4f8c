import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from './support/http-server.js';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeWorkspaceServer, startFakeWorkspaceServer } from './support/workspace-server.js';

const HOSTILE =
  '\u001b[2J\u001b[HPwned\r\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007 \u202eevil\u0007';

describe('planwright documents', () => {
  const dir = useTempDir();
  let server: FakeWorkspaceServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeWorkspaceServer({
      documents: [
        {
          uuid: 'd0c00000-0000-4000-8000-000000000001',
          title: 'Acme plan',
          revision: 4,
          outline: [[true, false], [true]],
        },
        { uuid: 'd0c00000-0000-4000-8000-000000000002', title: 'Zeta', outline: [] },
      ],
      blueprints: [
        {
          uuid: 'b1000000-0000-4000-8000-000000000001',
          title: 'Business Plan',
          publisher: 'Planwright Studio',
          isDefault: true,
        },
        { uuid: 'b1000000-0000-4000-8000-000000000002', title: 'Seed round', owner: 'ada' },
      ],
    });
    token = server.issueToken();
    await writeFile(
      sessionFile(),
      JSON.stringify({ sessions: { [server.url]: { token, email: 'ada@example.com' } } }),
    );
  });
  afterEach(async () => {
    await server.close();
  });

  const sessionFile = () => join(dir.path, 'session.json');
  const env = () => ({ PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const cli = (...args: string[]) => runCli(args, env());
  const requests = () => server.seen.map((r) => `${r.method} ${r.url}`);

  describe('list', () => {
    it('prints an aligned table: uuid, title, status, progress as in the web, updated', async () => {
      expect(await cli('documents', 'list')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'UUID                                  TITLE      STATUS       PROGRESS   UPDATED',
          'd0c00000-0000-4000-8000-000000000001  Acme plan  In-progress  67% (2/3)  2026-11-22 10:05 UTC',
          'd0c00000-0000-4000-8000-000000000002  Zeta       In-progress  0% (0/0)   2026-11-22 10:05 UTC',
          '',
        ].join('\n'),
      });
      expect(server.seen).toEqual([
        { method: 'GET', url: '/api/v1/documents/', token, ifMatch: undefined, body: undefined },
      ]);
    });

    it('sends --page and --page-size, and says how to get the next page', async () => {
      const result = await cli('documents', 'list', '--page', '1', '--page-size', '1');
      expect(requests()).toEqual(['GET /api/v1/documents/?page=1&page_size=1']);
      expect(result.stdout.split('\n').slice(-3)).toEqual([
        '',
        '1 of 2 documents (page 1). Next: `planwright documents list --page 2 --page-size 1`',
        '',
      ]);
      const last = await cli('documents', 'list', '--page', '2', '--page-size', '1');
      expect(last.stdout).toContain('\n1 of 2 documents (page 2).\n');
      expect(last.stdout).not.toContain('Next');
    });

    it.each([
      [['--page', '0'], '--page: must be at least 1'],
      [['--page', 'two'], '--page: must be a whole number'],
      [['--page-size', '101'], '--page-size: must be at most 100'],
    ])('refuses %j with exit 2 before calling the server', async (flags, message) => {
      const result = await cli('documents', 'list', ...flags);
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr).toBe(
        `planwright: ${message}\nRun \`planwright documents list --help\` for usage.\n`,
      );
      expect(server.seen).toEqual([]);
    });

    it('prints the SDK page with --json', async () => {
      const result = await cli('documents', 'list', '--json');
      expect(result.exitCode).toBe(0);
      const page = JSON.parse(result.stdout) as { items: Array<Record<string, unknown>>; total: number };
      expect(page.total).toBe(2);
      expect(page.items[0]).toEqual({
        uuid: 'd0c00000-0000-4000-8000-000000000001',
        title: 'Acme plan',
        description: '',
        status: 'in-progress',
        progress: { finalized: 2, total: 3, percent: 67 },
        blueprint: { uuid: 'b1000000-0000-4000-8000-000000000000', title: 'Business Plan' },
        blueprint_version: null,
        revision: 4,
        // The fake server sends no role, as a server without teams: the SDK reads it as null.
        role: null,
        sections: expect.any(Array),
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:05:00.000Z',
      });
    });

    it('says how to start when there are no documents', async () => {
      server.documents.clear();
      expect((await cli('documents', 'list')).stdout).toBe(
        'No documents yet.\nCreate one with `planwright documents create --blueprint <uuid>` (see `planwright blueprints list --available`).\n',
      );
    });

    it('strips escape sequences, control and bidi characters from hostile titles, and keeps the columns aligned', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000003', {
        uuid: 'd0c00000-0000-4000-8000-000000000003',
        title: HOSTILE,
        outline: [],
      });
      server.documents.set('d0c00000-0000-4000-8000-000000000004', {
        uuid: 'd0c00000-0000-4000-8000-000000000004',
        title: '漢字の計画 🚀 plan',
        outline: [],
      });
      const { stdout, exitCode } = await cli('documents', 'list');
      expect(exitCode).toBe(0);
      // Nothing but the line breaks between rows is a control character; no bidi control survives.
      expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
      const lines = stdout.trimEnd().split('\n');
      // The title column is as wide as its widest cell: 漢字の計画 🚀 plan takes 18 columns (wide characters
      // and the emoji count two each), so every status starts at the same place.
      expect(lines.slice(0, 5)).toEqual([
        'UUID                                  TITLE               STATUS       PROGRESS   UPDATED',
        'd0c00000-0000-4000-8000-000000000001  Acme plan           In-progress  67% (2/3)  2026-11-22 10:05 UTC',
        'd0c00000-0000-4000-8000-000000000002  Zeta                In-progress  0% (0/0)   2026-11-22 10:05 UTC',
        'd0c00000-0000-4000-8000-000000000003  Pwned link evil�    In-progress  0% (0/0)   2026-11-22 10:05 UTC',
        'd0c00000-0000-4000-8000-000000000004  漢字の計画 🚀 plan  In-progress  0% (0/0)   2026-11-22 10:05 UTC',
      ]);
    });

    it('cuts long titles at 40 columns with …, never inside a character', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000003', {
        uuid: 'd0c00000-0000-4000-8000-000000000003',
        title: `${'👩‍👩‍👧'.repeat(30)}`,
        outline: [],
      });
      server.documents.set('d0c00000-0000-4000-8000-000000000004', {
        uuid: 'd0c00000-0000-4000-8000-000000000004',
        title: 'x'.repeat(60),
        outline: [],
      });
      const lines = (await cli('documents', 'list')).stdout.split('\n');
      // 19 families (two columns each) and … fill 39 of the 40 columns: one more would not fit.
      expect(lines[3]).toContain(`${'👩‍👩‍👧'.repeat(19)}…   In-progress`);
      expect(lines[4]).toContain(`${'x'.repeat(39)}…  In-progress`);
    });
  });

  describe('show', () => {
    it('prints the fields, the progress and the outline with finalized marks', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000001', {
        uuid: 'd0c00000-0000-4000-8000-000000000001',
        title: 'Acme plan',
        revision: 4,
        description: 'Line one\nLine \u001b[31mtwo',
        outline: [[true, false], [true]],
      });
      expect(await cli('documents', 'show', 'd0c00000-0000-4000-8000-000000000001')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'Acme plan',
          'UUID:       d0c00000-0000-4000-8000-000000000001',
          'Status:     In-progress',
          'Progress:   67% (2/3 subsections)',
          'Blueprint:  Business Plan',
          'Created:    2026-11-22 10:00 UTC',
          'Updated:    2026-11-22 10:05 UTC',
          'Revision:   4',
          '',
          'Description:',
          '  Line one',
          '  Line two',
          '',
          'Outline:',
          '  1. Section 1',
          '     [x] 1.1 Part 1.1',
          '     [ ] 1.2 Part 1.2',
          '  2. Section 2',
          '     [x] 2.1 Part 2.1',
          '',
        ].join('\n'),
      });
      expect(requests()).toEqual(['GET /api/v1/documents/d0c00000-0000-4000-8000-000000000001/']);
    });

    it('shows the fallbacks for an empty description, title and outline', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000002', {
        uuid: 'd0c00000-0000-4000-8000-000000000002',
        title: '',
        outline: [],
      });
      const { stdout } = await cli('documents', 'show', 'd0c00000-0000-4000-8000-000000000002');
      expect(stdout).toMatch(/^Untitled Document\n/);
      expect(stdout).toContain('Description:\n  This document has no description yet.\n');
      expect(stdout).toContain('Outline:\n  No sections available\n');
    });

    it('prints the SDK document with --json, content included', async () => {
      const document = JSON.parse(
        (await cli('documents', 'show', 'd0c00000-0000-4000-8000-000000000001', '--json')).stdout,
      ) as Record<string, unknown>;
      expect(document).toMatchObject({
        uuid: 'd0c00000-0000-4000-8000-000000000001',
        revision: 4,
        content: { type: 'doc', content: [] },
      });
    });

    it('says "Document not found." with exit 1 for an unknown uuid', async () => {
      expect(await cli('documents', 'show', 'd0c00000-0000-4000-8000-0000000000ff')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
      const json = await cli('documents', 'show', 'd0c00000-0000-4000-8000-0000000000ff', '--json');
      expect(JSON.parse(json.stderr)).toEqual({
        error: {
          code: 'not_found',
          message: 'Document not found.',
          suggestion: 'Run `planwright documents list` to see your documents.',
          exitCode: 1,
        },
      });
    });

    it.each([
      'not-a-uuid',
      '..',
      '../blueprints/x',
      'd0c00000-0000-4000-8000-00000000000',
      'd0c00000-0000-4000-8000-0000000000001',
      'g0c00000-0000-4000-8000-000000000001',
    ])('refuses %j as a usage error naming it (exit 2), asking the server nothing', async (uuid) => {
      const result = await cli('documents', 'show', uuid);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: <uuid>: "${uuid}" is not a document uuid (expected 8-4-4-4-12 hex digits, like 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c)\nRun \`planwright documents show --help\` for usage.\n`,
      });
      expect(server.seen).toEqual([]);
    });

    it('takes a uuid in capitals or with spaces around it, and asks for it in lower case', async () => {
      const result = await cli('documents', 'show', ' D0C00000-0000-4000-8000-000000000001 ');
      expect(result.exitCode).toBe(0);
      expect(requests()).toEqual(['GET /api/v1/documents/d0c00000-0000-4000-8000-000000000001/']);
    });
  });

  describe('signed out', () => {
    it('asks nothing of the server without a stored token, exit 3', async () => {
      await writeFile(sessionFile(), JSON.stringify({ sessions: {} }));
      expect(await cli('documents', 'list')).toEqual({
        exitCode: 3,
        stdout: '',
        stderr: `planwright: not signed in to ${server.url}\nRun \`planwright login\` to sign in.\n`,
      });
      expect(server.seen).toEqual([]);
    });

    it('removes an expired token and says so, exit 3 (as whoami does)', async () => {
      server.tokens.delete(token);
      expect(await cli('documents', 'show', 'd0c00000-0000-4000-8000-000000000001')).toEqual({
        exitCode: 3,
        stdout: '',
        stderr:
          `planwright: not signed in to ${server.url}: the session has expired or was ended, so its token was removed from this computer\n` +
          'Run `planwright login` to sign in again.\n',
      });
      const stored = JSON.parse(await readFile(sessionFile(), 'utf8')) as {
        sessions: Record<string, unknown>;
      };
      expect(stored.sessions).toEqual({});
    });

    it('reports an unreachable server with exit 4', async () => {
      const url = await closedPortUrl();
      await writeFile(sessionFile(), JSON.stringify({ sessions: { [url]: { token } } }));
      const result = await runCli(['documents', 'list', '--server', url], {
        PLANWRIGHT_CONFIG_DIR: dir.path,
      });
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toMatch(/^planwright: cannot reach the Planwright server at /);
    });
  });

  describe('create', () => {
    it('POSTs the blueprint and the trimmed title, and says how to see the document', async () => {
      const result = await cli(
        'documents',
        'create',
        '--blueprint',
        'b1000000-0000-4000-8000-000000000001',
        '--title',
        '  Nova  ',
      );
      expect(result.exitCode).toBe(0);
      const created = [...server.documents.values()].find((document) => document.title === 'Nova');
      expect(created).toBeDefined();
      expect(server.seen.at(-1)).toMatchObject({
        method: 'POST',
        url: '/api/v1/documents/',
        body: { blueprint: 'b1000000-0000-4000-8000-000000000001', title: 'Nova' },
      });
      expect(result.stdout).toBe(
        `Created "Nova" (${created?.uuid}).\nShow it with \`planwright documents show ${created?.uuid}\`.\n`,
      );
    });

    it('prints the SDK document with --json', async () => {
      const result = await cli(
        'documents',
        'create',
        '--blueprint',
        'b1000000-0000-4000-8000-000000000001',
        '--json',
      );
      expect(JSON.parse(result.stdout)).toMatchObject({ title: 'Business Plan', progress: { total: 2 } });
    });

    it("without --blueprint sends none, and the server's default blueprint is copied", async () => {
      const result = await cli('documents', 'create', '--title', 'Nova');
      expect(result.exitCode).toBe(0);
      expect(server.seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/v1/documents/' });
      expect(server.seen.at(-1)?.body).toStrictEqual({ title: 'Nova' });
      const plain = await cli('documents', 'create', '--json');
      expect(server.seen.at(-1)?.body).toStrictEqual({});
      expect(JSON.parse(plain.stdout)).toMatchObject({ title: 'Business Plan' });
    });

    it('copies the blueprint given, not the default', async () => {
      const result = await cli(
        'documents',
        'create',
        '--blueprint',
        'b1000000-0000-4000-8000-000000000002',
        '--json',
      );
      expect(JSON.parse(result.stdout)).toMatchObject({ title: 'Seed round' });
    });

    it('refuses a blank --blueprint and a blank title (exit 2, nothing sent)', async () => {
      for (const blueprint of ['', '   ', '..']) {
        const refused = await cli('documents', 'create', '--blueprint', blueprint);
        expect(refused.exitCode, JSON.stringify(blueprint)).toBe(2);
        expect(refused.stderr).toMatch(/^planwright: --blueprint: /);
      }
      const blank = await cli(
        'documents',
        'create',
        '--blueprint',
        'b1000000-0000-4000-8000-000000000001',
        '--title',
        '   ',
      );
      expect(blank).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: 'planwright: <title>: Title cannot be empty\n',
      });
      expect(server.seen).toEqual([]);
    });

    it('reports the server refusing the blueprint, exit 1', async () => {
      const result = await cli('documents', 'create', '--blueprint', 'b1000000-0000-4000-8000-0000000000ff');
      expect(result).toMatchObject({ exitCode: 1, stdout: '' });
      expect(result.stderr).toContain('Choose a blueprint you may use.');
    });
  });

  describe('rename', () => {
    it('PATCHes the trimmed title and prints the new one', async () => {
      expect(await cli('documents', 'rename', 'd0c00000-0000-4000-8000-000000000001', ' Acme 2027 ')).toEqual(
        {
          exitCode: 0,
          stderr: '',
          stdout: 'Renamed to "Acme 2027".\n',
        },
      );
      expect(server.seen).toEqual([
        {
          method: 'PATCH',
          url: '/api/v1/documents/d0c00000-0000-4000-8000-000000000001/',
          token,
          ifMatch: undefined,
          body: { title: 'Acme 2027' },
        },
      ]);
    });

    it('refuses an empty title with the spec’s words, exit 2', async () => {
      expect(await cli('documents', 'rename', 'd0c00000-0000-4000-8000-000000000001', '')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: 'planwright: <title>: Title cannot be empty\n',
      });
      expect(
        (await cli('documents', 'rename', 'd0c00000-0000-4000-8000-000000000001', 'x'.repeat(201))).stderr,
      ).toBe('planwright: <title>: Title must be at most 200 characters\n');
      expect(server.seen).toEqual([]);
    });

    it('says "Document not found." for an unknown uuid', async () => {
      expect(await cli('documents', 'rename', 'd0c00000-0000-4000-8000-0000000000ff', 'New')).toMatchObject({
        exitCode: 1,
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
    });

    it('refuses a title with an escape sequence, exit 2 (the server would refuse it too)', async () => {
      expect(
        (await cli('documents', 'rename', 'd0c00000-0000-4000-8000-000000000001', 'A\u001b[2Jb')).stderr,
      ).toBe('planwright: <title>: Must not contain control characters\n');
      expect(server.seen).toEqual([]);
    });

    it('prints a new title with bidi controls made safe, and exactly as stored with --json', async () => {
      expect(
        (await cli('documents', 'rename', 'd0c00000-0000-4000-8000-000000000001', 'C\u202eD')).stdout,
      ).toBe('Renamed to "CD".\n');
      const json = await cli(
        'documents',
        'rename',
        'd0c00000-0000-4000-8000-000000000001',
        'C\u202eD',
        '--json',
      );
      expect((JSON.parse(json.stdout) as { title: string }).title).toBe('C\u202eD');
    });
  });

  describe('delete', () => {
    it('refuses without --yes when not on a terminal, exit 2, nothing sent', async () => {
      expect(await cli('documents', 'delete', 'd0c00000-0000-4000-8000-000000000001')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: refusing to delete without confirmation: this is not a terminal\nPass --yes to delete without being asked.\n',
      });
      expect(server.seen).toEqual([]);
      expect(server.documents.has('d0c00000-0000-4000-8000-000000000001')).toBe(true);
    });

    it('deletes at once with --yes (also -y)', async () => {
      expect(await cli('documents', 'delete', 'd0c00000-0000-4000-8000-000000000001', '--yes')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: 'Deleted document d0c00000-0000-4000-8000-000000000001.\n',
      });
      expect(requests()).toEqual(['DELETE /api/v1/documents/d0c00000-0000-4000-8000-000000000001/']);
      expect(server.documents.has('d0c00000-0000-4000-8000-000000000001')).toBe(false);
      const json = await cli('documents', 'delete', 'd0c00000-0000-4000-8000-000000000002', '-y', '--json');
      expect(JSON.parse(json.stdout)).toEqual({
        uuid: 'd0c00000-0000-4000-8000-000000000002',
        deleted: true,
      });
    });

    it('on a terminal asks first, naming the document, and deletes the revision it showed', async () => {
      const result = await runCli(['documents', 'delete', 'd0c00000-0000-4000-8000-000000000001'], env(), {
        tty: true,
        stdin: 'y\n',
      });
      expect(result).toEqual({
        exitCode: 0,
        stdout: 'Deleted "Acme plan".\n',
        stderr: 'Delete "Acme plan" (2/3 subsections finalized)? This cannot be undone. [y/N] ',
      });
      expect(server.seen.map((r) => [r.method, r.url, r.ifMatch])).toEqual([
        ['GET', '/api/v1/documents/d0c00000-0000-4000-8000-000000000001/', undefined],
        ['DELETE', '/api/v1/documents/d0c00000-0000-4000-8000-000000000001/', '"4"'],
      ]);
      expect(server.documents.has('d0c00000-0000-4000-8000-000000000001')).toBe(false);
    });

    it.each(['n\n', '\n', 'yep\n', '', 'no thanks\n'])(
      'keeps the document when the answer is %j (exit 130)',
      async (answer) => {
        const result = await runCli(['documents', 'delete', 'd0c00000-0000-4000-8000-000000000001'], env(), {
          tty: true,
          stdin: answer,
        });
        expect(result.exitCode).toBe(130);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(/\[y\/N\] planwright: not deleted\n$/);
        expect(requests()).toEqual(['GET /api/v1/documents/d0c00000-0000-4000-8000-000000000001/']);
        expect(server.documents.has('d0c00000-0000-4000-8000-000000000001')).toBe(true);
      },
    );

    it.each(['YES\n', ' y \r\n', 'Yes'])('accepts %j as yes', async (answer) => {
      const result = await runCli(['documents', 'delete', 'd0c00000-0000-4000-8000-000000000001'], env(), {
        tty: true,
        stdin: answer,
      });
      expect(result.exitCode).toBe(0);
      expect(server.documents.has('d0c00000-0000-4000-8000-000000000001')).toBe(false);
    });

    it('shows a hostile title made safe in the question', async () => {
      server.documents.set('d0c00000-0000-4000-8000-000000000001', {
        uuid: 'd0c00000-0000-4000-8000-000000000001',
        title: HOSTILE,
        outline: [],
      });
      const result = await runCli(['documents', 'delete', 'd0c00000-0000-4000-8000-000000000001'], env(), {
        tty: true,
        stdin: 'n\n',
      });
      expect(result.stderr).toMatch(/^Delete "Pwned link evil�" \(0\/0 subsections finalized\)\?/);
      for (const character of ['\u001b', '\r', '\u202e', '\u0007'])
        expect(result.stderr).not.toContain(character);
    });

    it('does not delete a document changed after it was shown (412), exit 1', async () => {
      const original = server.documents.get('d0c00000-0000-4000-8000-000000000001');
      // Someone saves between the question and the answer: the fake bumps the revision on its GET.
      const stdin = (async function* () {
        await new Promise((resolve) => setImmediate(resolve));
        if (original) original.revision = 5;
        yield 'y\n';
      })();
      const result = await runCli(['documents', 'delete', 'd0c00000-0000-4000-8000-000000000001'], env(), {
        tty: true,
        stdin: Object.assign(stdin, { isTTY: true }),
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('This document was changed since you loaded it.');
      expect(server.documents.has('d0c00000-0000-4000-8000-000000000001')).toBe(true);
    });

    it('says "Document not found." before asking anything', async () => {
      const result = await runCli(['documents', 'delete', 'd0c00000-0000-4000-8000-0000000000ff'], env(), {
        tty: true,
        stdin: 'y\n',
      });
      expect(result).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
      const forced = await cli('documents', 'delete', 'd0c00000-0000-4000-8000-0000000000ff', '--yes');
      expect(forced.stderr).toMatch(/^planwright: Document not found\.\n/);
    });
  });
});
