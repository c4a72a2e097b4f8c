import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentDetail, DocumentVersion, DocumentVersionDetail } from '@planwright/sdk';
import { markdownToDocument } from '@planwright/sdk/formats';
import type { DocumentJson } from '@planwright/sdk/model';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import {
  FAKE_KEEPER,
  type FakeVersion,
  type FakeVersionsServer,
  startFakeVersionsServer,
  withoutContent,
} from './support/versions-server.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const VIEWED = 'd0c00000-0000-4000-8000-000000000002';
const UNKNOWN = 'd0c00000-0000-4000-8000-0000000000ff';

const V_BANK = 'e0000000-0000-4000-8000-000000000003';
const V_IMPORT = 'e0000000-0000-4000-8000-000000000002';
const V_HOURLY = 'e0000000-0000-4000-8000-000000000001';

const content = (markdown: string): DocumentJson => markdownToDocument(markdown).document;

const OLD_TEXT =
  '# Market\n\n## Size\n\nBread for the whole town.\n\n## Pricing\n\n- one loaf\n- two loaves\n';
/** The plan as it is now (made once: the import gives every node a new id). */
const NOW_CONTENT = content('# Market\n\n## Size\n\nCakes only.\n');

function version(id: string, extra: Partial<FakeVersion>): FakeVersion {
  return {
    id,
    name: null,
    kind: 'hourly',
    title: 'Bakery plan',
    revision: 3,
    progress: { finalized: 3, total: 32 },
    created_by: { ...FAKE_KEEPER },
    created_at: '2026-11-22T10:05:00.000Z',
    content: content(OLD_TEXT),
    ...extra,
  };
}

/** Newest first: a named version, one kept before an import by someone since gone, an hourly one. */
const VERSIONS: FakeVersion[] = [
  version(V_BANK, {
    name: 'Sent to bank, v3',
    kind: 'named',
    revision: 7,
    progress: { finalized: 5, total: 32 },
    created_at: '2026-11-23T09:30:00.000Z',
  }),
  version(V_IMPORT, {
    kind: 'before_import',
    revision: 5,
    created_by: null,
    created_at: '2026-11-22T16:00:00.000Z',
    content: content('# Market\n'),
  }),
  version(V_HOURLY, { title: 'Old bakery plan' }),
];

