import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BLUEPRINT } from '../../src/blueprints/default-blueprint.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, defaultBlueprintId, expectRowsMatchTree } from '../support/workspace-calls.js';

let t: TestApp;
let clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
const tick = () => {
  clock = new Date(clock.getTime() + 60_000);
};
let ada: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(
    t,
    { email: 'ada.l@example.com', firstName: 'Ada', lastName: 'Lovelace' },
    now,
  );
  bob = await createSignedInUser(t, { email: 'bob@example.com', firstName: 'Bob' }, now);
});
afterAll(async () => {
  await t?.close();
});

async function newBlueprint(user: SignedInUser = ada, body?: unknown) {
  const res = await call(t, 'POST', 'blueprints/', { as: user, ...(body !== undefined ? { body } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function patch(
  uuid: string,
  body: unknown,
  user: SignedInUser = ada,
  headers: Record<string, string> = {},
) {
  return call(t, 'PATCH', `blueprints/${uuid}/`, { as: user, body, headers });
}

async function verbsOf(uuid: string, user: SignedInUser = ada) {
  const res = await call(t, 'GET', `activities/activities/?object_id=${uuid}&page_size=100`, { as: user });
  return (res.json().data as Array<{ verb: string }>).map((a) => a.verb);
}

describe('the seeded default', () => {
  it('is the published public "Business Plan" by Planwright Studio, with no owner, readable anonymously', async () => {
    const uuid = await defaultBlueprintId(t);
    const res = await call(t, 'GET', `blueprints/${uuid}/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    const bp = res.json();
    expect(bp).toMatchObject({
      title: 'Business Plan',
      status: 'published',
      visibility: 'public',
      version: 1,
      user: null,
      owner: null,
      publisher: 'Planwright Studio',
      is_owner: false,
      is_default: true,
      system_prompt: DEFAULT_BLUEPRINT.systemPrompt,
      sections_count: DEFAULT_BLUEPRINT.sections.length,
    });
    expect(bp.published_at).not.toBeNull();
    expect(bp.sections[2].subsections.map((s: { title: string }) => s.title)).toEqual(
      DEFAULT_BLUEPRINT.sections[2]?.subsections.map((s) => s.title),
    );
    expect(bp.sections[2].subsections[0].finalized).toBeUndefined();
    expectRowsMatchTree(bp);
  });

  it('nobody may change or delete it (404)', async () => {
    const uuid = await defaultBlueprintId(t);
    expect((await patch(uuid, { title: 'Mine' })).statusCode).toBe(404);
    expect((await call(t, 'DELETE', `blueprints/${uuid}/`, { as: ada })).statusCode).toBe(404);
    const sid = (await call(t, 'GET', `blueprints/${uuid}/`)).json().sections[0].uuid;
    expect((await call(t, 'DELETE', `blueprints/${uuid}/sections/${sid}/`, { as: ada })).statusCode).toBe(
      404,
    );
    expect((await call(t, 'GET', `blueprints/${uuid}/`)).json().revision).toBe(1);
  });
});

describe('POST blueprints/', () => {
  it('makes a private draft "Untitled Blueprint", version 1, one section with one subsection', async () => {
    const res = await call(t, 'POST', 'blueprints/', { as: ada });
    expect(res.statusCode).toBe(201);
    expect(res.headers.etag).toBe('"1"');
    const bp = res.json();
    expect(bp).toMatchObject({
      title: 'Untitled Blueprint',
      description: '',
      status: 'draft',
      visibility: 'private',
      version: 1,
      allowed_orgs: [],
      published_at: null,
      system_prompt: '',
      revision: 1,
      sections_count: 1,
      user: { username: 'ada.l', first_name: 'Ada', last_name: 'Lovelace' },
      owner: { username: 'ada.l' },
      publisher: null,
      is_owner: true,
      is_default: false,
    });
    expect(bp.sections).toMatchObject([{ title: 'New Section', subsections: [{ title: 'New Subsection' }] }]);
    expectRowsMatchTree(bp);
    expect(JSON.stringify(bp)).not.toContain('ada.l@example.com');
    expect(await verbsOf(bp.uuid)).toEqual(['created']);
  });

  it('takes a title, and refuses a bad one', async () => {
    expect((await newBlueprint(ada, { title: ' Pitch deck ' })).title).toBe('Pitch deck');
    const bad = await call(t, 'POST', 'blueprints/', { as: ada, body: { title: '' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].param).toBe('title');
  });
});

describe('GET blueprints/ and blueprints/available/', () => {
  it('blueprints/ lists only the caller’s own; available/ adds the default, and anonymous sees only public ones', async () => {
    const carol = await createSignedInUser(t, { email: 'carol@example.com' }, now);
    const mine = await newBlueprint(carol, { title: 'Carol draft' });
    const own = (await call(t, 'GET', 'blueprints/', { as: carol })).json();
    expect(own.data.map((b: { uuid: string }) => b.uuid)).toEqual([mine.uuid]);
    expect(own.meta.pagination).toEqual({ total: 1, page: 1, page_size: 20 });
    expect(own.data[0].content).toBeUndefined();
    const available = (await call(t, 'GET', 'blueprints/available/?ordering=title', { as: carol })).json();
    const titles = available.data.map((b: { title: string }) => b.title);
    expect(titles).toContain('Business Plan');
    expect(titles).toContain('Carol draft');
    const anonymous = (await call(t, 'GET', 'blueprints/available/')).json();
    expect(
      anonymous.data.every(
        (b: { status: string; visibility: string }) => b.status === 'published' && b.visibility === 'public',
      ),
    ).toBe(true);
    expect((await call(t, 'GET', 'blueprints/')).statusCode).toBe(401);
    const bad = await call(t, 'GET', 'blueprints/available/?page_size=500');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].param).toBe('page_size');
  });

  it('an expired token is told so (401) rather than treated as anonymous', async () => {
    const res = await call(t, 'GET', 'blueprints/available/', { headers: { 'x-session-token': 'expired' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT and PATCH blueprints/{uuid}/', () => {
  it('renames, edits description and system prompt; activity "renamed"; ETag', async () => {
    const bp = await newBlueprint();
    tick();
    const res = await call(t, 'PUT', `blueprints/${bp.uuid}/`, {
      as: ada,
      body: { title: 'Seed round', description: 'For seed.\nShort.', system_prompt: 'Be concise.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.json()).toMatchObject({
      title: 'Seed round',
      description: 'For seed.\nShort.',
      system_prompt: 'Be concise.',
      revision: 2,
      updated_at: clock.toISOString(),
    });
    expect(await verbsOf(bp.uuid)).toEqual(['renamed', 'created']);
  });

  it('publishing sets published_at to now, or to the client’s clock if not in the future; a same-version write keeps it, a new version moves it', async () => {
    const bp = await newBlueprint();
    const published = (await patch(bp.uuid, { status: 'published' })).json();
    expect(published).toMatchObject({ status: 'published', published_at: clock.toISOString() });
    tick();
    const same = (
      await patch(bp.uuid, { status: 'published', description: 'Now with a description.' })
    ).json();
    expect(same.published_at).toBe(published.published_at);
    const again = (
      await patch(bp.uuid, { status: 'published', published_at: clock.toISOString(), version: 2 })
    ).json();
    expect(again.published_at).toBe(clock.toISOString());
    expect(again.version).toBe(2);
    const draft = (await patch(bp.uuid, { status: 'draft' })).json();
    expect(draft.published_at).toBeNull();
    const past = new Date(clock.getTime() - 3_600_000).toISOString();
    expect((await patch(bp.uuid, { status: 'published', published_at: past })).json().published_at).toBe(
      past,
    );
    await patch(bp.uuid, { status: 'draft' });
    const future = new Date(clock.getTime() + 86_400_000).toISOString();
    expect((await patch(bp.uuid, { status: 'published', published_at: future })).json().published_at).toBe(
      clock.toISOString(),
    );
    const verbs = await verbsOf(bp.uuid);
    expect(verbs.filter((v) => v === 'published').length).toBe(4);
    expect(verbs.filter((v) => v === 'unpublished').length).toBe(2);
  });

  it('a version never goes down (400 version_decrease naming version), whatever the status', async () => {
    const bp = await newBlueprint();
    expect((await patch(bp.uuid, { version: 3 })).json().version).toBe(3);
    for (const body of [{ version: 2 }, { status: 'published', version: 1 }]) {
      const res = await patch(bp.uuid, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0]).toMatchObject({
        param: 'version',
        code: 'version_decrease',
        message: 'Version cannot go below 3.',
      });
    }
    const stored = (await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: ada })).json();
    expect(stored).toMatchObject({ version: 3, status: 'draft', revision: 2 });
    expect((await patch(bp.uuid, { version: 3 })).statusCode).toBe(200);
  });

  it.each([
    ['{ version: 0 }', { version: 0 }, 'version'],
    ['{ version: 1.5 }', { version: 1.5 }, 'version'],
    ['{ version: "2" }', { version: '2' }, 'version'],
    ['{ version: 2 ** 40 }', { version: 2 ** 40 }, 'version'],
    ['{ status: "archived" }', { status: 'archived' }, 'status'],
    ['{ visibility: "friends" }', { visibility: 'friends' }, 'visibility'],
    ['{ published_at: "yesterday" }', { published_at: 'yesterday' }, 'published_at'],
    ['{ allowed_orgs: ["nope"] }', { allowed_orgs: ['nope'] }, 'allowed_orgs'],
    ['{ allowed_orgs: "x" }', { allowed_orgs: 'x' }, 'allowed_orgs'],
    ['{ title: "NUL" }', { title: '\u0000' }, 'title'],
    ['{ system_prompt: 20,001 characters }', { system_prompt: 'x'.repeat(20_001) }, 'system_prompt'],
  ])('refuses %s with 400 naming %s', async (_label, body, param) => {
    const bp = await newBlueprint();
    const res = await patch(bp.uuid, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].param).toBe(param);
    expect((await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: ada })).json().revision).toBe(1);
  });

  it('allowed_orgs: only organisations the owner belongs to, kept only while restricted, shown whole only to the owner', async () => {
    const org = await t.storage.organizations.create({
      name: 'Ada Studio',
      createdBy: ada.user.id,
      createdAt: now(),
    });
    const foreign = await t.storage.organizations.create({
      name: 'Bob Corp',
      createdBy: bob.user.id,
      createdAt: now(),
    });
    const bp = await newBlueprint();
    const refused = await patch(bp.uuid, { visibility: 'restricted', allowed_orgs: [foreign.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({ param: 'allowed_orgs' });
    const unknown = await patch(bp.uuid, {
      visibility: 'restricted',
      allowed_orgs: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);

    const restricted = (
      await patch(bp.uuid, {
        visibility: 'restricted',
        status: 'published',
        allowed_orgs: [org.id.toUpperCase()],
      })
    ).json();
    expect(restricted).toMatchObject({ visibility: 'restricted', allowed_orgs: [org.id] });
    await t.storage.organizations.addMember({
      organizationId: org.id,
      userId: bob.user.id,
      role: 'member',
      createdAt: now(),
    });
    const seenByBob = (await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: bob })).json();
    // A reader is told the allowed organisations they belong to (docs/http-api.md "Blueprints"), no others.
    expect(seenByBob.allowed_orgs).toEqual([org.id]);
    expect(seenByBob.is_owner).toBe(false);

    // Sent with another visibility, allowed_orgs is not stored (and not checked).
    const opened = (await patch(bp.uuid, { visibility: 'public', allowed_orgs: [foreign.id] })).json();
    expect(opened).toMatchObject({ visibility: 'public', allowed_orgs: [] });
    expect((await patch(bp.uuid, { visibility: 'restricted' })).json().allowed_orgs).toEqual([]);
    expect(await verbsOf(bp.uuid)).toContain('changed visibility');
  });

  it('a stale If-Match answers 412 in the blueprint’s words', async () => {
    const bp = await newBlueprint();
    await patch(bp.uuid, { title: 'Two' });
    const res = await patch(bp.uuid, { title: 'Three' }, ada, { 'if-match': '"1"' });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({
      detail: 'This blueprint was changed since you loaded it.',
      code: 'revision_mismatch',
      current_revision: 2,
    });
  });

  it('content writes rebuild the rows and record section activity', async () => {
    const bp = await newBlueprint();
    const content = structuredClone(bp.content);
    content.content[0].content[0].content = [{ type: 'text', text: 'Problem' }];
    const res = await patch(bp.uuid, { content });
    expect(res.json().sections[0].title).toBe('Problem');
    expectRowsMatchTree(res.json());
    expect(await verbsOf(bp.uuid)).toContain('renamed section');
  });

  it("another user's blueprint answers 404 to writes even when they may read it", async () => {
    const bp = await newBlueprint();
    await patch(bp.uuid, { status: 'published', visibility: 'public' });
    expect((await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: bob })).statusCode).toBe(200);
    const res = await patch(bp.uuid, { title: 'Hijacked' }, bob);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Blueprint not found.', code: 'not_found' });
    expect((await call(t, 'DELETE', `blueprints/${bp.uuid}/`, { as: bob })).statusCode).toBe(404);
  });
});

describe('DELETE blueprints/{uuid}/', () => {
  it('answers 204; documents made from it keep their structure with blueprint null', async () => {
    const bp = await newBlueprint(ada, { title: 'Temporary' });
    const doc = await createDocument(t, ada, { blueprint: bp.uuid });
    expect(doc.blueprint).toEqual({ uuid: bp.uuid, title: 'Temporary' });
    const res = await call(t, 'DELETE', `blueprints/${bp.uuid}/`, {
      as: ada,
      headers: { 'if-match': '"1"' },
    });
    expect(res.statusCode).toBe(204);
    expect((await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: ada })).statusCode).toBe(404);
    const after = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(after.blueprint).toBeNull();
    expect(after.sections).toEqual(doc.sections);
  });

  it('honours If-Match', async () => {
    const bp = await newBlueprint();
    await patch(bp.uuid, { title: 'Changed' });
    const res = await call(t, 'DELETE', `blueprints/${bp.uuid}/`, {
      as: ada,
      headers: { 'if-match': '"1"' },
    });
    expect(res.statusCode).toBe(412);
    expect((await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: ada })).statusCode).toBe(200);
  });
});
