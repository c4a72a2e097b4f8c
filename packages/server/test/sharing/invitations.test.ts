import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITATION_LIFETIME_MS } from '../../src/sharing/invitation-email.js';
import { INVITATION_RATE_LIMITS } from '../../src/sharing/invitation-sender.js';
import { capturedMail, lastInvitationToken } from '../support/captured-mail.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, hostileStrings } from '../support/workspace-calls.js';

// Invitations and members of a plan (docs/teams.md): the lifecycle on an injected clock, every refusal with its
// clear answer, and nothing half-done.

let t: TestApp;
let clock = new Date('2026-11-29T10:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const { mailer, sent } = capturedMail();
let owner: SignedInUser;
let counter = 0;

const lastLinkTo = (to: string) => lastInvitationToken(sent, to);

async function person(name: string): Promise<SignedInUser> {
  return createSignedInUser(t, { email: `${name}-${++counter}@example.com`, firstName: name }, now);
}

async function invite(doc: { uuid: string }, email: string, role = 'commenter', as = owner) {
  return call(t, 'POST', `documents/${doc.uuid}/invitations/`, { as, body: { email, role } });
}

beforeAll(async () => {
  t = await createTestApp({}, { now, mailer });
  owner = await createSignedInUser(
    t,
    { email: 'owner@example.com', firstName: 'Olive', lastName: 'Owner' },
    now,
  );
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  // Each test starts a fresh rate-limit window.
  advance(INVITATION_RATE_LIMITS.perInviter.windowMs);
});

describe('invitations', () => {
  it('IN1 an invitation e-mails a link; its address accepts it once and becomes a member with the role; the owner sees who joined', async () => {
    const doc = await createDocument(t, owner, { title: 'Bakery plan' });
    const advisor = await person('advisor');
    const res = await invite(doc, advisor.user.email, 'commenter');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ email: advisor.user.email, role: 'commenter' });
    const mail = sent.at(-1);
    expect(mail?.subject).toBe('Olive Owner invited you to “Bakery plan” on Planwright');
    expect(mail?.text).toContain('as a commenter');

    // Before accepting, the plan is as absent to them as any other.
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: advisor })).statusCode).toBe(404);
    const pending = await call(t, 'GET', 'invitations/', { as: advisor });
    expect(pending.json().data).toEqual([
      expect.objectContaining({
        document: { uuid: doc.uuid, title: 'Bakery plan' },
        role: 'commenter',
        invited_by: 'Olive Owner',
      }),
    ]);

    const token = lastLinkTo(advisor.user.email);
    const accepted = await call(t, 'POST', 'invitations/accept/', { as: advisor, body: { token } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({
      document: { uuid: doc.uuid, title: 'Bakery plan' },
      organization: null,
      role: 'commenter',
    });
    // Again by the same person: the same answer (a double click), nothing doubled.
    expect((await call(t, 'POST', 'invitations/accept/', { as: advisor, body: { token } })).statusCode).toBe(
      200,
    );

    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: advisor });
    expect(read.statusCode).toBe(200);
    expect(read.json().role).toBe('commenter');
    const members = (await call(t, 'GET', `documents/${doc.uuid}/members/`, { as: owner })).json();
    expect(members.data.map((m: { role: string }) => m.role)).toEqual(['owner', 'commenter']);
    expect(members.invitations).toEqual([]);
    // A member who does not manage sharing sees usernames, not addresses, and no invitations.
    const seen = (await call(t, 'GET', `documents/${doc.uuid}/members/`, { as: advisor })).json();
    expect(seen.data[0].user).not.toHaveProperty('email');
    expect(seen).not.toHaveProperty('invitations');
    expect(seen.role).toBe('commenter');

    const feed = await call(t, 'GET', `activities/activities/?target=document&object_id=${doc.uuid}`, {
      as: owner,
    });
    expect(JSON.stringify(feed.json())).toContain('joined the document \\"Bakery plan\\" as commenter');
    // Someone else holding the used link gets a clear refusal.
    const other = await person('other');
    const reused = await call(t, 'POST', 'invitations/accept/', { as: other, body: { token } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('invitation_used');
  });

  it('IN2 a link accepted by an account with another address is refused, naming the address half-hidden; nothing changes', async () => {
    const doc = await createDocument(t, owner);
    await invite(doc, 'jane.doe@example.org', 'editor');
    const stranger = await person('stranger');
    const res = await call(t, 'POST', 'invitations/accept/', {
      as: stranger,
      body: { token: lastLinkTo('jane.doe@example.org') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'invitation_other_address',
      detail: 'This invitation was sent to j…@example.org. Sign in with that address to accept it.',
    });
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: stranger })).statusCode).toBe(404);
    // By id, someone else's invitation does not exist.
    const [invitation] = (await call(t, 'GET', `documents/${doc.uuid}/members/`, { as: owner })).json()
      .invitations;
    expect((await call(t, 'POST', `invitations/${invitation.id}/accept/`, { as: stranger })).statusCode).toBe(
      404,
    );
  });

  it('IN3 a link expires after 14 days; a resend renews it and retires the old link; a revoked one stops working', async () => {
    const doc = await createDocument(t, owner);
    const late = await person('late');
    await invite(doc, late.user.email, 'viewer');
    const first = lastLinkTo(late.user.email);
    advance(INVITATION_LIFETIME_MS);
    const expired = await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: first } });
    expect(expired.json()).toMatchObject({
      code: 'invitation_expired',
      detail: 'This invitation has expired. Ask for a new one.',
    });
    // An expired invitation is no longer pending: the address can be invited again.
    expect((await call(t, 'GET', 'invitations/', { as: late })).json().data).toEqual([]);
    const again = await invite(doc, late.user.email, 'viewer');
    expect(again.statusCode).toBe(201);

    const second = lastLinkTo(late.user.email);
    const resent = await call(t, 'POST', `documents/${doc.uuid}/invitations/${again.json().id}/resend/`, {
      as: owner,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const third = lastLinkTo(late.user.email);
    expect(third).not.toBe(second);
    expect(
      (await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: second } })).json().code,
    ).toBe('invitation_invalid');

    const revoked = await call(t, 'DELETE', `documents/${doc.uuid}/invitations/${again.json().id}/`, {
      as: owner,
    });
    expect(revoked.statusCode).toBe(204);
    const refused = await call(t, 'POST', 'invitations/accept/', { as: late, body: { token: third } });
    expect(refused.json().code).toBe('invitation_invalid');
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: late })).statusCode).toBe(404);
    // Revoking twice, or resending a revoked one: not found, said plainly.
    const twice = await call(t, 'DELETE', `documents/${doc.uuid}/invitations/${again.json().id}/`, {
      as: owner,
    });
    expect(twice.json()).toMatchObject({
      code: 'not_found',
      detail: 'Invitation not found: it was accepted, revoked or has expired.',
    });
  });

  it('IN4 bad invitations get clear answers and send nothing: yourself, twice, a member, an unknown role, a bad address, hostile text', async () => {
    const doc = await createDocument(t, owner);
    const member = await person('member');
    await invite(doc, member.user.email, 'viewer');
    await call(t, 'POST', 'invitations/accept/', {
      as: member,
      body: { token: lastLinkTo(member.user.email) },
    });
    const before = sent.length;

    const self = await invite(doc, 'OWNER@example.com');
    expect(self.statusCode).toBe(400);
    expect(self.json().errors).toEqual([
      {
        param: 'email',
        code: 'invite_self',
        message: 'You already have this document: invite someone else.',
      },
    ]);
    const existing = await invite(doc, member.user.email.toUpperCase(), 'editor');
    expect(existing.statusCode).toBe(409);
    expect(existing.json()).toMatchObject({ code: 'already_member' });
    expect(existing.json().detail).toContain('(viewer). Change their role instead.');

    expect((await invite(doc, 'twice@example.com')).statusCode).toBe(201);
    const twice = await invite(doc, 'Twice@Example.com');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('already_invited');
    const afterValid = sent.length;

    const role = await invite(doc, 'someone@example.com', 'admin');
    expect(role.statusCode).toBe(400);
    expect(role.json().errors[0]).toMatchObject({
      param: 'role',
      message: 'Choose one of the roles: editor, commenter, viewer.',
    });
    const owned = await invite(doc, 'someone@example.com', 'owner');
    expect(owned.statusCode).toBe(400);
    for (const email of ['not an address', '', 'x'.repeat(100_000), ...hostileStrings.slice(0, 20)]) {
      const res = await invite(doc, email);
      expect(res.statusCode, `${JSON.stringify(email).slice(0, 40)} → ${res.body}`).toBe(400);
      expect(res.json().errors[0].param).toBe('email');
    }
    for (const body of [null, [], { email: 'a@example.com' }, { role: 'viewer' }]) {
      const res = await call(t, 'POST', `documents/${doc.uuid}/invitations/`, { as: owner, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(sent.length).toBe(afterValid);
    expect(afterValid).toBe(before + 1);
    const tokens = [
      { token: '' },
      { token: 'x'.repeat(100_000) },
      { token: 'not-a-link' },
      { token: 42 },
      {},
    ];
    for (const body of tokens) {
      const res = await call(t, 'POST', 'invitations/accept/', { as: member, body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', '%00']) {
      expect(
        (await call(t, 'POST', `invitations/${encodeURIComponent(id)}/accept/`, { as: member })).statusCode,
      ).toBe(404);
      expect(
        (await call(t, 'DELETE', `documents/${doc.uuid}/members/${encodeURIComponent(id)}/`, { as: owner }))
          .statusCode,
      ).toBe(404);
    }
  });

  it('IN5 invitations are rate limited per address and per inviter like account e-mails (429 with Retry-After)', async () => {
    const docs = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createDocument(t, owner)));
    const target = 'flooded@example.com';
    const answers = [];
    for (const doc of docs) answers.push((await invite(doc, target)).statusCode);
    expect(answers).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = await invite(docs[5] ?? docs[0], target);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toEqual({
      code: 'rate_limited',
      detail: 'Too many invitations sent. Please wait a while and try again.',
    });
    // Nothing half-done: the refused one left no pending invitation.
    const members = (await call(t, 'GET', `documents/${docs[5]?.uuid}/members/`, { as: owner })).json();
    expect(members.invitations).toEqual([]);
  });
});

describe('members and roles', () => {
  it('MR1 the owner changes roles and removes members; editors share only when allowed; a member leaves; the owner stays', async () => {
    const doc = await createDocument(t, owner, { title: 'Roles' });
    const [editor, viewer] = [await person('editor'), await person('viewer')];
    for (const [who, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      await invite(doc, who.user.email, role);
      await call(t, 'POST', 'invitations/accept/', { as: who, body: { token: lastLinkTo(who.user.email) } });
    }
    const rename = (as: SignedInUser) =>
      call(t, 'PATCH', `documents/${doc.uuid}/`, { as, body: { title: 'Renamed' } });
    expect((await rename(editor)).statusCode).toBe(200);
    const refused = await rename(viewer);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({
      code: 'not_permitted',
      detail: 'Your role on this document does not let you change it.',
    });
    expect((await call(t, 'GET', `documents/${doc.uuid}/export?format=md`, { as: viewer })).statusCode).toBe(
      200,
    );
    const deleted = await call(t, 'DELETE', `documents/${doc.uuid}/`, { as: editor });
    expect(deleted.json()).toEqual({
      code: 'not_permitted',
      detail: 'Only the owner of this document can do this.',
    });

    // Editors invite only once the owner allows it.
    expect((await invite(doc, 'friend@example.com', 'viewer', editor)).json().code).toBe('not_permitted');
    await call(t, 'PATCH', `documents/${doc.uuid}/members/`, {
      as: owner,
      body: { editors_can_share: true },
    });
    expect((await invite(doc, 'friend@example.com', 'viewer', editor)).statusCode).toBe(201);
    expect((await invite(doc, 'friend2@example.com', 'viewer', viewer)).json().code).toBe('not_permitted');
    const setting = await call(t, 'PATCH', `documents/${doc.uuid}/members/`, {
      as: editor,
      body: { editors_can_share: false },
    });
    expect(setting.json().code).toBe('not_permitted');

    const promoted = await call(t, 'PATCH', `documents/${doc.uuid}/members/${viewer.user.id}/`, {
      as: owner,
      body: { role: 'editor' },
    });
    expect(promoted.json()).toMatchObject({ role: 'editor', user: { id: viewer.user.id } });
    expect((await rename(viewer)).statusCode).toBe(200);
    const badRole = await call(t, 'PATCH', `documents/${doc.uuid}/members/${viewer.user.id}/`, {
      as: owner,
      body: { role: 'owner' },
    });
    expect(badRole.statusCode).toBe(400);
    const ownerRole = await call(t, 'PATCH', `documents/${doc.uuid}/members/${owner.user.id}/`, {
      as: owner,
      body: { role: 'viewer' },
    });
    expect(ownerRole.json()).toEqual({
      code: 'owner_role',
      detail: 'The owner of a document keeps their role.',
    });
    const ownerLeaves = await call(t, 'DELETE', `documents/${doc.uuid}/members/me/`, { as: owner });
    expect(ownerLeaves.statusCode).toBe(409);
    expect(ownerLeaves.json().code).toBe('owner_cannot_leave');

    // A member cannot remove another; they can leave.
    const removeOther = await call(t, 'DELETE', `documents/${doc.uuid}/members/${viewer.user.id}/`, {
      as: editor,
    });
    expect(removeOther.json().code).toBe('not_permitted');
    expect((await call(t, 'DELETE', `documents/${doc.uuid}/members/me/`, { as: editor })).statusCode).toBe(
      204,
    );
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: editor })).statusCode).toBe(404);
    expect(
      (await call(t, 'DELETE', `documents/${doc.uuid}/members/${viewer.user.id}/`, { as: owner })).statusCode,
    ).toBe(204);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: viewer })).statusCode).toBe(404);
    const feed = JSON.stringify(
      (
        await call(t, 'GET', `activities/activities/?target=document&object_id=${doc.uuid}`, { as: owner })
      ).json(),
    );
    expect(feed).toContain('left the document');
    expect(feed).toContain('removed a member');
  });

  it('MR2 lists: scope=owned (the default) holds one’s own, shared the others’, all both, each with the caller’s role', async () => {
    const mine = await createDocument(t, owner, { title: 'Mine only' });
    const guest = await person('guest');
    await createDocument(t, guest, { title: 'Guest’s own' });
    await invite(mine, guest.user.email, 'viewer');
    await call(t, 'POST', 'invitations/accept/', {
      as: guest,
      body: { token: lastLinkTo(guest.user.email) },
    });
    const titles = async (query: string) =>
      (await call(t, 'GET', `documents/${query}`, { as: guest }))
        .json()
        .data.map((d: { title: string; role: string }) => `${d.title}:${d.role}`);
    expect(await titles('')).toEqual(['Guest’s own:owner']);
    expect(await titles('?scope=shared')).toEqual(['Mine only:viewer']);
    expect((await titles('?scope=all&ordering=title')).sort()).toEqual([
      'Guest’s own:owner',
      'Mine only:viewer',
    ]);
    const bad = await call(t, 'GET', 'documents/?scope=everything', { as: guest });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ param: 'scope' });
  });

  it('MR3 a plan shared with an organisation gives its members the role; leaving the organisation takes it away', async () => {
    const doc = await createDocument(t, owner, { title: 'Studio plan' });
    const fellow = await person('fellow');
    const org = (await call(t, 'POST', 'organizations/', { as: owner, body: { name: 'Studio' } })).json();
    await call(t, 'POST', `organizations/${org.id}/members/`, {
      as: owner,
      body: { email: fellow.user.email },
    });
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: fellow })).statusCode).toBe(404);
    const granted = await call(t, 'PUT', `documents/${doc.uuid}/organizations/${org.id}/`, {
      as: owner,
      body: { role: 'commenter' },
    });
    expect(granted.json().data).toEqual([
      expect.objectContaining({ organization: { id: org.id, name: 'Studio' }, role: 'commenter' }),
    ]);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: fellow })).json().role).toBe('commenter');
    // Invited as well, with a stronger role: the stronger one counts.
    await invite(doc, fellow.user.email, 'editor');
    await call(t, 'POST', 'invitations/accept/', {
      as: fellow,
      body: { token: lastLinkTo(fellow.user.email) },
    });
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: fellow })).json().role).toBe('editor');
    await call(t, 'DELETE', `documents/${doc.uuid}/members/${fellow.user.id}/`, { as: owner });
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: fellow })).json().role).toBe('commenter');
    // Leaving through the plan is refused: the access comes from the organisation.
    const leave = await call(t, 'DELETE', `documents/${doc.uuid}/members/me/`, { as: fellow });
    expect(leave.json().detail).toBe(
      'You have this document through an organization: leave the organization instead.',
    );
    await call(t, 'DELETE', `organizations/${org.id}/members/${fellow.user.id}/`, { as: fellow });
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: fellow })).statusCode).toBe(404);

    // Only an organisation the owner belongs to; only the owner grants.
    const foreign = (
      await call(t, 'POST', 'organizations/', { as: fellow, body: { name: 'Elsewhere' } })
    ).json();
    const notMine = await call(t, 'PUT', `documents/${doc.uuid}/organizations/${foreign.id}/`, {
      as: owner,
      body: { role: 'viewer' },
    });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().detail).toBe('Organization not found.');
    const ungranted = await call(t, 'DELETE', `documents/${doc.uuid}/organizations/${foreign.id}/`, {
      as: owner,
    });
    expect(ungranted.json().detail).toBe('This document is not shared with that organization.');
  });

  it('MR4 a blueprint made private after a document was made from it is no longer named to that document’s readers', async () => {
    const author = await person('author');
    const made = (
      await call(t, 'POST', 'blueprints/', { as: author, body: { title: 'Secret sauce' } })
    ).json();
    await call(t, 'POST', `blueprints/${made.uuid}/publish/`, { as: author, body: { visibility: 'public' } });
    const reader = await person('reader');
    const doc = await createDocument(t, reader, { blueprint: made.uuid, title: 'From the sauce' });
    expect(doc.blueprint).toEqual({ uuid: made.uuid, title: 'Secret sauce' });
    await call(t, 'POST', `blueprints/${made.uuid}/publish/`, {
      as: author,
      body: { visibility: 'private' },
    });
    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: reader });
    expect(read.json().blueprint).toBeNull();
    const listed = (await call(t, 'GET', 'documents/', { as: reader })).json().data;
    expect(listed.find((d: { uuid: string }) => d.uuid === doc.uuid).blueprint).toBeNull();
    const renamed = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: reader,
      body: { title: 'Renamed' },
    });
    expect(renamed.json().blueprint).toBeNull();
    expect(JSON.stringify(renamed.json())).not.toContain('Secret sauce');
    // Its author still sees it named on a document of their own.
    const own = await createDocument(t, author, { blueprint: made.uuid });
    expect((await call(t, 'GET', `documents/${own.uuid}/`, { as: author })).json().blueprint.title).toBe(
      'Secret sauce',
    );
  });

  it('MR5 team/ lists the people one shares plans with, most shared first, never oneself', async () => {
    const lead = await person('lead');
    const [first, second] = [await createDocument(t, lead), await createDocument(t, lead)];
    const often = await person('often');
    const once = await person('once');
    for (const [doc, who] of [
      [first, often],
      [second, often],
      [second, once],
    ] as const) {
      await invite(doc, who.user.email, 'viewer', lead);
      await call(t, 'POST', 'invitations/accept/', { as: who, body: { token: lastLinkTo(who.user.email) } });
    }
    const team = (await call(t, 'GET', 'team/', { as: lead })).json();
    expect(team.total).toBe(2);
    expect(
      team.data.map((m: { user: { username: string }; plans: number }) => [m.user.username, m.plans]),
    ).toEqual([
      [often.user.email.split('@')[0], 2],
      [once.user.email.split('@')[0], 1],
    ]);
    expect(JSON.stringify(team)).not.toContain('@example.com');
    // A member's team: the owner and the other members of the plans they have.
    const seen = (await call(t, 'GET', 'team/', { as: once })).json();
    expect(seen.data.map((m: { user: { id: string } }) => m.user.id).sort()).toEqual(
      [lead.user.id, often.user.id].sort(),
    );
    expect((await call(t, 'GET', 'team/', { as: await person('alone') })).json()).toEqual({
      data: [],
      total: 0,
    });
  });
});
