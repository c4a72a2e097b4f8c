import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  Organization,
  OrganizationRole,
  PlanSharing,
  ReceivedInvitation,
  SentInvitation,
} from '@planwright/sdk';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAccounts } from '../support/cli-accounts.js';
import { ensureCliBuilt } from '../support/cli-binary.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright share`, `members`, `invitations` and `orgs` as a script runs them: the built bin as a child
 * process with pipes, signed in with `planwright login`, against the real server (docs/teams.md). Accounts are
 * made through the SDK; the invitation links are read from the server's outbox.
 */

let server: TestServer;
let scratch: string;

const { planwright, createAccount } = cliAccounts(() => ({ server, scratch }), 'teams.example');

/** The id `planwright share` printed: `… \`planwright invitations accept <id>\` …`. */
function invitationIdIn(stdout: string): string {
  const id = /`planwright invitations accept ([0-9a-f-]{36})`/.exec(stdout)?.[1];
  if (!id) throw new Error(`no invitation id in ${JSON.stringify(stdout)}`);
  return id;
}

beforeAll(async () => {
  ensureCliBuilt();
  server = await startTestServer();
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-teams-'));
});

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright share, invitations and members against the real server', () => {
  it('an owner shares a plan; the advisor lists and accepts the invitation; members shows both', async () => {
    const [owner, advisor] = await Promise.all([createAccount('owner'), createAccount('advisor')]);
    const created = await planwright(owner, ['documents', 'create', '--title', 'Cafe plan', '--json']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const { uuid } = JSON.parse(created.stdout) as { uuid: string };

    const shared = await planwright(owner, ['share', uuid, '--email', advisor.email, '--role', 'commenter']);
    expect(shared).toMatchObject({ code: 0, stderr: '' });
    const id = invitationIdIn(shared.stdout);
    expect(shared.stdout).toMatch(
      new RegExp(
        `^Invited ${advisor.email} as commenter: an e-mail with a link was sent \\(valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\); they accept from the link, or with \`planwright invitations accept ${id}\` if they have an account\\.\\n$`,
      ),
    );

    const listed = await planwright(advisor, ['invitations', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout) as ReceivedInvitation[]).toEqual([
      {
        id,
        document: { uuid, title: 'Cafe plan' },
        organization: null,
        role: 'commenter',
        invited_by: 'owner',
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    ]);
    const table = await planwright(advisor, ['invitations', 'list']);
    expect(table.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^ID {36}TO +ROLE +INVITED BY +EXPIRES$/),
      expect.stringMatching(
        new RegExp(`^${id} {2}Cafe plan +commenter +owner +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`),
      ),
    ]);

    expect(await planwright(advisor, ['invitations', 'accept', id])).toEqual({
      code: 0,
      stderr: '',
      stdout: `You are now a commenter on “Cafe plan” (${uuid}).\n`,
    });
    expect((await advisor.client.documents.get(uuid)).role).toBe('commenter');
    expect(JSON.parse((await planwright(advisor, ['invitations', 'list', '--json'])).stdout)).toEqual([]);

    const members = await planwright(owner, ['members', uuid, '--json']);
    expect(members).toMatchObject({ code: 0, stderr: '' });
    const sharing = JSON.parse(members.stdout) as PlanSharing;
    expect(sharing.members.map((member) => [member.user.email, member.role, member.is_you])).toEqual([
      [owner.email, 'owner', true],
      [advisor.email, 'commenter', false],
    ]);
    expect(sharing).toMatchObject({ organizations: [], invitations: [], role: 'owner' });
    const people = await planwright(owner, ['members', uuid]);
    expect(people.stdout).toMatch(
      new RegExp(
        `^Members:\\n {2}NAME +E-MAIL +ROLE +JOINED\\n {2}owner \\(you\\) +${owner.email} +owner +\\S+ \\S+ UTC\\n {2}advisor +${advisor.email} +commenter +\\S+ \\S+ UTC\\n\\nPending invitations:\\n {2}none\\n$`,
      ),
    );
    // The advisor sees the members too, by username, and no invitations.
    const seenByAdvisor = JSON.parse(
      (await planwright(advisor, ['members', uuid, '--json'])).stdout,
    ) as PlanSharing;
    expect(seenByAdvisor).toMatchObject({ invitations: null, role: 'commenter' });
    expect(seenByAdvisor.members.map((member) => [member.user.username, member.user.email])).toEqual([
      ['owner', null],
      ['advisor', null],
    ]);
  });

  it('refuses to invite twice, someone already on the plan, a role that does not exist, and a viewer inviting', async () => {
    const owner = await createAccount('second-owner');
    const { uuid } = await owner.client.documents.create({ title: 'Pub plan' });

    const viewerEmail = 'investor@teams.example';
    const first = await planwright(owner, [
      'share',
      uuid,
      '--email',
      viewerEmail,
      '--role',
      'viewer',
      '--json',
    ]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout) as SentInvitation).toMatchObject({ email: viewerEmail, role: 'viewer' });
    expect(await planwright(owner, ['share', uuid, '--email', viewerEmail, '--role', 'viewer'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: the server answered 409 Conflict: ${viewerEmail} already has a pending invitation to this document. Resend it instead.\n`,
    });
    const invalidRole = await planwright(owner, [
      'share',
      uuid,
      '--email',
      'x@teams.example',
      '--role',
      'owner',
    ]);
    expect(invalidRole).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'planwright: --role: "owner" is not a role: choose viewer, commenter or editor\nRun `planwright share --help` for usage.\n',
    });

    // The invitee signs up after being invited and accepts with the whole link of the e-mail.
    const viewer = await createAccount('investor');
    const token = await lastKeyFor(server.outboxDir, viewerEmail, '/invitations/');
    expect(
      await planwright(viewer, ['invitations', 'accept', `${server.url}/invitations/${token}`, '--json']),
    ).toEqual({
      code: 0,
      stderr: '',
      stdout: `${JSON.stringify({ document: { uuid, title: 'Pub plan' }, organization: null, role: 'viewer' }, null, 2)}\n`,
    });
    // Its token alone works too; accepting again as the same account answers the same, and changes nothing.
    expect(await planwright(viewer, ['invitations', 'accept', token])).toEqual({
      code: 0,
      stderr: '',
      stdout: `You are now a viewer on “Pub plan” (${uuid}).\n`,
    });

    expect(await planwright(owner, ['share', uuid, '--email', viewerEmail, '--role', 'editor'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: the server answered 409 Conflict: ${viewerEmail} is already on this document (viewer). Change their role instead.\n`,
    });
    expect(
      await planwright(viewer, ['share', uuid, '--email', 'friend@teams.example', '--role', 'viewer']),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'planwright: Only the owner can invite people to this document.\n',
    });
    const json = await planwright(viewer, [
      'share',
      uuid,
      '--email',
      'friend@teams.example',
      '--role',
      'viewer',
      '--json',
    ]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { message: 'Only the owner can invite people to this document.', exitCode: 1 },
    });
    // Every command says why a role refuses, not "not found".
    expect(await planwright(viewer, ['documents', 'rename', uuid, 'Mine now'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'planwright: Your role on this document does not let you change it.\n',
    });
    // A refusal is not a sign-out: the viewer is still signed in.
    expect((await planwright(viewer, ['whoami'])).code).toBe(0);
    // Nobody else was invited.
    const sharing = await owner.client.members.list(uuid);
    expect(sharing.invitations).toEqual([]);
    expect(sharing.members.map((member) => member.role)).toEqual(['owner', 'viewer']);
  });

  it('says "Document not found." and "Invitation not found." for what the caller cannot see (exit 1)', async () => {
    const [owner, stranger] = await Promise.all([createAccount('third-owner'), createAccount('stranger')]);
    const { uuid } = await owner.client.documents.create({ title: 'Secret plan' });
    const notFound = {
      code: 1,
      stdout: '',
      stderr: 'planwright: Document not found.\nRun `planwright documents list` to see your documents.\n',
    };
    expect(await planwright(stranger, ['members', uuid])).toEqual(notFound);
    expect(
      await planwright(stranger, ['share', uuid, '--email', 'a@teams.example', '--role', 'viewer']),
    ).toEqual(notFound);
    // Someone else's invitation is as absent as a missing one.
    const sent = await owner.client.members.invite(uuid, { email: 'someone@teams.example', role: 'viewer' });
    expect(await planwright(stranger, ['invitations', 'accept', sent.id])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: Invitation not found.\nRun `planwright invitations list` to see the invitations waiting for you.\n',
    });
    const token = await lastKeyFor(server.outboxDir, 'someone@teams.example', '/invitations/');
    const otherAddress = await planwright(stranger, [
      'invitations',
      'accept',
      `${server.url}/invitations/${token}`,
    ]);
    expect(otherAddress).toMatchObject({ code: 1, stdout: '' });
    expect(otherAddress.stderr).toMatch(
      /^planwright: the server answered 400 Bad Request: This invitation was sent to \S+\. Sign in with that address to accept it\.\n$/,
    );
  });
});

