import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VersionDiff } from '@planwright/sdk';
import { markdownToDocument } from '@planwright/sdk/formats';
import type { DocumentJson } from '@planwright/sdk/model';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalText } from '../src/display/terminal-text.js';
import { runCli, useTempDir } from './support/run-cli.js';
import {
  FAKE_KEEPER,
  type FakeVersion,
  type FakeVersionsServer,
  startFakeVersionsServer,
  withoutContent,
} from './support/versions-server.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const UNKNOWN = 'd0c00000-0000-4000-8000-0000000000ff';

const V1 = 'e0000000-0000-4000-8000-000000000001';
const V2 = 'e0000000-0000-4000-8000-000000000002';

/** The plan as v1 kept it; v2 and the plan now are edits of it, so their parts keep their ids. */
const V1_CONTENT = markdownToDocument(
  '# Market\n\n## Size\n\nBread for the whole town.\n\n## Pricing\n\nOne loaf.\n',
).document;

/** `content` with the text of subsection `index` (of the first section) replaced. */
function withText(content: DocumentJson, index: number, text: string): DocumentJson {
  const changed = structuredClone(content);
  const subsection = changed.content[0]?.content.filter((node) => node.type === 'subsection')[index];
  const paragraph = subsection?.content[1];
  if (!paragraph || !('content' in paragraph)) throw new Error('the subsection has a paragraph');
  paragraph.content = [{ type: 'text', text }];
  return changed;
}

const V2_CONTENT = withText(V1_CONTENT, 1, 'Two loaves.');
const NOW_CONTENT = withText(V2_CONTENT, 0, 'Bread for the whole county.');

function version(id: string, name: string, content: DocumentJson, createdAt: string): FakeVersion {
  return {
    id,
    name,
    kind: 'named',
    title: 'Bakery plan',
    revision: 3,
    progress: { finalized: 0, total: 2 },
    created_by: { ...FAKE_KEEPER },
    created_at: createdAt,
    content,
  };
}

/** Newest first. */
const VERSIONS = [
  version(V2, 'v2', V2_CONTENT, '2026-11-23T09:30:00.000Z'),
  version(V1, 'v1', V1_CONTENT, '2026-11-22T10:05:00.000Z'),
];

/** `planwright diff <PLAN> --from v1` as the server words it. */
const V1_TO_NOW = [
  '# Changes from “v1” to now',
  '',
  'Subsections: 2 changed, 0 added, 0 removed, 0 unchanged.',
  '',
  '## Market',
  '',
  '### Size',
  '',
  'Bread for the whole {--town--}{++county++}.',
  '',
  '### Pricing',
  '',
  '{--One--}{++Two++} {--loaf--}{++loaves++}.',
  '',
].join('\n');

