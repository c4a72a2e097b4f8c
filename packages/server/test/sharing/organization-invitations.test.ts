import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITATION_LIFETIME_MS } from '../../src/sharing/invitation-email.js';
import { INVITATION_RATE_LIMITS } from '../../src/sharing/invitation-sender.js';
import { capturedMail, lastInvitationToken } from '../support/captured-mail.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, hostileStrings } from '../support/workspace-calls.js';

// Inviting people to an organisation by e-mail (docs/teams.md "Organisations"): an address with no account
// signs up from the link and joins; the lifecycle is a plan invitation's, and every refusal is clear.

let t: TestApp;
let clock = new Date('2026-11-29T10:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const { mailer, sent } = capturedMail();
let admin: SignedInUser;
let counter = 0;

const lastLinkTo = (to: string) => lastInvitationToken(sent, to);

async function person(name: string, email = `${name}-${++counter}@example.com`): Promise<SignedInUser> {
  return createSignedInUser(t, { email, firstName: name }, now);
}

async function organization(name = 'Studio North') {
  const res = await call(t, 'POST', 'organizations/', { as: admin, body: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

function invite(org: { id: string }, body: Record<string, unknown>, as = admin) {
  return call(t, 'POST', `organizations/${org.id}/invitations/`, { as, body });
}

beforeAll(async () => {
  t = await createTestApp({}, { now, mailer });
  admin = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada', lastName: 'Admin' }, now);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  advance(INVITATION_RATE_LIMITS.perInviter.windowMs);
});

describe('organisation invitations', () => {
  it('OI1 an address with no account gets a link, signs up, accepts and is a member with the role; plans shared with the organisation open to them', async () => {
    const org = await organization();
    const plan = await createDocument(t, admin, { title: 'Cohort plan' });
    const granted = await call(t, 'PUT', `documents/${plan.uuid}/organizations/${org.id}/`, {
      as: admin,
      body: { role: 'commenter' },
    });
    expect(granted.statusCode, granted.body).toBe(200);

    const res = await invite(org, { email: 'mentor@uni.example', role: 'admin' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ email: 'mentor@uni.example', role: 'admin' });
    const mail = sent.at(-1);
    expect(mail?.subject).toBe('Ada Admin invited you to “Studio North” on Planwright');
    expect(mail?.text).toContain('the organisation “Studio North” as an admin');
    // Admins see it pending on the organisation.
    const detail = (await call(t, 'GET', `organizations/${org.id}/`, { as: admin })).json();
    expect(detail.invitations).toEqual([
      expect.objectContaining({ email: 'mentor@uni.example', role: 'admin' }),
    ]);

    // The mentor signs up with the invited address, then opens the link.
    const mentor = await person('mentor', 'mentor@uni.example');
    const pending = (await call(t, 'GET', 'invitations/', { as: mentor })).json().data;
    expect(pending).toEqual([
      expect.objectContaining({
        document: null,
        organization: { id: org.id, name: 'Studio North' },
        role: 'admin',
        invited_by: 'Ada Admin',
      }),
    ]);
    const token = lastLinkTo('mentor@uni.example');
    const accepted = await call(t, 'POST', 'invitations/accept/', { as: mentor, body: { token } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({
      document: null,
      organization: { id: org.id, name: 'Studio North' },
      role: 'admin',
    });

    const mine = (await call(t, 'GET', `organizations/${org.id}/`, { as: mentor })).json();
    expect(mine.role).toBe('admin');
    expect(mine.members.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'admin']);
    expect(mine.invitations).toEqual([]);
    const read = await call(t, 'GET', `documents/${plan.uuid}/`, { as: mentor });
    expect(read.statusCode).toBe(200);
    expect(read.json().role).toBe('commenter');
    // The link is spent: anyone else holding it is told so.
    const other = await person('other');
    expect((await call(t, 'POST', 'invitations/accept/', { as: other, body: { token } })).json().code).toBe(
      'invitation_used',
    );
  });

  it('OI2 members (not admins) see no invitations and cannot invite; strangers are told the organisation is not found', async () => {
    const org = await organization('Quiet Co');
    const member = await person('member');
    await call(t, 'POST', `organizations/${org.id}/members/`, {
      as: admin,
      body: { email: member.user.email },
    });
    await invite(org, { email: 'someone@example.net' });
    const seen = (await call(t, 'GET', `organizations/${org.id}/`, { as: member })).json();
    expect(seen).not.toHaveProperty('invitations');
    const before = sent.length;
    const byMember = await invite(org, { email: 'friend@example.net' }, member);
    expect(byMember.statusCode).toBe(404);
    const stranger = await person('stranger');
    expect((await invite(org, { email: 'friend@example.net' }, stranger)).statusCode).toBe(404);
    expect(sent.length).toBe(before);
  });

  it('OI3 bad invitations get clear answers and send nothing: yourself, a member, twice, an unknown role, a bad address, hostile text', async () => {
    const org = await organization('Strict Ltd');
    const member = await person('member');
    await call(t, 'POST', `organizations/${org.id}/members/`, {
      as: admin,
      body: { email: member.user.email },
    });
    expect((await invite(org, { email: 'twice@example.net' })).statusCode).toBe(201);
    const before = sent.length;

    const self = await invite(org, { email: 'ADA@example.com' });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors).toEqual([
      {
        param: 'email',
        code: 'invite_self',
        message: 'You already belong to this organization: invite someone else.',
      },
    ]);
    const existing = await invite(org, { email: member.user.email.toUpperCase() });
    expect(existing.statusCode).toBe(409);
    expect(existing.json().code).toBe('already_member');
    const twice = await invite(org, { email: 'Twice@example.net' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'already_invited' });
    const role = await invite(org, { email: 'new@example.net', role: 'owner' });
    expect(role.statusCode).toBe(400);
    expect(JSON.stringify(role.json())).toContain('role must be admin or member');
    const address = await invite(org, { email: 'not an address' });
    expect(address.statusCode).toBe(400);
    expect(JSON.stringify(address.json())).toContain('Enter a valid email address.');
    const huge = await invite(org, { email: `${'a'.repeat(100_000)}@example.net` });
    expect(huge.statusCode).toBe(400);
    for (const text of hostileStrings.slice(0, 40)) {
      const res = await invite(org, { email: text, role: text });
      expect(res.statusCode, text).toBe(400);
    }
    expect(sent.length).toBe(before);
  });

  it('OI4 a resend retires the old link; revoking, expiry and deleting the organisation each stop a link, said plainly', async () => {
    const org = await organization('Short Lived');
    const res = await invite(org, { email: 'late@example.net' });
    const first = lastLinkTo('late@example.net');
    const resent = await call(t, 'POST', `organizations/${org.id}/invitations/${res.json().id}/resend/`, {
      as: admin,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const second = lastLinkTo('late@example.net');
    expect(second).not.toBe(first);
    const late = await person('late', 'late@example.net');
    expect(
      (await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: first } })).json().code,
    ).toBe('invitation_invalid');
    advance(INVITATION_LIFETIME_MS);
    expect(
      (await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: second } })).json().code,
    ).toBe('invitation_expired');

    const again = await invite(org, { email: 'late@example.net' });
    expect(again.statusCode, again.body).toBe(201);
    const revoked = await call(t, 'DELETE', `organizations/${org.id}/invitations/${again.json().id}/`, {
      as: admin,
    });
    expect(revoked.statusCode).toBe(204);
    const third = lastLinkTo('late@example.net');
    expect(
      (await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: third } })).json().code,
    ).toBe('invitation_invalid');
    const twice = await call(t, 'DELETE', `organizations/${org.id}/invitations/${again.json().id}/`, {
      as: admin,
    });
    expect(twice.statusCode).toBe(404);

    await invite(org, { email: 'late@example.net' });
    const fourth = lastLinkTo('late@example.net');
    expect((await call(t, 'DELETE', `organizations/${org.id}/`, { as: admin })).statusCode).toBe(204);
    const gone = await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: fourth } });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().code).toBe('invitation_invalid');
    expect((await call(t, 'GET', 'organizations/', { as: late })).json().results ?? []).toEqual([]);
  });

  it('OI5 someone who joined meanwhile keeps the stronger role: an admin invitation makes a member an admin, a member invitation never demotes', async () => {
    const org = await organization('Roles Inc');
    const person1 = await person('p1');
    await invite(org, { email: person1.user.email, role: 'admin' });
    await call(t, 'POST', `organizations/${org.id}/members/`, {
      as: admin,
      body: { email: person1.user.email },
    });
    const token = lastLinkTo(person1.user.email);
    // Already a member now, so a new invitation is refused, but the pending one still applies.
    expect((await call(t, 'POST', 'invitations/accept/', { as: person1, body: { token } })).statusCode).toBe(
      200,
    );
    expect((await call(t, 'GET', `organizations/${org.id}/`, { as: person1 })).json().role).toBe('admin');

    const person2 = await person('p2');
    await invite(org, { email: person2.user.email, role: 'member' });
    await call(t, 'POST', `organizations/${org.id}/members/`, {
      as: admin,
      body: { email: person2.user.email, role: 'admin' },
    });
    const token2 = lastLinkTo(person2.user.email);
    expect(
      (await call(t, 'POST', 'invitations/accept/', { as: person2, body: { token: token2 } })).statusCode,
    ).toBe(200);
    expect((await call(t, 'GET', `organizations/${org.id}/`, { as: person2 })).json().role).toBe('admin');
  });
});