describe('planwright orgs against the real server', () => {
  it('creates an organisation and lists it', async () => {
    const founder = await createAccount('founder');
    expect(await planwright(founder, ['orgs', 'list'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'You belong to no organisations yet.\nCreate one with `planwright orgs create <name>`.\n',
    });
    const created = await planwright(founder, ['orgs', 'create', 'Studio']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const id = /^Created the organisation "Studio" \((\S+)\); you are its admin\.\n$/.exec(
      created.stdout,
    )?.[1];
    expect(id).toBeDefined();

    const listed = await planwright(founder, ['orgs', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const page = JSON.parse(listed.stdout) as { items: Organization[]; total: number };
    expect(page).toEqual({
      items: [expect.objectContaining({ id, name: 'Studio', role: 'admin' })],
      total: 1,
    });
    expect((await planwright(founder, ['orgs', 'list'])).stdout).toMatch(
      new RegExp(`^ID +NAME +ROLE\\n${id} {2}Studio {2}admin\\n$`),
    );
    const json = JSON.parse(
      (await planwright(founder, ['orgs', 'create', ' Second studio ', '--json'])).stdout,
    );
    expect(json).toMatchObject({
      name: 'Second studio',
      role: 'admin',
      members: [expect.objectContaining({ role: 'admin' })],
    });
    const blank = await planwright(founder, ['orgs', 'create', '  ']);
    expect(blank).toMatchObject({ code: 2, stdout: '' });
    expect(blank.stderr).toMatch(/^planwright: <name>: Name is required\n/);
  });

  it('an admin invites an address with no account; it signs up, accepts the link and belongs to the organisation', async () => {
    const admin = await createAccount('org-admin');
    const studio = await admin.client.organizations.create({ name: 'Design Studio' });
    const email = 'mentor@teams.example';

    const invited = await planwright(admin, ['orgs', 'invite', 'design studio', '--email', email]);
    expect(invited).toMatchObject({ code: 0, stderr: '' });
    expect(invited.stdout).toMatch(
      new RegExp(
        `^Invited ${email} to “Design Studio” as a member\\. The invitation link expires on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.\\n$`,
      ),
    );
    expect(await planwright(admin, ['orgs', 'invite', studio.id, '--email', email])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: the server answered 409 Conflict: ${email} already has a pending invitation to this organization. Resend it instead.\n`,
    });
    const partner = await planwright(admin, [
      'orgs',
      'invite',
      studio.id,
      '--email',
      'partner@teams.example',
      '--role',
      'admin',
      '--json',
    ]);
    expect(partner).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(partner.stdout) as SentInvitation<OrganizationRole>).toEqual({
      id: expect.any(String),
      email: 'partner@teams.example',
      role: 'admin',
      created_at: expect.any(String),
      sent_at: expect.any(String),
      expires_at: expect.any(String),
    });

    // The address signs up, sees the invitation and accepts it with the e-mail's link.
    const mentor = await createAccount('mentor');
    const table = await planwright(mentor, ['invitations', 'list']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout.split('\n')[1]).toMatch(
      /^\S{36} {2}organisation “Design Studio” +member +org-admin +\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    const token = await lastKeyFor(server.outboxDir, email, '/invitations/');
    expect(await planwright(mentor, ['invitations', 'accept', `${server.url}/invitations/${token}`])).toEqual(
      {
        code: 0,
        stderr: '',
        stdout: `You are now a member of the organisation “Design Studio” (${studio.id}).\n`,
      },
    );
    expect((await planwright(mentor, ['orgs', 'list'])).stdout).toMatch(
      new RegExp(`^ID +NAME +ROLE\\n${studio.id} {2}Design Studio {2}member\\n$`),
    );

    // Now a member: inviting them again is refused, and a member who is not an admin may not invite.
    expect(await planwright(admin, ['orgs', 'invite', 'Design Studio', '--email', email])).toEqual({
      code: 1,
      stdout: '',
      stderr: `planwright: the server answered 409 Conflict: ${email} already belongs to this organization.\n`,
    });
    expect(
      await planwright(mentor, ['orgs', 'invite', 'Design Studio', '--email', 'x@teams.example']),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'planwright: Organisation not found.\nOnly its admins invite people: `planwright orgs list` shows your role in each.\n',
    });
    expect((await admin.client.organizations.get(studio.id)).invitations?.map((sent) => sent.email)).toEqual([
      'partner@teams.example',
    ]);
  });
});