describe('planwright diff', () => {
  const dir = useTempDir();
  let server: FakeVersionsServer;
  beforeEach(async () => {
    server = await startFakeVersionsServer({
      plans: [
        {
          uuid: PLAN,
          title: 'Bakery plan',
          role: 'viewer',
          revision: 9,
          content: structuredClone(NOW_CONTENT),
          progress: { finalized: 0, total: 2 },
          versions: structuredClone(VERSIONS),
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
  const diffUrl = (query: string) => `GET /api/v1/documents/${PLAN}/diff/?${query}`;

  it('prints the server’s Markdown from a version to the plan as it is now, by default', async () => {
    expect(await cli('diff', PLAN, '--from', 'V1')).toEqual({ exitCode: 0, stderr: '', stdout: V1_TO_NOW });
    expect(urls()).toEqual([diffUrl('from=V1&to=now&format=md')]);
  });

  it('compares two versions with --to, by name or id', async () => {
    const compared = await cli('diff', PLAN, '--from', V1, '--to', 'v2', '--format', 'md');
    expect(compared).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        '# Changes from “v1” to “v2”',
        '',
        'Subsections: 1 changed, 0 added, 0 removed, 1 unchanged.',
        '',
        '## Market',
        '',
        '### Pricing',
        '',
        '{--One--}{++Two++} {--loaf--}{++loaves++}.',
        '',
      ].join('\n'),
    });
    expect(urls()).toEqual([diffUrl(`from=${V1}&to=v2&format=md`)]);
  });

  it('makes the plan’s text safe for the terminal, line breaks kept; -o writes it as the server sent it', async () => {
    const plan = server.plans.get(PLAN);
    if (!plan) throw new Error('the plan is set up');
    plan.content = withText(
      NOW_CONTENT,
      0,
      'Bread\u001b]8;;https://x.example\u0007 for\tthe \u202ewhole county.',
    );
    const { stdout } = await cli('diff', PLAN, '--from', 'v1');
    expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    expect(stdout).toContain('\n### Size\n\n');
    const path = join(dir.path, 'changes.md');
    expect(await cli('diff', PLAN, '--from', 'v1', '-o', path)).toMatchObject({ exitCode: 0 });
    const markdown = await readFile(path, 'utf8');
    expect(markdown).toContain(' for{-- --}{++\t++}the {++\u202e++}whole {--town--}{++county++}.\n');
    expect(stdout).toBe(markdown.split('\n').map(terminalText).join('\n'));
  });

  it('prints the VersionDiff as JSON with --format json', async () => {
    const compared = await cli('diff', PLAN, '--from', 'v1', '--format', 'json');
    expect(compared).toMatchObject({ exitCode: 0, stderr: '' });
    const diff = JSON.parse(compared.stdout) as VersionDiff;
    expect(diff.from).toEqual(withoutContent(VERSIONS[1] as FakeVersion));
    expect(diff.to).toEqual({ now: true });
    expect(diff.summary).toEqual({ added: 0, removed: 0, changed: 2, unchanged: 0 });
    expect(diff.sections[0]?.subsections[0]).toMatchObject({
      status: 'changed',
      title: { from: 'Size', to: 'Size' },
      words: [
        { kind: 'same', text: 'Bread for the whole ' },
        { kind: 'removed', text: 'town' },
        { kind: 'added', text: 'county' },
        { kind: 'same', text: '.' },
      ],
    });
    expect(compared.stdout).toBe(`${JSON.stringify(diff, null, 2)}\n`);
    expect(urls()).toEqual([diffUrl('from=v1&to=now')]);
  });

  describe('-o FILE', () => {
    it('writes the Markdown to the file as the server sent it, and says where it went', async () => {
      const path = join(dir.path, 'changes.md');
      const written = await cli('diff', PLAN, '--from', 'v1', '-o', path);
      const markdown = await readFile(path, 'utf8');
      expect(markdown).toBe(V1_TO_NOW);
      expect(written).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: `Wrote the changes from “v1” to now to ${path} (${Buffer.byteLength(markdown)} B).\n`,
      });
    });

    it('writes JSON with --format json, replaces a file that exists, and reports as JSON with --json', async () => {
      const path = join(dir.path, 'changes.json');
      await writeFile(path, 'an older comparison');
      const written = await cli(
        'diff',
        PLAN,
        '--from',
        'v1',
        '--to',
        'V2',
        '--format',
        'json',
        '--output',
        path,
        '--json',
      );
      expect(written).toMatchObject({ exitCode: 0, stderr: '' });
      const text = await readFile(path, 'utf8');
      expect(JSON.parse(text)).toMatchObject({ summary: { changed: 1, unchanged: 1 } });
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      expect(JSON.parse(written.stdout)).toEqual({
        uuid: PLAN,
        from: 'v1',
        to: 'V2',
        format: 'json',
        path,
        bytes: Buffer.byteLength(text),
      });
    });

    it('prints to standard output with -o -', async () => {
      expect(await cli('diff', PLAN, '--from', 'v1', '-o', '-')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: V1_TO_NOW,
      });
    });

    it('refuses a folder before asking the server, exit 1', async () => {
      const folder = join(dir.path, 'folder');
      await mkdir(folder);
      const refused = await cli('diff', PLAN, '--from', 'v1', '-o', folder);
      expect(refused).toMatchObject({ exitCode: 1, stdout: '' });
      expect(refused.stderr).toMatch(/^planwright: cannot write .*folder: it is a directory \(EISDIR\)\n/);
      expect(server.seen).toEqual([]);
    });
  });

  describe('usage errors, exit 2, before the server is asked', () => {
    it('refuses --format docx without -o (a Word file is not for the terminal), and unknown formats', async () => {
      expect(await cli('diff', PLAN, '--from', 'v1', '--format', 'docx')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: --format docx writes a Word file: add -o <file>.docx\nRun `planwright diff --help` for usage.\n',
      });
      expect((await cli('diff', PLAN, '--from', 'v1', '--format', 'pdf')).stderr).toBe(
        'planwright: --format: "pdf" is not a format of the comparison; use md, json or docx\nRun `planwright diff --help` for usage.\n',
      );
      expect(server.seen).toEqual([]);
    });

    it('needs --from, and a version in it', async () => {
      expect(await cli('diff', PLAN)).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          "planwright: required option '--from <version>' not specified\nRun `planwright --help` for usage.\n",
      });
      expect(await cli('diff', PLAN, '--from', ' ')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          "planwright: --from: expected a version's name or id, or now (the plan as it is now) for --from\nRun `planwright diff --help` for usage.\n",
      });
      expect(server.seen).toEqual([]);
    });

    it('refuses a malformed uuid, and --json without -o', async () => {
      const malformed = await cli('diff', 'acme', '--from', 'v1');
      expect(malformed).toMatchObject({ exitCode: 2, stdout: '' });
      expect(malformed.stderr).toMatch(/^planwright: <uuid>: "acme" is not a document uuid/);
      const json = await cli('diff', PLAN, '--from', 'v1', '--json');
      expect(json).toMatchObject({ exitCode: 2, stdout: '' });
      expect(JSON.parse(json.stderr)).toEqual({
        error: {
          code: 'usage',
          message: '--json prints a report on standard output, so it needs --output <file>',
          suggestion: 'For the comparison itself as JSON, use --format json.',
          exitCode: 2,
        },
      });
      expect(server.seen).toEqual([]);
    });
  });

  describe('not found, exit 1', () => {
    const versionNotFound = (name: string) =>
      `planwright: Version not found: “${name}”.\nRun \`planwright versions list ${PLAN}\` to see the document's versions.\n`;

    it('names the version the plan does not have, as `versions show` does', async () => {
      expect(await cli('diff', PLAN, '--from', 'v9')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: versionNotFound('v9'),
      });
      expect(urls()).toEqual([
        diffUrl('from=v9&to=now&format=md'),
        `GET /api/v1/documents/${PLAN}/versions/?page_size=1`,
      ]);
      expect(await cli('diff', PLAN, '--from', 'now', '--to', 'v9', '--format', 'json')).toMatchObject({
        exitCode: 1,
        stderr: versionNotFound('v9'),
      });
    });

    it('tells which of two versions is missing', async () => {
      expect(await cli('diff', PLAN, '--from', 'v1', '--to', 'v9')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: versionNotFound('v9'),
      });
      // `from` compared with itself is found, so `to` is the one missing; the plan is there.
      expect(urls()).toEqual([
        diffUrl('from=v1&to=v9&format=md'),
        diffUrl('from=v1&to=v1'),
        `GET /api/v1/documents/${PLAN}/versions/?page_size=1`,
      ]);
      expect(await cli('diff', PLAN, '--from', 'v9', '--to', 'v1')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: versionNotFound('v9'),
      });
    });

    it('says "Document not found" for a plan the caller does not see', async () => {
      for (const to of ['now', 'v1']) {
        expect(await cli('diff', UNKNOWN, '--from', 'v1', '--to', to)).toEqual({
          exitCode: 1,
          stdout: '',
          stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
        });
      }
    });
  });

  it('asks nothing of the server when signed out, exit 3', async () => {
    await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
    const refused = await cli('diff', PLAN, '--from', 'v1');
    expect(refused).toMatchObject({ exitCode: 3, stdout: '' });
    expect(refused.stderr).toMatch(/^planwright: not signed in to /);
    expect(server.seen).toEqual([]);
  });

  it('is in the program’s help, with its options in its own', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}diff \[options\] <uuid> +show what changed/);
    const help = await runCli(['diff', '--help']);
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    for (const text of ['--from <version>', '--to <version>', '--format <format>', '-o, --output <file>']) {
      expect(help.stdout).toContain(text);
    }
  });
});