describe('planwright versions', () => {
  const dir = useTempDir();
  let server: FakeVersionsServer;
  beforeEach(async () => {
    server = await startFakeVersionsServer({
      plans: [
        {
          uuid: PLAN,
          title: 'Bakery plan',
          role: 'owner',
          revision: 9,
          content: structuredClone(NOW_CONTENT),
          progress: { finalized: 6, total: 32 },
          versions: structuredClone(VERSIONS),
        },
        {
          uuid: VIEWED,
          title: 'Bob’s plan',
          role: 'viewer',
          revision: 2,
          content: structuredClone(NOW_CONTENT),
          progress: { finalized: 0, total: 1 },
          versions: [version(V_HOURLY, { title: 'Bob’s plan' })],
        },
      ],
    });
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({
        sessions: { [server.url]: { token: server.issueToken(), email: 'ada@example.com' } },
      }),
    );
  });
  afterEach(async () => {
    await server.close();
  });

  const cli = (...args: string[]) =>
    runCli(args, { PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const urls = () => server.seen.map((request) => `${request.method} ${request.url}`);
  const plan = () => {
    const found = server.plans.get(PLAN);
    if (!found) throw new Error('the plan is set up');
    return found;
  };

  describe('list', () => {
    it('prints a table, newest first, naming automatic versions by why they were kept', async () => {
      expect(await cli('versions', 'list', PLAN)).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'ID                                    NAME              BY   PROGRESS  KEPT',
          `${V_BANK}  Sent to bank, v3  ada  5/32      2026-11-23 09:30 UTC`,
          `${V_IMPORT}  (before import)   -    3/32      2026-11-22 16:00 UTC`,
          `${V_HOURLY}  (hourly)          ada  3/32      2026-11-22 10:05 UTC`,
          '',
        ].join('\n'),
      });
      expect(urls()).toEqual([`GET /api/v1/documents/${PLAN}/versions/?page=1&page_size=100`]);
    });

    it('prints the array of DocumentVersion with --json', async () => {
      const listed = await cli('versions', 'list', PLAN, '--json');
      expect(listed).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(listed.stdout)).toEqual(VERSIONS.map(withoutContent));
    });

    it('says how to keep the first one when there are none', async () => {
      plan().versions = [];
      expect(await cli('versions', 'list', PLAN)).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'No versions yet.',
          `Keep one with \`planwright versions create ${PLAN} --name "…"\`; one is also kept each hour while the plan is written, and before every import or restore.`,
          '',
        ].join('\n'),
      });
      expect(JSON.parse((await cli('versions', 'list', PLAN, '--json')).stdout)).toEqual([]);
    });

    it('reads every page, 100 at a time, until it has them all', async () => {
      const many = Array.from({ length: 130 }, (_, index) =>
        version(`e1000000-0000-4000-8000-${String(index).padStart(12, '0')}`, {
          name: `Draft ${130 - index}`,
          kind: 'named',
        }),
      );
      plan().versions = many;
      const listed = await cli('versions', 'list', PLAN, '--json');
      expect(listed).toMatchObject({ exitCode: 0, stderr: '' });
      expect((JSON.parse(listed.stdout) as DocumentVersion[]).map((item) => item.id)).toEqual(
        many.map((item) => item.id),
      );
      expect(urls()).toEqual([
        `GET /api/v1/documents/${PLAN}/versions/?page=1&page_size=100`,
        `GET /api/v1/documents/${PLAN}/versions/?page=2&page_size=100`,
      ]);
      const table = (await cli('versions', 'list', PLAN)).stdout.trimEnd().split('\n');
      expect(table).toHaveLength(131);
      expect(table.at(-1)).toMatch(/^e1000000-0000-4000-8000-000000000129 {2}Draft 1 /);
    });

    it('shows a viewer the versions too', async () => {
      expect((await cli('versions', 'list', VIEWED)).stdout).toContain(`${V_HOURLY}  (hourly)`);
    });

    it('makes names from other people safe for the terminal', async () => {
      plan().versions = [version(V_BANK, { name: 'v\u001b[2J3\u202e', kind: 'named' })];
      const { stdout } = await cli('versions', 'list', PLAN);
      expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
      expect(stdout).toContain(`${V_BANK}  v3  `);
    });
  });

  describe('create', () => {
    it('keeps a named version and says so', async () => {
      const created = await cli('versions', 'create', PLAN, '--name', '  v1 ');
      expect(created).toMatchObject({ exitCode: 0, stderr: '' });
      const kept = plan().versions[0];
      expect(kept).toMatchObject({ name: 'v1', kind: 'named', title: 'Bakery plan' });
      expect(created.stdout).toBe(`Kept version “v1” of “Bakery plan” (${kept?.id}).\n`);
      expect(server.seen).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: `/api/v1/documents/${PLAN}/versions/`,
          body: { name: 'v1' },
        }),
      ]);
    });

    it('prints the DocumentVersion with --json', async () => {
      const created = await cli('versions', 'create', PLAN, '--name', 'v1', '--json');
      expect(created).toMatchObject({ exitCode: 0, stderr: '' });
      const kept = plan().versions[0];
      expect(kept).toBeDefined();
      if (kept) expect(JSON.parse(created.stdout)).toEqual(withoutContent(kept));
    });

    it('prints the server’s refusal of a name the plan has already, exit 1', async () => {
      expect(await cli('versions', 'create', PLAN, '--name', 'SENT TO BANK, V3')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: the server answered 409 Conflict: This document already has a version named “SENT TO BANK, V3”.\n',
      });
      expect(plan().versions).toHaveLength(3);
    });

    it('refuses a bad name before asking the server, exit 2', async () => {
      expect(await cli('versions', 'create', PLAN, '--name', 'now')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: --name: Name cannot be an id or "now"\nRun `planwright versions create --help` for usage.\n',
      });
      expect((await cli('versions', 'create', PLAN, '--name', V_BANK)).stderr).toMatch(
        /^planwright: --name: Name cannot be an id or "now"\n/,
      );
      expect((await cli('versions', 'create', PLAN, '--name', ' ')).stderr).toMatch(
        /^planwright: --name: Name cannot be empty\n/,
      );
      expect((await cli('versions', 'create', PLAN, '--name', 'x'.repeat(101))).stderr).toMatch(
        /^planwright: --name: Name must be at most 100 characters\n/,
      );
      expect(await cli('versions', 'create', PLAN)).toMatchObject({ exitCode: 2, stdout: '' });
      expect(server.seen).toEqual([]);
    });

    it('prints the server’s reason when the caller’s role does not allow it, exit 1', async () => {
      expect(await cli('versions', 'create', VIEWED, '--name', 'v1')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Your role on this document does not let you change it.\n',
      });
    });
  });

  describe('show', () => {
    it('prints who kept it and when, then the plan as it was, as Markdown; found by name in any case', async () => {
      expect(await cli('versions', 'show', PLAN, 'sent to BANK, v3')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'Version:   Sent to bank, v3',
          `ID:        ${V_BANK}`,
          'Kind:      named',
          'Kept:      2026-11-23 09:30 UTC',
          'By:        Ada Lovelace (ada)',
          'Title:     Bakery plan',
          'Progress:  5/32 subsections finalized',
          'Revision:  7',
          '',
          '# Market',
          '',
          '## Size',
          '',
          'Bread for the whole town.',
          '',
          '## Pricing',
          '',
          '- one loaf',
          '- two loaves',
          '',
        ].join('\n'),
      });
      expect(urls()).toEqual([
        `GET /api/v1/documents/${PLAN}/versions/${encodeURIComponent('sent to BANK, v3')}/`,
      ]);
    });

    it('names an automatic version by its kind, and one whose keeper is gone by "-"', async () => {
      const { stdout } = await cli('versions', 'show', PLAN, V_IMPORT);
      expect(stdout.split('\n').slice(0, 5)).toEqual([
        'Version:   (before import)',
        `ID:        ${V_IMPORT}`,
        'Kind:      automatic, kept before an import',
        'Kept:      2026-11-22 16:00 UTC',
        'By:        -',
      ]);
    });

    it('prints the DocumentVersionDetail with --json', async () => {
      const shown = await cli('versions', 'show', PLAN, V_HOURLY, '--json');
      expect(shown).toMatchObject({ exitCode: 0, stderr: '' });
      const detail = JSON.parse(shown.stdout) as DocumentVersionDetail;
      expect(detail).toEqual(VERSIONS[2]);
    });

    it('says which is missing: the version, or the document', async () => {
      expect(await cli('versions', 'show', PLAN, 'v9')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `planwright: Version not found: “v9”.\nRun \`planwright versions list ${PLAN}\` to see the document's versions.\n`,
      });
      expect(await cli('versions', 'show', UNKNOWN, 'v9')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
      });
    });

    it('refuses a malformed uuid or a blank version, exit 2', async () => {
      const malformed = await cli('versions', 'show', 'acme', 'v1');
      expect(malformed).toMatchObject({ exitCode: 2, stdout: '' });
      expect(malformed.stderr).toMatch(/^planwright: <uuid>: "acme" is not a document uuid/);
      expect(await cli('versions', 'show', PLAN, ' ')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          "planwright: <version>: expected the version's name or id\nRun `planwright versions show --help` for usage.\n",
      });
      expect(server.seen).toEqual([]);
    });
  });

  describe('restore', () => {
    it('restores by name, then names the version kept just before, to undo it', async () => {
      const restored = await cli('versions', 'restore', PLAN, 'Sent to bank, v3');
      expect(restored).toMatchObject({ exitCode: 0, stderr: '' });
      const [before] = plan().versions;
      expect(before).toMatchObject({ kind: 'before_restore', revision: 9 });
      expect(restored.stdout).toBe(
        `Restored “Sent to bank, v3” in “Bakery plan”: revision 10. To undo, restore the version kept just before: planwright versions restore ${PLAN} ${before?.id}\n`,
      );
      expect(plan().content).toEqual(VERSIONS[0]?.content);
      // Read, restored by the id read, then the newest versions for the undo hint.
      expect(urls()).toEqual([
        `GET /api/v1/documents/${PLAN}/versions/${encodeURIComponent('Sent to bank, v3')}/`,
        `POST /api/v1/documents/${PLAN}/versions/${V_BANK}/restore/`,
        `GET /api/v1/documents/${PLAN}/versions/`,
      ]);

      // The printed command undoes it.
      const undo = await cli('versions', 'restore', PLAN, before?.id ?? '');
      expect(undo.stdout).toMatch(
        /^Restored “\(before restore\) 2026-11-22 12:00 UTC” in “Bakery plan”: revision 11\./,
      );
      expect(plan().content).toEqual(NOW_CONTENT);
    });

    it('names the newest of several versions kept before a restore', async () => {
      await cli('versions', 'restore', PLAN, V_HOURLY);
      const second = await cli('versions', 'restore', PLAN, V_IMPORT);
      const newest = plan().versions.find((item) => item.kind === 'before_restore');
      expect(plan().versions.filter((item) => item.kind === 'before_restore')).toHaveLength(2);
      expect(second.stdout).toBe(
        `Restored “(before import) 2026-11-22 16:00 UTC” in “Bakery plan”: revision 11. To undo, restore the version kept just before: planwright versions restore ${PLAN} ${newest?.id}\n`,
      );
    });

    it('prints the DocumentDetail with --json', async () => {
      const restored = await cli('versions', 'restore', PLAN, V_HOURLY, '--json');
      expect(restored).toMatchObject({ exitCode: 0, stderr: '' });
      const document = JSON.parse(restored.stdout) as DocumentDetail;
      expect(document).toMatchObject({ uuid: PLAN, title: 'Old bakery plan', revision: 10 });
      expect(document.content).toEqual(VERSIONS[2]?.content);
      expect(urls()).not.toContain(`GET /api/v1/documents/${PLAN}/versions/`);
    });

    it('prints the server’s reason when the caller’s role does not allow it, and changes nothing', async () => {
      expect(await cli('versions', 'restore', VIEWED, V_HOURLY)).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'planwright: Your role on this document does not let you change it.\n',
      });
      expect(server.plans.get(VIEWED)?.versions).toHaveLength(1);
    });

    it('says "Version not found" for a version the plan does not have', async () => {
      expect(await cli('versions', 'restore', PLAN, 'v9')).toMatchObject({
        exitCode: 1,
        stdout: '',
        stderr: expect.stringMatching(/^planwright: Version not found: “v9”\.\n/),
      });
      expect(plan().revision).toBe(9);
    });
  });

  it('asks nothing of the server when signed out, exit 3', async () => {
    await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
    for (const args of [
      ['list', PLAN],
      ['create', PLAN, '--name', 'v1'],
      ['show', PLAN, 'v1'],
      ['restore', PLAN, 'v1'],
    ]) {
      expect(await cli('versions', ...args)).toMatchObject({ exitCode: 3, stdout: '' });
    }
    expect(server.seen).toEqual([]);
  });

  it('is in the program’s help, with its subcommands in its own', async () => {
    expect((await runCli(['--help'])).stdout).toContain('versions');
    const help = await runCli(['versions', '--help']);
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    for (const text of [
      'create [options] <uuid>',
      'list <uuid>',
      'show <uuid> <version>',
      'restore <uuid> <version>',
    ]) {
      expect(help.stdout).toContain(text);
    }
  });
});
