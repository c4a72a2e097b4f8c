import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedMail } from '../support/captured-mail.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument } from '../support/workspace-calls.js';

// Activity for the team (docs/teams.md "Activity"): everyone on a plan follows who did what on it, in the
// plan's Recent Activity and on their dashboard; nobody else does, and a member who leaves stops seeing it.

let t: TestApp;
let clock = new Date('2026-11-29T10:00:00.000Z');
const now = () => {
  // Each call a second later, so the feed's newest-first order is the order things were done in.
  clock = new Date(clock.getTime() + 1_000);
  return clock;
};
const { mailer } = capturedMail();
let owner: SignedInUser;
let cofounder: SignedInUser;
let stranger: SignedInUser;

interface Entry {
  verb: string;
  actor_label: string;
  object_id: string;
}

async function feedOf(who: SignedInUser, query = 'level=1'): Promise<Entry[]> {
  const res = await call(t, 'GET', `activities/activities/?${query}&page_size=100`, { as: who });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  t = await createTestApp({}, { now, mailer });
  owner = await createSignedInUser(t, { email: 'olive@example.com', firstName: 'Olive' }, now);
  cofounder = await createSignedInUser(t, { email: 'carl@example.com', firstName: 'Carl' }, now);
  stranger = await createSignedInUser(t, { email: 'sam@example.com', firstName: 'Sam' }, now);
});
afterAll(async () => {
  await t?.close();
});

describe('team activity', () => {
  it('TA1 members follow who joined, commented and resolved on a shared plan; strangers and former members do not', async () => {
    const doc = await createDocument(t, owner, { title: 'Bakery plan' });
    const mine = await createDocument(t, cofounder, { title: 'Carl’s own plan' });
    const invited = await call(t, 'POST', `documents/${doc.uuid}/invitations/`, {
      as: owner,
      body: { email: cofounder.user.email, role: 'editor' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await call(t, 'POST', `invitations/${invited.json().id}/accept/`, { as: cofounder });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const thread = await call(t, 'POST', `documents/${doc.uuid}/comments/`, {
      as: cofounder,
      body: { subsection: doc.sections[0].subsections[0].uuid, body: 'Is the rent right?' },
    });
    expect(thread.statusCode, thread.body).toBe(201);
    const resolved = await call(t, 'PATCH', `documents/${doc.uuid}/comments/${thread.json().id}/`, {
      as: owner,
      body: { status: 'resolved' },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);

    const onPlan = (entries: Entry[]) =>
      entries.filter((entry) => entry.object_id === doc.uuid).map((e) => `${e.actor_label} ${e.verb}`);
    const expected = ['Olive resolved a comment', 'Carl commented', 'Carl joined', 'Olive created'];
    // The owner's dashboard and the co-founder's show the same plan history, whoever acted.
    expect(onPlan(await feedOf(owner))).toEqual(expected);
    expect(onPlan(await feedOf(cofounder))).toEqual(expected);
    // The plan's own Recent Activity (levels 1 to 2, scoped to it) too.
    expect(
      onPlan(await feedOf(cofounder, `level__gte=1&level__lte=2&target=document&object_id=${doc.uuid}`)),
    ).toEqual(expected);
    // The co-founder's own plan stays theirs alone.
    expect((await feedOf(cofounder)).some((entry) => entry.object_id === mine.uuid)).toBe(true);
    expect((await feedOf(owner)).some((entry) => entry.object_id === mine.uuid)).toBe(false);
    expect(onPlan(await feedOf(stranger))).toEqual([]);
    expect(onPlan(await feedOf(stranger, `target=document&object_id=${doc.uuid}`))).toEqual([]);

    const left = await call(t, 'DELETE', `documents/${doc.uuid}/members/me/`, { as: cofounder });
    expect(left.statusCode, left.body).toBe(204);
    expect(onPlan(await feedOf(cofounder))).toEqual([]);
    expect(onPlan(await feedOf(owner))[0]).toBe('Carl left');
  });

  it('TA2 a plan shared through an organisation shows its activity to the organisation’s members', async () => {
    const doc = await createDocument(t, owner, { title: 'Studio plan' });
    const org = await call(t, 'POST', 'organizations/', { as: owner, body: { name: 'Studio' } });
    expect(org.statusCode, org.body).toBe(201);
    const added = await call(t, 'POST', `organizations/${org.json().id}/members/`, {
      as: owner,
      body: { email: stranger.user.email },
    });
    expect(added.statusCode, added.body).toBe(201);
    const granted = await call(t, 'PUT', `documents/${doc.uuid}/organizations/${org.json().id}/`, {
      as: owner,
      body: { role: 'viewer' },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const entries = (await feedOf(stranger)).filter((entry) => entry.object_id === doc.uuid);
    expect(entries.map((entry) => entry.verb)).toEqual(['created']);
  });
});
