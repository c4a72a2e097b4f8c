import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHARED_PLAN_ROLES } from '@planwright/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARE_ROLES } from '../src/commands/share.js';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeTeamsServer, startFakeTeamsServer } from './support/teams-server.js';

const PLAN = 'd0c00000-0000-4000-8000-000000000001';
const VIEWED = 'd0c00000-0000-4000-8000-000000000002';

describe('planwright share', () => {
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
          members: [{ id: 'u-ada', email: 'ada@example.com', role: 'owner', you: true }],
          invitations: [{ id: 'i-carol', email: 'carol@example.com', role: 'viewer' }],
        },
        {
          uuid: VIEWED,
          title: 'Bob’s plan',
          role: 'viewer',
          members: [
            { id: 'u-bob', email: 'bob@example.com', role: 'owner' },
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

  it('offers exactly the roles a plan can be shared with (the SDK’s, least to most)', () => {
    expect([...SHARE_ROLES].sort()).toEqual([...SHARED_PLAN_ROLES].sort());
  });

  it('POSTs the trimmed address and the role, and says who was invited as what and how they accept', async () => {
    const result = await cli('share', PLAN, '--email', ' advisor@example.com ', '--role', 'commenter');
    const sent = server.plans.get(PLAN)?.invitations?.at(-1);
    expect(result).toEqual({
      exitCode: 0,
      stderr: '',
      stdout:
        'Invited advisor@example.com as commenter: an e-mail with a link was sent (valid until 2026-12-06 10:00 UTC); ' +
        `they accept from the link, or with \`planwright invitations accept ${sent?.id}\` if they have an account.\n`,
    });
    expect(server.seen).toEqual([
      {
        method: 'POST',
        url: `/api/v1/documents/${PLAN}/invitations/`,
        token,
        ifMatch: undefined,
        body: { email: 'advisor@example.com', role: 'commenter' },
      },
    ]);
  });

  it('prints the SDK’s SentInvitation with --json', async () => {
    const result = await cli('share', PLAN, '--email', 'advisor@example.com', '--role', 'editor', '--json');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      id: expect.any(String),
      email: 'advisor@example.com',
      role: 'editor',
      created_at: '2026-11-22T10:00:00.000Z',
      sent_at: '2026-11-22T10:00:00.000Z',
      expires_at: '2026-12-06T10:00:00.000Z',
    });
  });

  it.each(['owner', 'admin', 'Viewer', ''])(
    'refuses the role %j with exit 2, listing the roles, before calling the server',
    async (role) => {
      expect(await cli('share', PLAN, '--email', 'advisor@example.com', '--role', role)).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `planwright: --role: "${role}" is not a role: choose viewer, commenter or editor\nRun \`planwright share --help\` for usage.\n`,
      });
      expect(server.seen).toEqual([]);
    },
  );

  it('needs --email and --role, a real-looking address and a document uuid (exit 2, nothing sent)', async () => {
    const noRole = await cli('share', PLAN, '--email', 'advisor@example.com');
    expect(noRole).toMatchObject({ exitCode: 2, stdout: '' });
    expect(noRole.stderr).toMatch(/^planwright: required option '--role <role>' not specified\n/);
    const noEmail = await cli('share', PLAN, '--role', 'viewer');
    expect(noEmail.stderr).toMatch(/^planwright: required option '--email <address>' not specified\n/);
    expect(await cli('share', PLAN, '--email', 'advisor', '--role', 'viewer')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'planwright: --email: "advisor" is not an e-mail address\nRun `planwright share --help` for usage.\n',
    });
    const badUuid = await cli('share', 'acme', '--email', 'advisor@example.com', '--role', 'viewer');
    expect(badUuid).toMatchObject({ exitCode: 2, stdout: '' });
    expect(badUuid.stderr).toMatch(/^planwright: <uuid>: "acme" is not a document uuid/);
    expect(server.seen).toEqual([]);
  });

  it('reports an address already invited or already on the plan as the server words it (409, exit 1)', async () => {
    expect(await cli('share', PLAN, '--email', 'carol@example.com', '--role', 'viewer')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'planwright: the server answered 409 Conflict: carol@example.com already has a pending invitation to this document. Resend it instead.\n',
    });
    expect(await cli('share', PLAN, '--email', 'ada@example.com', '--role', 'viewer')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'planwright: the server answered 409 Conflict: ada@example.com is already on this document (owner). Change their role instead.\n',
    });
    const json = await cli('share', PLAN, '--email', 'carol@example.com', '--role', 'viewer', '--json');
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        code: 'api_error',
        message:
          'the server answered 409 Conflict: carol@example.com already has a pending invitation to this document. Resend it instead.',
        exitCode: 1,
      },
    });
  });

  it('prints the role refusal of someone who may not invite as the server’s reason, not "not found" (exit 1)', async () => {
    expect(await cli('share', VIEWED, '--email', 'friend@example.com', '--role', 'viewer')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Only the owner can invite people to this document.\n',
    });
  });

  it('says "Document not found." for a plan the caller does not see (exit 1)', async () => {
    expect(
      await cli(
        'share',
        'd0c00000-0000-4000-8000-0000000000ff',
        '--email',
        'x@example.com',
        '--role',
        'viewer',
      ),
    ).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    });
  });

  it('reports too many invitations (429) with the server’s words and the SDK’s suggestion, exit 1', async () => {
    server.rateLimited = true;
    expect(await cli('share', PLAN, '--email', 'dan@example.com', '--role', 'viewer')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'planwright: the server answered 429 Too Many Requests: Too many invitations sent. Please wait a while and try again.\n' +
        'Too many requests: wait a moment, then try again.\n',
    });
  });

  it('asks nothing of the server when signed out, exit 3', async () => {
    await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
    const result = await cli('share', PLAN, '--email', 'dan@example.com', '--role', 'viewer');
    expect(result).toMatchObject({ exitCode: 3, stdout: '' });
    expect(server.seen).toEqual([]);
  });
});
