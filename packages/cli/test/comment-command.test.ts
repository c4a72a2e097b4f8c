import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommentThread } from '@planwright/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import {
  type FakeOutlineSection,
  type FakeTeamsServer,
  startFakeTeamsServer,
} from './support/teams-server.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const VIEWED = 'd0c00000-0000-4000-8000-000000000002';
const MISSING = 'd0c00000-0000-4000-8000-0000000000ff';

const MISSION = '5b000000-0000-4000-8000-000000000001';
const TRACTION = '5b000000-0000-4000-8000-000000000002';
const MARKET_OVERVIEW = '5b000000-0000-4000-8000-000000000003';
const LANDSCAPE = '5b000000-0000-4000-8000-000000000004';
const OPERATIONS_OVERVIEW = '5b000000-0000-4000-8000-000000000005';

/** Two subsections share the title "Overview", in two sections. */
const OUTLINE: FakeOutlineSection[] = [
  {
    title: 'Executive Summary',
    subsections: [
      { uuid: MISSION, title: 'Company and Mission' },
      { uuid: TRACTION, title: 'Market and Traction' },
    ],
  },
  {
    title: 'Market Analysis',
    subsections: [
      { uuid: MARKET_OVERVIEW, title: 'Overview' },
      { uuid: LANDSCAPE, title: 'Competitive Landscape' },
    ],
  },
  { title: 'Operations', subsections: [{ uuid: OPERATIONS_OVERVIEW, title: 'Overview' }] },
];

