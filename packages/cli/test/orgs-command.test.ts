import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ORGANIZATION_ROLES } from '@planwright/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORG_INVITE_ROLES } from '../src/commands/orgs.js';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeTeamsServer, startFakeTeamsServer } from './support/teams-server.js';

const STUDIO = 'o1000000-0000-4000-8000-000000000001';
const LAB = 'o1000000-0000-4000-8000-000000000002';
const KITCHEN = 'o1000000-0000-4000-8000-000000000003';

describe('planwright orgs', () => {
  const dir = useTempDir();
  let server: FakeTeamsServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeTeamsServer();
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
    it('says how to start when the caller belongs to none', async () => {
      expect(await cli('orgs', 'list')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: 'You belong to no organisations yet.\nCreate one with `planwright orgs create <name>`.\n',
      });
      expect(requests()).toEqual(['GET /api/v1/organizations/']);
    });

    it('prints id, name and the caller’s role, aligned by display width', async () => {
      server.organizations.push(
        { id: 'o1000000-0000-4000-8000-000000000001', name: 'Studio', role: 'admin' },
        { id: 'o1000000-0000-4000-8000-000000000002', name: '設計 \u001b[31mstudio', role: 'member' },
      );
      expect((await cli('orgs', 'list')).stdout).toBe(
        [
          'ID                                    NAME         ROLE',
          'o1000000-0000-4000-8000-000000000001  Studio       admin',
          'o1000000-0000-4000-8000-000000000002  設計 studio  member',
          '',
        ].join('\n'),
      );
    });

    it('says when the server kept some back (its first page only)', async () => {
      server.organizations.push({ id: 'o1', name: 'Studio', role: 'admin' });
      server.organizationsTotal = 21;
      expect((await cli('orgs', 'list')).stdout).toContain('\n\n1 of 21 organisations (the first page).\n');
    });

    it('prints the SDK’s page with --json', async () => {
      server.organizations.push({ id: 'o1', name: 'Studio', role: 'admin' });
      expect(JSON.parse((await cli('orgs', 'list', '--json')).stdout)).toEqual({
        items: [{ id: 'o1', name: 'Studio', title: 'Studio', slug: 'studio', role: 'admin' }],
        total: 1,
      });
    });
  });

  describe('create', () => {
    it('POSTs the trimmed name and says the caller is its admin', async () => {
      const result = await cli('orgs', 'create', '  Studio ');
      const created = server.organizations[0];
      expect(result).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: `Created the organisation "Studio" (${created?.id}); you are its admin.\n`,
      });
      expect(server.seen).toEqual([
        {
          method: 'POST',
          url: '/api/v1/organizations/',
          token,
          ifMatch: undefined,
          body: { name: 'Studio' },
        },
      ]);
    });

    it('prints the SDK’s OrganizationDetail with --json', async () => {
      const result = await cli('orgs', 'create', 'Studio', '--json');
      expect(JSON.parse(result.stdout)).toEqual({
        id: server.organizations[0]?.id,
        name: 'Studio',
        title: 'Studio',
        slug: 'studio',
        role: 'admin',
        members: [
          { user: { id: 'u-ada', username: 'ada', first_name: 'Ada', last_name: '' }, role: 'admin' },
        ],
        invitations: [],
      });
    });

    it.each([
      ['   ', 'Name is required'],
      ['x'.repeat(101), 'Name must be at most 100 characters'],
      ['A\u001b[2Jb', 'Must not contain control characters'],
    ])('refuses the name %j with exit 2, sending nothing', async (name, message) => {
      const result = await cli('orgs', 'create', name);
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr.split('\n')[0]).toBe(`planwright: <name>: ${message}`);
      expect(server.seen).toEqual([]);
    });

    it('asks nothing of the server when signed out, exit 3', async () => {
      await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
      expect(await cli('orgs', 'create', 'Studio')).toMatchObject({ exitCode: 3, stdout: '' });
      expect(server.seen).toEqual([]);
    });
  });

  describe('invite', () => {
    beforeEach(() => {
      server.organizations.push(
        {
          id: STUDIO,
          name: 'Studio',
          role: 'admin',
          members: ['bob@example.com'],
          invitations: [{ id: 'i-carol', email: 'carol@example.com', role: 'member' }],
        },
        { id: LAB, name: 'Research Lab', slug: 'lab', role: 'admin' },
        { id: KITCHEN, name: 'Kitchen', role: 'member' },
      );
    });

    it('offers exactly the roles of an organisation (the SDK’s)', () => {
      expect([...ORG_INVITE_ROLES].sort()).toEqual([...ORGANIZATION_ROLES].sort());
    });

    it('invites by id as a member by default, and says to what, as what, until when', async () => {
      const result = await cli('orgs', 'invite', STUDIO, '--email', ' mentor@uni.example ');
      expect(result).toEqual({
        exitCode: 0,
        stderr: '',
        stdout:
          'Invited mentor@uni.example to “Studio” as a member. The invitation link expires on 2026-12-06 10:00 UTC.\n',
      });
      expect(server.seen).toEqual([
        { method: 'GET', url: '/api/v1/organizations/', token, ifMatch: undefined, body: undefined },
        {
          method: 'POST',
          url: `/api/v1/organizations/${STUDIO}/invitations/`,
          token,
          ifMatch: undefined,
          body: { email: 'mentor@uni.example', role: 'member' },
        },
      ]);
    });

    it('finds the organisation by its name or its slug, in any case; --role admin', async () => {
      expect((await cli('orgs', 'invite', 'research lab', '--email', 'a@uni.example')).stdout).toBe(
        'Invited a@uni.example to “Research Lab” as a member. The invitation link expires on 2026-12-06 10:00 UTC.\n',
      );
      expect((await cli('orgs', 'invite', 'LAB', '--email', 'b@uni.example', '--role', 'admin')).stdout).toBe(
        'Invited b@uni.example to “Research Lab” as an admin. The invitation link expires on 2026-12-06 10:00 UTC.\n',
      );
      expect(requests().filter((request) => request.startsWith('POST'))).toEqual([
        `POST /api/v1/organizations/${LAB}/invitations/`,
        `POST /api/v1/organizations/${LAB}/invitations/`,
      ]);
      expect(server.seen.at(-1)?.body).toEqual({ email: 'b@uni.example', role: 'admin' });
    });

    it('prints the SDK’s SentInvitation with --json', async () => {
      const result = await cli('orgs', 'invite', 'studio', '--email', 'mentor@uni.example', '--json');
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual({
        id: server.organizations[0]?.invitations?.at(-1)?.id,
        email: 'mentor@uni.example',
        role: 'member',
        created_at: '2026-11-22T10:00:00.000Z',
        sent_at: '2026-11-22T10:00:00.000Z',
        expires_at: '2026-12-06T10:00:00.000Z',
      });
    });

    it('refuses a name several organisations share, naming them (exit 2, nothing sent)', async () => {
      server.organizations.push({
        id: 'o1000000-0000-4000-8000-000000000004',
        name: 'studio',
        role: 'admin',
      });
      expect(await cli('orgs', 'invite', 'Studio', '--email', 'mentor@uni.example')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: <org>: 2 of your organisations are called "Studio": choose one by id: “Studio” (${STUDIO}) or “studio” (o1000000-0000-4000-8000-000000000004)\n`,
      });
      expect(requests()).toEqual(['GET /api/v1/organizations/']);
    });

    it('refuses a name none of them has, naming the choices (exit 2, nothing sent)', async () => {
      expect(await cli('orgs', 'invite', 'Acme', '--email', 'mentor@uni.example')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          `planwright: <org>: none of your organisations is called "Acme": choose “Studio” (${STUDIO}), “Research Lab” (${LAB}) or “Kitchen” (${KITCHEN})\n` +
          'Run `planwright orgs list` to see your organisations.\n',
      });
      server.organizationsTotal = 30;
      expect((await cli('orgs', 'invite', 'Acme', '--email', 'mentor@uni.example')).stderr).toContain(
        '\nNames are matched among your first 3 organisations of 30: pass the id of another.\n',
      );
      server.organizations.splice(0);
      server.organizationsTotal = undefined;
      expect(await cli('orgs', 'invite', 'Acme', '--email', 'mentor@uni.example')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: <org>: you belong to no organisations\nCreate one with `planwright orgs create <name>`.\n',
      });
      expect(requests().filter((request) => request.startsWith('POST'))).toEqual([]);
    });

    it.each(['owner', 'Admin', ''])(
      'refuses the role %j with exit 2, listing the roles, before calling the server',
      async (role) => {
        expect(await cli('orgs', 'invite', STUDIO, '--email', 'mentor@uni.example', '--role', role)).toEqual({
          exitCode: 2,
          stdout: '',
          stderr: `planwright: --role: "${role}" is not a role: choose member or admin\nRun \`planwright orgs invite --help\` for usage.\n`,
        });
        expect(server.seen).toEqual([]);
      },
    );

    it('needs --email, and one that looks like an address (exit 2, nothing sent)', async () => {
      const missing = await cli('orgs', 'invite', STUDIO);
      expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
      expect(missing.stderr).toMatch(/^planwright: required option '--email <address>' not specified\n/);
      expect(await cli('orgs', 'invite', STUDIO, '--email', 'mentor')).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: --email: "mentor" is not an e-mail address\nRun `planwright orgs invite --help` for usage.\n',
      });
      expect(server.seen).toEqual([]);
    });

    it('reports someone already a member or already invited as the server words it (409, exit 1)', async () => {
      expect(await cli('orgs', 'invite', 'Studio', '--email', 'Bob@example.com')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: the server answered 409 Conflict: Bob@example.com already belongs to this organization.\n',
      });
      expect(await cli('orgs', 'invite', 'Studio', '--email', 'carol@example.com')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: the server answered 409 Conflict: carol@example.com already has a pending invitation to this organization. Resend it instead.\n',
      });
      const json = await cli('orgs', 'invite', 'Studio', '--email', 'carol@example.com', '--json');
      expect(json.stdout).toBe('');
      expect(JSON.parse(json.stderr)).toEqual({
        error: {
          code: 'api_error',
          message:
            'the server answered 409 Conflict: carol@example.com already has a pending invitation to this organization. Resend it instead.',
          exitCode: 1,
        },
      });
    });

    it('reports the caller’s own address, and too many invitations with the SDK’s suggestion, as the server words them (exit 1)', async () => {
      expect(await cli('orgs', 'invite', 'Studio', '--email', 'ada@example.com')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: the server answered 400 Bad Request: Invalid input: email (email: You already belong to this organization: invite someone else.)\n',
      });
      server.rateLimited = true;
      expect(await cli('orgs', 'invite', 'Studio', '--email', 'mentor@uni.example')).toEqual({
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: the server answered 429 Too Many Requests: Too many invitations sent. Please wait a while and try again.\n' +
          'Too many requests: wait a moment, then try again.\n',
      });
    });

    it('says "Organisation not found." where the caller is no admin, or for an id of none of theirs (exit 1)', async () => {
      const notFound = {
        exitCode: 1,
        stdout: '',
        stderr:
          'planwright: Organisation not found.\nOnly its admins invite people: `planwright orgs list` shows your role in each.\n',
      };
      expect(await cli('orgs', 'invite', 'Kitchen', '--email', 'mentor@uni.example')).toEqual(notFound);
      // A uuid that is none of the listed ones is the server's to judge (it may be past the first page).
      const other = '0a900000-0000-4000-8000-0000000000FF';
      expect(await cli('orgs', 'invite', other, '--email', 'mentor@uni.example')).toEqual(notFound);
      expect(requests().at(-1)).toBe(`POST /api/v1/organizations/${other.toLowerCase()}/invitations/`);
    });

    it('asks nothing of the server when signed out, exit 3', async () => {
      await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
      expect(await cli('orgs', 'invite', STUDIO, '--email', 'mentor@uni.example')).toMatchObject({
        exitCode: 3,
        stdout: '',
      });
      expect(server.seen).toEqual([]);
    });
  });
});
