import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeTeamsServer, startFakeTeamsServer } from './support/teams-server.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const VIEWED = 'd0c00000-0000-4000-8000-000000000002';

describe('planwright members', () => {
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
            {
              id: 'u-ada',
              email: 'ada@example.com',
              first_name: 'Ada',
              last_name: 'Lovelace',
              role: 'owner',
              you: true,
            },
            { id: 'u-bob', email: 'bob@example.com', role: 'commenter' },
          ],
          organizations: [{ id: 'o-1', name: 'Studio', role: 'editor' }],
          invitations: [{ id: 'i-carol', email: 'carol@example.com', role: 'viewer' }],
          editorsCanShare: true,
        },
        {
          uuid: VIEWED,
          title: 'Bob’s plan',
          role: 'viewer',
          members: [
            { id: 'u-bob', email: 'bob@example.com', first_name: 'Bob', role: 'owner' },
            { id: 'u-ada', email: 'ada@example.com', role: 'viewer', you: true },
          ],
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

  it('prints the members, the organisations and the pending invitations to the owner', async () => {
    expect(await cli('members', PLAN)).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'Members:',
        '  NAME                E-MAIL           ROLE       JOINED',
        '  Ada Lovelace (you)  ada@example.com  owner      2026-11-22 10:00 UTC',
        '  bob                 bob@example.com  commenter  2026-11-22 10:00 UTC',
        '',
        'Organisations:',
        '  NAME    ROLE',
        '  Studio  editor',
        '',
        'Pending invitations:',
        '  E-MAIL             ROLE    EXPIRES',
        '  carol@example.com  viewer  2026-12-06 10:00 UTC',
        '',
        'Editors may invite people too.',
        '',
      ].join('\n'),
    });
    expect(server.seen).toEqual([
      {
        method: 'GET',
        url: `/api/v1/documents/${PLAN}/members/`,
        token,
        ifMatch: undefined,
        body: undefined,
      },
    ]);
  });

  it('shows usernames and no invitations to someone who may not invite', async () => {
    expect((await cli('members', VIEWED)).stdout).toBe(
      [
        'Members:',
        '  NAME       E-MAIL  ROLE    JOINED',
        '  Bob        bob     owner   2026-11-22 10:00 UTC',
        '  ada (you)  ada     viewer  2026-11-22 10:00 UTC',
        '',
      ].join('\n'),
    );
  });

  it('says so when no invitation is pending', async () => {
    const plan = server.plans.get(PLAN);
    if (plan) plan.invitations = [];
    expect((await cli('members', PLAN)).stdout).toContain('\nPending invitations:\n  none\n');
  });

  it('prints the SDK’s PlanSharing with --json', async () => {
    const result = await cli('members', VIEWED, '--json');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      members: [
        {
          user: { id: 'u-bob', username: 'bob', first_name: 'Bob', last_name: '', email: null },
          role: 'owner',
          joined_at: '2026-11-22T10:00:00.000Z',
          is_you: false,
        },
        {
          user: { id: 'u-ada', username: 'ada', first_name: '', last_name: '', email: null },
          role: 'viewer',
          joined_at: '2026-11-22T10:00:00.000Z',
          is_you: true,
        },
      ],
      organizations: [],
      invitations: null,
      editorsCanShare: false,
      role: 'viewer',
    });
  });

  it('makes names from the server safe for the terminal and keeps the columns aligned', async () => {
    server.plans.get(PLAN)?.members.push({
      id: 'u-eve',
      email: 'eve@example.com',
      first_name: '\u001b[2J漢字\u202e',
      last_name: 'Eve\r',
      role: 'viewer',
    });
    const { stdout } = await cli('members', PLAN);
    expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    expect(stdout.split('\n').slice(1, 5)).toEqual([
      '  NAME                E-MAIL           ROLE       JOINED',
      '  Ada Lovelace (you)  ada@example.com  owner      2026-11-22 10:00 UTC',
      '  bob                 bob@example.com  commenter  2026-11-22 10:00 UTC',
      '  漢字 Eve            eve@example.com  viewer     2026-11-22 10:00 UTC',
    ]);
  });

  it('says "Document not found." for an unknown plan and refuses a malformed uuid', async () => {
    expect(await cli('members', 'd0c00000-0000-4000-8000-0000000000ff')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    });
    const malformed = await cli('members', 'acme');
    expect(malformed).toMatchObject({ exitCode: 2, stdout: '' });
    expect(malformed.stderr).toMatch(/^planwright: <uuid>: "acme" is not a document uuid/);
  });
});
