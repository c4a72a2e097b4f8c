import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call } from '../support/workspace-calls.js';

let t: TestApp;
const clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
let owner: SignedInUser;
let member: SignedInUser;
let other: SignedInUser;

const VISIBILITIES = ['public', 'restricted', 'private', 'unlisted'] as const;
type Visibility = (typeof VISIBILITIES)[number];
type Viewer = 'owner' | 'member' | 'other' | 'anonymous';
const VIEWERS: Viewer[] = ['owner', 'member', 'other', 'anonymous'];

/** docs/http-api.md's table for published blueprints: [may read, listed in available/]. */
const PUBLISHED: Record<Visibility, Record<Viewer, [boolean, boolean]>> = {
  public: { owner: [true, true], member: [true, true], other: [true, true], anonymous: [true, true] },
  restricted: { owner: [true, true], member: [true, true], other: [false, false], anonymous: [false, false] },
  private: { owner: [true, true], member: [false, false], other: [false, false], anonymous: [false, false] },
  unlisted: { owner: [true, true], member: [true, false], other: [true, false], anonymous: [true, false] },
};

const blueprints = new Map<string, { uuid: string; section: string; revision: number }>();
const key = (visibility: Visibility, status: 'published' | 'draft') => `${status}:${visibility}`;
const as = (viewer: Viewer) => ({ owner, member, other, anonymous: undefined })[viewer];

beforeAll(async () => {
  t = await createTestApp({}, { now });
  owner = await createSignedInUser(t, { email: 'owner@example.com' }, now);
  member = await createSignedInUser(t, { email: 'member@example.com' }, now);
  other = await createSignedInUser(t, { email: 'other@example.com' }, now);
  const org = await t.storage.organizations.create({
    name: 'Studio',
    createdBy: owner.user.id,
    createdAt: now(),
  });
  await t.storage.organizations.addMember({
    organizationId: org.id,
    userId: member.user.id,
    role: 'member',
    createdAt: now(),
  });
  // A second organisation the member is in but the blueprints are not shared with.
  await t.storage.organizations.create({ name: 'Elsewhere', createdBy: member.user.id, createdAt: now() });
  for (const status of ['published', 'draft'] as const) {
    for (const visibility of VISIBILITIES) {
      const created = (
        await call(t, 'POST', 'blueprints/', { as: owner, body: { title: `${status} ${visibility}` } })
      ).json();
      const res = await call(t, 'PATCH', `blueprints/${created.uuid}/`, {
        as: owner,
        body: { status, visibility, allowed_orgs: visibility === 'restricted' ? [org.id] : [] },
      });
      expect(res.statusCode, res.body).toBe(200);
      blueprints.set(key(visibility, status), {
        uuid: created.uuid,
        section: created.sections[0].uuid,
        revision: res.json().revision,
      });
    }
  }
});
afterAll(async () => {
  await t?.close();
});

async function availableTo(viewer: Viewer): Promise<Set<string>> {
  const res = await call(t, 'GET', 'blueprints/available/?page_size=100', { as: as(viewer) });
  expect(res.statusCode).toBe(200);
  return new Set((res.json().data as Array<{ uuid: string }>).map((bp) => bp.uuid));
}

describe.each(VIEWERS)('as %s', (viewer) => {
  const cases = (['published', 'draft'] as const).flatMap((status) =>
    VISIBILITIES.map((visibility) => {
      const [read, listed] =
        status === 'published' ? PUBLISHED[visibility][viewer] : [viewer === 'owner', viewer === 'owner'];
      return { status, visibility, read, listed };
    }),
  );

  it.each(cases)(
    '$status $visibility: read=$read, listed=$listed',
    async ({ status, visibility, read, listed }) => {
      const bp = blueprints.get(key(visibility, status));
      if (!bp) throw new Error('missing fixture');
      const detail = await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: as(viewer) });
      expect(detail.statusCode).toBe(read ? 200 : 404);
      if (!read) expect(detail.json()).toEqual({ detail: 'Blueprint not found.', code: 'not_found' });
      const section = await call(t, 'GET', `blueprints/${bp.uuid}/sections/${bp.section}/`, {
        as: as(viewer),
      });
      expect(section.statusCode).toBe(read ? 200 : 404);
      expect((await availableTo(viewer)).has(bp.uuid)).toBe(listed);

      const user = as(viewer);
      if (user) {
        // Whoever may read a blueprint may make a document from it; the rest are told which field is wrong.
        const made = await call(t, 'POST', 'documents/', { as: user, body: { blueprint: bp.uuid } });
        expect(made.statusCode).toBe(read ? 201 : 400);
        if (!read) expect(made.json().errors[0].param).toBe('blueprint');
      }
      if (viewer !== 'owner') {
        // Only the owner changes a blueprint; everyone else gets 404, never 403.
        const writes = [
          await call(t, 'PATCH', `blueprints/${bp.uuid}/`, { as: user, body: { title: 'Taken over' } }),
          await call(t, 'PUT', `blueprints/${bp.uuid}/sections/${bp.section}/`, {
            as: user,
            body: { user_hint: 'x' },
          }),
          await call(t, 'DELETE', `blueprints/${bp.uuid}/`, { as: user }),
        ];
        expect(writes.map((res) => res.statusCode)).toEqual(user ? [404, 404, 404] : [401, 401, 401]);
      }
    },
  );
});

it('nothing another user did changed any blueprint', async () => {
  for (const bp of blueprints.values()) {
    const res = await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: owner });
    expect(res.json().revision).toBe(bp.revision);
  }
});
