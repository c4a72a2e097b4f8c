import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeTeamsServer, startFakeTeamsServer } from './support/teams-server.js';

const FROM_BOB = 'a1000000-0000-4000-8000-000000000001';
const FROM_CAROL = 'a1000000-0000-4000-8000-000000000002';
const TO_STUDIO = 'a1000000-0000-4000-8000-000000000003';
const STUDIO = 'o1000000-0000-4000-8000-000000000001';
const TOKEN = 'q2x9Lr3m_Tk-8VfJ4nWc0bYpZsA1dE7gHiKoMuNvXyz';

describe('planwright invitations', () => {
  const dir = useTempDir();
  let server: FakeTeamsServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeTeamsServer({
      received: [
        {
          id: FROM_BOB,
          token: TOKEN,
          document: { uuid: 'd0c00000-0000-4000-8000-000000000001', title: 'Cafe plan' },
          role: 'commenter',
          invited_by: 'Bob Builder',
        },
        {
          id: FROM_CAROL,
          token: 'expired-token',
          document: { uuid: 'd0c00000-0000-4000-8000-000000000002', title: '' },
          role: 'editor',
          invited_by: null,
        },
        {
          id: TO_STUDIO,
          token: 'studio-token',
          organization: { id: STUDIO, name: 'Studio' },
          role: 'admin',
          invited_by: 'Bob Builder',
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
  const requests = () => server.seen.map((r) => `${r.method} ${r.url}`);

  describe('list', () => {
    it('prints id, the plan or organisation, role, who invited, expiry, and how to accept', async () => {
      expect(await cli('invitations', 'list')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: [
          'ID                                    TO                     ROLE       INVITED BY   EXPIRES',
          `${FROM_BOB}  Cafe plan              commenter  Bob Builder  2026-12-06 10:00 UTC`,
          `${FROM_CAROL}  Untitled Document      editor     -            2026-12-06 10:00 UTC`,
          `${TO_STUDIO}  organisation “Studio”  admin      Bob Builder  2026-12-06 10:00 UTC`,
          '',
          'Accept one with `planwright invitations accept <id>`.',
          '',
        ].join('\n'),
      });
      expect(requests()).toEqual(['GET /api/v1/invitations/']);
    });

    it('says when there are none', async () => {
      server.received.splice(0);
      expect((await cli('invitations', 'list')).stdout).toBe('No pending invitations.\n');
    });

    it('prints the SDK’s ReceivedInvitation list with --json', async () => {
      const result = await cli('invitations', 'list', '--json');
      expect(JSON.parse(result.stdout)).toEqual([
        {
          id: FROM_BOB,
          document: { uuid: 'd0c00000-0000-4000-8000-000000000001', title: 'Cafe plan' },
          organization: null,
          role: 'commenter',
          invited_by: 'Bob Builder',
          created_at: '2026-11-22T10:00:00.000Z',
          expires_at: '2026-12-06T10:00:00.000Z',
        },
        expect.objectContaining({ id: FROM_CAROL, invited_by: null }),
        {
          id: TO_STUDIO,
          document: null,
          organization: { id: STUDIO, name: 'Studio' },
          role: 'admin',
          invited_by: 'Bob Builder',
          created_at: '2026-11-22T10:00:00.000Z',
          expires_at: '2026-12-06T10:00:00.000Z',
        },
      ]);
    });

    it('makes hostile plan titles, organisation names and people’s names safe for the terminal', async () => {
      server.received.push({
        id: 'a1000000-0000-4000-8000-000000000006',
        token: 'x',
        document: {
          uuid: 'd0c00000-0000-4000-8000-000000000003',
          title: 'Plan\u001b]8;;http://evil\u0007 \u202eevil',
        },
        role: 'viewer',
        invited_by: 'Mallory\u001b[2J',
      });
      server.received.push({
        id: 'a1000000-0000-4000-8000-000000000007',
        token: 'y',
        organization: { id: 'o1000000-0000-4000-8000-000000000004', name: '\u001b[31mEvil\u202e corp' },
        role: 'member',
        invited_by: null,
      });
      const { stdout } = await cli('invitations', 'list');
      expect(stdout).not.toMatch(/(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
      expect(stdout).toContain('000006  Plan evil                 viewer     Mallory      ');
      expect(stdout).toContain('000007  organisation “Evil corp”  member     -            ');
    });
  });

  describe('accept', () => {
    it('accepts by id (any case) and says what the caller now is, on which plan', async () => {
      expect(await cli('invitations', 'accept', FROM_BOB.toUpperCase())).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: 'You are now a commenter on “Cafe plan” (d0c00000-0000-4000-8000-000000000001).\n',
      });
      expect(requests()).toEqual([`POST /api/v1/invitations/${FROM_BOB}/accept/`]);
    });

    it('accepts the link of the e-mail, or its token alone, through the token', async () => {
      const link = `https://plans.example.com/invitations/${TOKEN}`;
      expect((await cli('invitations', 'accept', link)).stdout).toBe(
        'You are now a commenter on “Cafe plan” (d0c00000-0000-4000-8000-000000000001).\n',
      );
      expect(server.seen).toEqual([
        {
          method: 'POST',
          url: '/api/v1/invitations/accept/',
          token,
          ifMatch: undefined,
          body: { token: TOKEN },
        },
      ]);
      server.received.push({
        id: 'a1000000-0000-4000-8000-000000000009',
        token: 'another-token',
        document: { uuid: 'd0c00000-0000-4000-8000-000000000009', title: 'Pub plan' },
        role: 'viewer',
        invited_by: 'Bob',
      });
      await cli('invitations', 'accept', 'another-token');
      expect(server.seen.at(-1)?.body).toEqual({ token: 'another-token' });
    });

    it('says "an editor", and "Untitled Document" for a plan without a title', async () => {
      expect((await cli('invitations', 'accept', FROM_CAROL)).stdout).toBe(
        'You are now an editor on “Untitled Document” (d0c00000-0000-4000-8000-000000000002).\n',
      );
    });

    it('says which organisation the caller joined, as "an admin" or "a member", by id or link', async () => {
      expect(await cli('invitations', 'accept', TO_STUDIO)).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: `You are now an admin of the organisation “Studio” (${STUDIO}).\n`,
      });
      expect(requests()).toEqual([`POST /api/v1/invitations/${TO_STUDIO}/accept/`]);
      server.received.push({
        id: 'a1000000-0000-4000-8000-000000000005',
        token: 'lab-token',
        organization: { id: 'o1000000-0000-4000-8000-000000000005', name: 'Lab\u001b]0;owned\u0007' },
        role: 'member',
        invited_by: 'Bob',
      });
      expect(
        (await cli('invitations', 'accept', 'https://plans.example.com/invitations/lab-token')).stdout,
      ).toBe('You are now a member of the organisation “Lab” (o1000000-0000-4000-8000-000000000005).\n');
    });

    it('prints the SDK’s AcceptedInvitation with --json, to a plan or to an organisation', async () => {
      const result = await cli('invitations', 'accept', FROM_BOB, '--json');
      expect(JSON.parse(result.stdout)).toEqual({
        document: { uuid: 'd0c00000-0000-4000-8000-000000000001', title: 'Cafe plan' },
        organization: null,
        role: 'commenter',
      });
      const joined = await cli('invitations', 'accept', TO_STUDIO, '--json');
      expect(JSON.parse(joined.stdout)).toEqual({
        document: null,
        organization: { id: STUDIO, name: 'Studio' },
        role: 'admin',
      });
    });

    it('says "Invitation not found." for an unknown id (exit 1)', async () => {
      expect(await cli('invitations', 'accept', 'a1000000-0000-4000-8000-0000000000ff')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: Invitation not found.\nRun `planwright invitations list` to see the invitations waiting for you.\n',
      });
    });

    it('reports an expired or replaced link with the server’s reason (exit 1)', async () => {
      const last = server.received[1];
      if (last) last.expired = true;
      expect(await cli('invitations', 'accept', 'http://x.example/invitations/expired-token')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: the server answered 400 Bad Request: This invitation has expired. Ask for a new one.\n',
      });
      const unknown = await cli('invitations', 'accept', 'http://x.example/invitations/nothing');
      expect(unknown).toMatchObject({ exitCode: 1, stdout: '' });
      expect(unknown.stderr).toContain('This invitation is no longer valid');
    });

    it('refuses an empty argument (exit 2), asking the server nothing', async () => {
      const result = await cli('invitations', 'accept', '  ');
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          "planwright: <invitation>: expected the invitation's id or the link from its e-mail\nRun `planwright invitations accept --help` for usage.\n",
      });
      expect(server.seen).toEqual([]);
    });
  });
});