describe('planwright comment', () => {
  const dir = useTempDir();
  let server: FakeTeamsServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeTeamsServer({
      plans: [
        {
          uuid: PLAN,
          title: 'Acme plan',
          role: 'commenter',
          members: [
            { id: 'u-bob', email: 'bob@example.com', first_name: 'Bob', role: 'owner' },
            { id: 'u-ada', email: 'ada@example.com', first_name: 'Ada', role: 'commenter', you: true },
          ],
          outline: OUTLINE,
        },
        {
          uuid: VIEWED,
          title: 'Bob’s plan',
          role: 'viewer',
          members: [
            { id: 'u-bob', email: 'bob@example.com', role: 'owner' },
            { id: 'u-ada', email: 'ada@example.com', role: 'viewer', you: true },
          ],
          outline: OUTLINE,
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
  const threads = (uuid = PLAN) => server.plans.get(uuid)?.threads ?? [];
  const posts = () => server.seen.filter((request) => request.method === 'POST');

  it('finds a title trimmed and case-insensitively, POSTs the trimmed message, and says where it went', async () => {
    const result = await cli(
      'comment',
      PLAN,
      '--subsection',
      '  market and TRACTION ',
      '--message',
      '  @bob is this sourced?\n',
    );
    const [thread] = threads();
    expect(result).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: `Commented on “Market and Traction” (${thread?.id}).\n`,
    });
    expect(server.seen).toEqual([
      { method: 'GET', url: `/api/v1/documents/${PLAN}/`, token, ifMatch: undefined, body: undefined },
      {
        method: 'POST',
        url: `/api/v1/documents/${PLAN}/comments/`,
        token,
        ifMatch: undefined,
        // On the subsection's first line: no anchor, no quote.
        body: { subsection: TRACTION, body: '@bob is this sourced?' },
      },
    ]);
  });

  it('takes the subsection’s uuid, and names it by its title', async () => {
    const result = await cli('comment', PLAN, '--subsection', MARKET_OVERVIEW, '--message', 'Which year?');
    expect(result.stdout).toBe(`Commented on “Overview” (${threads()[0]?.id}).\n`);
    expect(posts().map((request) => request.body)).toEqual([
      { subsection: MARKET_OVERVIEW, body: 'Which year?' },
    ]);
  });

  it('prints the SDK’s CommentThread with --json', async () => {
    const result = await cli(
      'comment',
      PLAN,
      '--subsection',
      'Company and Mission',
      '--message',
      'Nice.',
      '--json',
    );
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(result.stdout) as CommentThread).toEqual({
      id: threads()[0]?.id,
      subsection_uuid: MISSION,
      anchor: null,
      quote: '',
      status: 'open',
      created_by: { id: 'u-ada', username: 'ada', first_name: 'Ada', last_name: '' },
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
      resolved_at: null,
      resolved_by: null,
      messages: [
        {
          id: expect.any(String),
          author: { id: 'u-ada', username: 'ada', first_name: 'Ada', last_name: '' },
          body: 'Nice.',
          created_at: '2026-11-22T10:00:00.000Z',
          edited_at: null,
          deleted: false,
        },
      ],
    });
  });

  it('names the titles there are when none matches (exit 1), and comments on nothing', async () => {
    expect(await cli('comment', PLAN, '--subsection', 'Financials', '--message', 'Hm.')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'planwright: Subsection not found: "Financials".\n' +
        'The subsections are: "Company and Mission", "Market and Traction", "Overview", "Competitive Landscape".\n',
    });
    expect(posts()).toEqual([]);
  });

  it('asks for the uuid when two subsections have that title (exit 2), and comments on nothing', async () => {
    expect(await cli('comment', PLAN, '--subsection', 'overview', '--message', 'Hm.')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        `planwright: --subsection: "overview" matches 2 subsections: ${MARKET_OVERVIEW} ("Market Analysis > Overview"), ` +
        `${OPERATIONS_OVERVIEW} ("Operations > Overview")\n` +
        'Pass the uuid of the one you mean.\n',
    });
    expect(posts()).toEqual([]);
  });

  it.each([
    ['', 'Write a comment first'],
    [' \n\t ', 'Write a comment first'],
    ['x'.repeat(10_001), 'Comment must be at most 10,000 characters'],
    ['ring the bell\u0007', 'Must not contain control characters'],
  ])(
    'refuses the message %j with the SDK’s words, exit 2, before calling the server',
    async (message, why) => {
      expect(await cli('comment', PLAN, '--subsection', 'Overview', '--message', message)).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: --message: ${why}\nRun \`planwright comment --help\` for usage.\n`,
      });
      expect(server.seen).toEqual([]);
    },
  );

  it('takes a message of exactly 10,000 characters, emoji counted as one, with line breaks', async () => {
    const message = `${'😀'.repeat(9_991)}\nthe end.`;
    expect((await cli('comment', PLAN, '--subsection', MISSION, '--message', message)).exitCode).toBe(0);
    expect(threads()[0]?.messages[0]?.body).toBe(message);
  });

  it('needs --subsection, --message and a document uuid (exit 2, nothing sent)', async () => {
    const noMessage = await cli('comment', PLAN, '--subsection', 'Overview');
    expect(noMessage).toMatchObject({ exitCode: 2, stdout: '' });
    expect(noMessage.stderr).toMatch(/^planwright: required option '--message <text>' not specified\n/);
    const noSubsection = await cli('comment', PLAN, '--message', 'Hi');
    expect(noSubsection.stderr).toMatch(
      /^planwright: required option '--subsection <uuid\|title>' not specified\n/,
    );
    expect(await cli('comment', PLAN, '--subsection', '  ', '--message', 'Hi')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "planwright: --subsection: expected the subsection's uuid or title\nRun `planwright comment --help` for usage.\n",
    });
    const badUuid = await cli('comment', 'acme', '--subsection', 'Overview', '--message', 'Hi');
    expect(badUuid).toMatchObject({ exitCode: 2, stdout: '' });
    expect(badUuid.stderr).toMatch(/^planwright: <uuid>: "acme" is not a document uuid/);
    expect(server.seen).toEqual([]);
  });

  it('prints a viewer’s refusal as the server’s reason alone, not "not found" (exit 1)', async () => {
    expect(await cli('comment', VIEWED, '--subsection', MISSION, '--message', 'Me too.')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Viewers of this document cannot comment on it.\n',
    });
    expect(threads(VIEWED)).toEqual([]);
  });

  it('reports a mention of someone not on the plan with the server’s field message (400, exit 1)', async () => {
    const refusal =
      'the server answered 400 Bad Request: Invalid input: body (body: @carol is not on this plan: mention someone it is shared with.)';
    expect(await cli('comment', PLAN, '--subsection', MISSION, '--message', '@carol, thoughts?')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `planwright: ${refusal}\n`,
    });
    const json = await cli(
      'comment',
      PLAN,
      '--subsection',
      MISSION,
      '--message',
      '@carol, thoughts?',
      '--json',
    );
    expect(json).toMatchObject({ exitCode: 1, stdout: '' });
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'api_error', message: refusal, exitCode: 1 } });
    expect(threads()).toEqual([]);
  });

  it('reports too many mentions (429) with the server’s words and the SDK’s suggestion, exit 1', async () => {
    server.rateLimited = true;
    expect(await cli('comment', PLAN, '--subsection', MISSION, '--message', '@bob again')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'planwright: the server answered 429 Too Many Requests: Too many mentions sent. Please wait a while and try again.\n' +
        'Too many requests: wait a moment, then try again.\n',
    });
  });

  it('says "Document not found." for a plan the caller does not see (exit 1)', async () => {
    expect(await cli('comment', MISSING, '--subsection', 'Overview', '--message', 'Hi')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    });
    expect(posts()).toEqual([]);
  });

  it('makes the subsection’s title safe for the terminal, and names a blank one', async () => {
    const plan = server.plans.get(PLAN);
    if (plan) {
      plan.outline = [
        {
          title: 'Evil',
          subsections: [
            { uuid: MISSION, title: '\u001b[2JMarket\u202e\r' },
            { uuid: TRACTION, title: '   ' },
          ],
        },
      ];
    }
    expect((await cli('comment', PLAN, '--subsection', MISSION, '--message', 'Hi')).stdout).toBe(
      `Commented on “Market” (${threads()[0]?.id}).\n`,
    );
    expect((await cli('comment', PLAN, '--subsection', TRACTION, '--message', 'Hi')).stdout).toBe(
      `Commented on “Untitled Subsection” (${threads()[1]?.id}).\n`,
    );
  });

  it('asks nothing of the server when signed out, exit 3', async () => {
    await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
    const result = await cli('comment', PLAN, '--subsection', 'Overview', '--message', 'Hi');
    expect(result).toMatchObject({ exitCode: 3, stdout: '' });
    expect(server.seen).toEqual([]);
  });
});
