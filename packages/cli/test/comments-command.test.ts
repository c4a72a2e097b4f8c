import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommentMessage, CommentThread } from '@planwright/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import { authorOf, type FakeTeamsServer, startFakeTeamsServer } from './support/teams-server.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const VIEWED = 'd0c00000-0000-4000-8000-000000000002';

const MISSION = '5b000000-0000-4000-8000-000000000001';
const TRACTION = '5b000000-0000-4000-8000-000000000002';
const REMOVED = '5b000000-0000-4000-8000-0000000000ff';

const ADA = { id: 'u-ada', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const BOB = { id: 'u-bob', email: 'bob@example.com' };

function message(
  id: string,
  author: CommentMessage['author'],
  body: string,
  extra: Partial<CommentMessage> = {},
) {
  return {
    id,
    author,
    body,
    created_at: '2026-11-22T10:05:00.000Z',
    edited_at: null,
    deleted: false,
    ...extra,
  };
}

function thread(
  id: string,
  subsection: string | null,
  messages: CommentMessage[],
  extra: Partial<CommentThread> = {},
) {
  return {
    id,
    subsection_uuid: subsection,
    anchor: null,
    quote: '',
    status: 'open' as const,
    created_by: messages[0]?.author ?? null,
    created_at: '2026-11-22T10:05:00.000Z',
    updated_at: '2026-11-22T10:05:00.000Z',
    resolved_at: null,
    resolved_by: null,
    messages,
    ...extra,
  };
}

/** An open thread with a quote, an edited reply and a deleted one; a resolved one; one on a removed subsection. */
const THREADS: CommentThread[] = [
  thread(
    't-1',
    TRACTION,
    [
      message('m-1', authorOf(BOB), 'Is the market size sourced, @ada?'),
      message('m-2', authorOf(ADA), 'Yes:\n\nthe 2025 census.', {
        created_at: '2026-11-22T11:30:00.000Z',
        edited_at: '2026-11-22T11:35:00.000Z',
      }),
      message('m-3', authorOf(BOB), '', { created_at: '2026-11-22T11:40:00.000Z', deleted: true }),
    ],
    { anchor: 'AQID', quote: 'a market of 3 billion' },
  ),
  thread('t-2', MISSION, [message('m-4', authorOf(ADA), 'Shorter, please.')], {
    status: 'resolved',
    resolved_at: '2026-11-22T12:00:00.000Z',
    resolved_by: authorOf(BOB),
  }),
  thread('t-3', REMOVED, [message('m-5', null, 'An old note.')]),
];

describe('planwright comments', () => {
  const dir = useTempDir();
  let server: FakeTeamsServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeTeamsServer({
      plans: [
        {
          uuid: PLAN,
          title: 'Acme plan',
          role: 'owner',
          members: [
            { ...ADA, role: 'owner', you: true },
            { ...BOB, role: 'commenter' },
          ],
          outline: [
            {
              title: 'Executive Summary',
              subsections: [
                { uuid: MISSION, title: 'Company and Mission' },
                { uuid: TRACTION, title: 'Market and Traction' },
              ],
            },
          ],
          threads: structuredClone(THREADS),
        },
        {
          uuid: VIEWED,
          title: 'Bob’s plan',
          role: 'viewer',
          members: [
            { ...BOB, role: 'owner' },
            { ...ADA, role: 'viewer', you: true },
          ],
          outline: [{ title: 'Summary', subsections: [{ uuid: MISSION, title: 'Overview' }] }],
          threads: [thread('t-9', MISSION, [message('m-9', authorOf(BOB), 'Read this first.')])],
        },
      ],
    });
    token = server.issueToken();
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({ sessions: { [server.url]: { token, email: 'ada@example.com' } } }),
    );
  });
  afterEach(async () => {
    await server.close();
  });

  const cli = (...args: string[]) =>
    runCli(args, { PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const urls = () => server.seen.map((request) => `${request.method} ${request.url}`).sort();

  it('prints each thread under its subsection’s title, status and quote, its messages indented', async () => {
    expect(await cli('comments', PLAN)).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'Market and Traction · open · “a market of 3 billion”',
        '  bob · 2026-11-22 10:05 UTC',
        '    Is the market size sourced, @ada?',
        '  Ada Lovelace · 2026-11-22 11:30 UTC (edited)',
        '    Yes:',
        '',
        '    the 2025 census.',
        '  bob · 2026-11-22 11:40 UTC',
        '    (deleted)',
        '',
        'Company and Mission · resolved',
        '  Ada Lovelace · 2026-11-22 10:05 UTC',
        '    Shorter, please.',
        '',
        'A removed subsection · open',
        '  Someone · 2026-11-22 10:05 UTC',
        '    An old note.',
        '',
      ].join('\n'),
    });
    // The threads (all of them) and the document, to name the subsections: two calls.
    expect(urls()).toEqual([
      `GET /api/v1/documents/${PLAN}/`,
      `GET /api/v1/documents/${PLAN}/comments/?status=all`,
    ]);
  });

  it('--open asks for the open threads only', async () => {
    const { stdout } = await cli('comments', PLAN, '--open');
    expect(stdout.split('\n').filter((line) => !line.startsWith(' ') && line !== '')).toEqual([
      'Market and Traction · open · “a market of 3 billion”',
      'A removed subsection · open',
    ]);
    expect(urls()).toContain(`GET /api/v1/documents/${PLAN}/comments/?status=open`);
  });

  it('prints the SDK’s CommentThread array with --json, as the server sent it', async () => {
    const all = await cli('comments', PLAN, '--json');
    expect(all).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(all.stdout)).toEqual(THREADS);
    const open = await cli('comments', PLAN, '--open', '--json');
    expect((JSON.parse(open.stdout) as CommentThread[]).map((item) => item.id)).toEqual(['t-1', 't-3']);
  });

  it('says so when there are no comments, or no open ones', async () => {
    const plan = server.plans.get(PLAN);
    if (plan) plan.threads = THREADS.filter((item) => item.status === 'resolved');
    expect((await cli('comments', PLAN, '--open')).stdout).toBe('No open comments.\n');
    expect(JSON.parse((await cli('comments', PLAN, '--open', '--json')).stdout)).toEqual([]);
    if (plan) plan.threads = [];
    expect(await cli('comments', PLAN)).toEqual({ exitCode: 0, stderr: '', stdout: 'No comments.\n' });
  });

  it('shows a viewer the comments too', async () => {
    expect((await cli('comments', VIEWED)).stdout).toBe(
      'Overview · open\n  bob · 2026-11-22 10:05 UTC\n    Read this first.\n',
    );
  });

  it('makes everything from other people safe for the terminal', async () => {
    const plan = server.plans.get(PLAN);
    if (plan) {
      plan.threads = [
        thread(
          't-x',
          MISSION,
          [
            message(
              'm-x',
              { ...authorOf(BOB), first_name: '\u001b[2JEve\u202e' },
              'Look\u001b]8;;http://x\u0007 here\r\nnow',
            ),
          ],
          { quote: 'a\u009b31mquote' },
        ),
      ];
    }
    const { stdout } = await cli('comments', PLAN);
    expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    expect(stdout).toBe(
      [
        'Company and Mission · open · “aquote”',
        '  Eve · 2026-11-22 10:05 UTC',
        '    Look here',
        '    now',
        '',
      ].join('\n'),
    );
  });

  it('says "Document not found." for an unknown plan and refuses a malformed uuid', async () => {
    expect(await cli('comments', 'd0c00000-0000-4000-8000-0000000000ff')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    });
    const malformed = await cli('comments', 'acme');
    expect(malformed).toMatchObject({ exitCode: 2, stdout: '' });
    expect(malformed.stderr).toMatch(/^planwright: <uuid>: "acme" is not a document uuid/);
  });

  it('asks nothing of the server when signed out, exit 3', async () => {
    await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
    expect(await cli('comments', PLAN)).toMatchObject({ exitCode: 3, stdout: '' });
    expect(server.seen).toEqual([]);
  });
});
