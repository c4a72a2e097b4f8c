import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, hostileStrings } from '../support/workspace-calls.js';

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
  ada = await createSignedInUser(t, { email: 'ada.pub@example.com', firstName: 'Ada' }, now);
  bob = await createSignedInUser(t, { email: 'bob.pub@example.com', firstName: 'Bob' }, now);
});
afterAll(async () => {
  await t?.close();
});

async function newBlueprint(user: SignedInUser = ada) {
  const res = await call(t, 'POST', 'blueprints/', { as: user });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { uuid: string; revision: number };
}

function publish(
  uuid: string,
  body?: unknown,
  user: SignedInUser = ada,
  headers: Record<string, string> = {},
) {
  return call(t, 'POST', `blueprints/${uuid}/publish/`, {
    as: user,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
}

function unpublish(uuid: string, user: SignedInUser = ada, headers: Record<string, string> = {}) {
  return call(t, 'POST', `blueprints/${uuid}/unpublish/`, { as: user, headers });
}

async function stored(uuid: string) {
  return (await call(t, 'GET', `blueprints/${uuid}/`, { as: ada })).json();
}

async function activityOf(uuid: string) {
  const res = await call(t, 'GET', `activities/activities/?object_id=${uuid}&page_size=100`, { as: ada });
  return res.json().data as Array<{ verb: string; message: string }>;
}

describe('POST blueprints/{uuid}/publish/ and unpublish/', () => {
  it('publishes a draft at its version, then each publish of a published blueprint is a new version', async () => {
    const bp = await newBlueprint();
    const first = await publish(bp.uuid);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers.etag).toBe('"2"');
    expect(first.json()).toMatchObject({
      status: 'published',
      version: 1,
      visibility: 'private',
      published_at: clock.toISOString(),
    });
    tick();
    const second = (await publish(bp.uuid, { visibility: 'public' })).json();
    expect(second).toMatchObject({ version: 2, visibility: 'public', published_at: clock.toISOString() });
    tick();
    const fifth = (await publish(bp.uuid, { version: 5 })).json();
    expect(fifth).toMatchObject({ version: 5, visibility: 'public', published_at: clock.toISOString() });
    const messages = (await activityOf(bp.uuid)).map((entry) => entry.message);
    expect(messages).toContain('published the blueprint (version 1) "Untitled Blueprint"');
    expect(messages).toContain('published version 2 of the blueprint "Untitled Blueprint"');
    expect(messages).toContain('published version 5 of the blueprint "Untitled Blueprint"');
  });

  it('a published blueprint refuses a version that is not newer; a draft one that is lower (400 naming version)', async () => {
    const bp = await newBlueprint();
    await publish(bp.uuid, { version: 3 });
    for (const version of [3, 2, 1]) {
      const res = await publish(bp.uuid, { version });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0]).toMatchObject({
        param: 'version',
        code: 'version_not_newer',
        message: 'Publish a version above 3.',
      });
    }
    expect(await stored(bp.uuid)).toMatchObject({ version: 3, status: 'published' });
    const draft = (await unpublish(bp.uuid)).json();
    expect(draft).toMatchObject({ status: 'draft', version: 3, published_at: null });
    const lower = await publish(bp.uuid, { version: 2 });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().errors[0]).toMatchObject({ param: 'version', code: 'version_decrease' });
    // A draft published again keeps its version unless told otherwise.
    expect((await publish(bp.uuid)).json()).toMatchObject({ status: 'published', version: 3 });
  });

  it('unpublishing a draft answers it unchanged; unpublishing records the activity', async () => {
    const bp = await newBlueprint();
    const res = await unpublish(bp.uuid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'draft', revision: 1 });
    await publish(bp.uuid);
    await unpublish(bp.uuid);
    expect((await activityOf(bp.uuid)).map((entry) => entry.verb)).toContain('unpublished');
  });

  it('allowed_orgs through publish: only the owner’s organisations, kept only for restricted', async () => {
    const mine = await t.storage.organizations.create({
      name: 'Ada Pub',
      createdBy: ada.user.id,
      createdAt: now(),
    });
    const theirs = await t.storage.organizations.create({
      name: 'Bob Pub',
      createdBy: bob.user.id,
      createdAt: now(),
    });
    const bp = await newBlueprint();
    const foreign = await publish(bp.uuid, { visibility: 'restricted', allowed_orgs: [theirs.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0]).toMatchObject({ param: 'allowed_orgs', code: 'invalid_organization' });
    expect(await stored(bp.uuid)).toMatchObject({ status: 'draft', revision: 1 });
    const restricted = (await publish(bp.uuid, { visibility: 'restricted', allowed_orgs: [mine.id] })).json();
    expect(restricted).toMatchObject({ visibility: 'restricted', allowed_orgs: [mine.id] });
    const opened = (await publish(bp.uuid, { visibility: 'unlisted', allowed_orgs: [mine.id] })).json();
    expect(opened).toMatchObject({ visibility: 'unlisted', allowed_orgs: [], version: 2 });
  });

  it('honours If-Match, and only the owner may publish (404); without a session 401', async () => {
    const bp = await newBlueprint();
    const stale = await publish(bp.uuid, undefined, ada, { 'if-match': '"7"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ code: 'revision_mismatch', current_revision: 1 });
    expect((await publish(bp.uuid, undefined, ada, { 'if-match': '"1"' })).statusCode).toBe(200);
    expect((await publish(bp.uuid, undefined, bob)).statusCode).toBe(404);
    expect((await unpublish(bp.uuid, bob)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/v1/blueprints/${bp.uuid}/publish/` });
    expect(anonymous.statusCode).toBe(401);
    expect((await publish('not-a-uuid')).statusCode).toBe(404);
    expect(await stored(bp.uuid)).toMatchObject({ version: 1, status: 'published' });
  });

  it.each([
    ['version as text', { version: '2' }, 'version'],
    ['version 0', { version: 0 }, 'version'],
    ['version 2.5', { version: 2.5 }, 'version'],
    ['version past PostgreSQL’s integer', { version: 2 ** 31 }, 'version'],
    ['version as a list', { version: [2] }, 'version'],
    ['visibility from the hostile corpus', { visibility: '<script>alert(1)</script>' }, 'visibility'],
    ['visibility null byte', { visibility: 'public\u0000' }, 'visibility'],
    ['allowed_orgs as text', { allowed_orgs: 'all' }, 'allowed_orgs'],
  ])('refuses %s with 400 naming %s, never a 500', async (_label, body, param) => {
    const bp = await newBlueprint();
    const res = await publish(bp.uuid, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].param).toBe(param);
    expect(await stored(bp.uuid)).toMatchObject({ status: 'draft', revision: 1 });
  });

  it.each([
    ['version past any number', '{"version":1e400}', 'version'],
    ['a negative version', '{"version":-1}', 'version'],
    ['version null', '{"version":null}', 'version'],
    ['version as an object', '{"version":{"$gt":1}}', 'version'],
    ['visibility as a list', '{"visibility":["public"]}', 'visibility'],
    ['visibility as a number', '{"visibility":1}', 'visibility'],
    ['allowed_orgs of numbers', '{"visibility":"restricted","allowed_orgs":[1]}', 'allowed_orgs.0'],
  ])('refuses %s (raw JSON) with 400 naming %s', async (_label, payload, param) => {
    const bp = await newBlueprint();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blueprints/${bp.uuid}/publish/`,
      headers: { ...ada.headers, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].param).toBe(param);
    expect(await stored(bp.uuid)).toMatchObject({ status: 'draft', revision: 1 });
  });

  it('refuses every hostile string as a visibility, through publish and PATCH, and changes nothing', async () => {
    const bp = await newBlueprint();
    for (const visibility of hostileStrings) {
      for (const res of [
        await publish(bp.uuid, { visibility }),
        await call(t, 'PATCH', `blueprints/${bp.uuid}/`, { as: ada, body: { visibility } }),
      ]) {
        expect(res.statusCode, JSON.stringify(visibility)).toBe(400);
        expect(res.json().errors[0].param).toBe('visibility');
      }
    }
    expect(await stored(bp.uuid)).toMatchObject({ status: 'draft', visibility: 'private', revision: 1 });
  });

  it('unpublish ignores what a body says besides being an object, and refuses one that is not', async () => {
    const bp = await newBlueprint();
    await publish(bp.uuid);
    const res = await call(t, 'POST', `blueprints/${bp.uuid}/unpublish/`, {
      as: ada,
      body: { status: 'published', version: 9 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'draft', version: 1, published_at: null });
    const list = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blueprints/${bp.uuid}/unpublish/`,
      headers: { ...ada.headers, 'content-type': 'application/json' },
      payload: '[]',
    });
    expect(list.statusCode).toBe(400);
  });

  it('refuses a body that is not a JSON object', async () => {
    const bp = await newBlueprint();
    for (const payload of ['[1]', '"publish"', '{"version":']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/blueprints/${bp.uuid}/publish/`,
        headers: { ...ada.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
    }
  });

  it('a published blueprint at the highest version cannot be published again', async () => {
    const bp = await newBlueprint();
    await publish(bp.uuid, { version: 2_147_483_647 });
    const res = await publish(bp.uuid);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ param: 'version', message: 'Version is too large' });
  });
});

describe('documents made from older versions', () => {
  it('keep their structure, settings and version after the blueprint changes and publishes v2; new ones get v2', async () => {
    const bp = await newBlueprint();
    const added = await call(t, 'POST', `blueprints/${bp.uuid}/sections/`, {
      as: ada,
      body: { title: 'Team' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const blueprint = (await stored(bp.uuid)) as { sections: Array<{ uuid: string; title: string }> };
    const [first, team] = blueprint.sections;
    if (!first || !team) throw new Error('setup');
    const hinted = await call(t, 'PATCH', `blueprints/${bp.uuid}/sections/${first.uuid}/`, {
      as: ada,
      body: { user_hint: 'Version one hint.', tool_mode: 'mcp', mcp_url: 'https://mcp.example.org/v1' },
    });
    expect(hinted.statusCode, hinted.body).toBe(200);
    await publish(bp.uuid, { visibility: 'public' });

    const made = await call(t, 'POST', 'documents/', { as: bob, body: { blueprint: bp.uuid } });
    expect(made.statusCode, made.body).toBe(201);
    const old = made.json();
    expect(old).toMatchObject({ blueprint_version: 1, blueprint: { uuid: bp.uuid } });
    expect(old.sections.map((section: { title: string }) => section.title)).toEqual(['New Section', 'Team']);

    // v2: a section goes, the hint changes.
    expect(
      (await call(t, 'DELETE', `blueprints/${bp.uuid}/sections/${team.uuid}/`, { as: ada })).statusCode,
    ).toBe(204);
    await call(t, 'PATCH', `blueprints/${bp.uuid}/sections/${first.uuid}/`, {
      as: ada,
      body: { user_hint: 'Version two hint.' },
    });
    expect((await publish(bp.uuid)).json()).toMatchObject({ version: 2 });

    const reread = (await call(t, 'GET', `documents/${old.uuid}/`, { as: bob })).json();
    expect(reread).toMatchObject({ blueprint_version: 1 });
    expect(reread.sections.map((section: { title: string }) => section.title)).toEqual([
      'New Section',
      'Team',
    ]);
    expect(reread.sections[0]).toMatchObject({
      user_hint: 'Version one hint.',
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.org/v1',
    });
    // It still saves.
    const saved = await call(t, 'PATCH', `documents/${old.uuid}/`, {
      as: bob,
      body: { title: 'Still mine' },
      headers: { 'if-match': `"${reread.revision}"` },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const listed = (await call(t, 'GET', 'documents/', { as: bob })).json().data as Array<{
      uuid: string;
      blueprint_version: number;
    }>;
    expect(listed.find((item) => item.uuid === old.uuid)?.blueprint_version).toBe(1);

    const fresh = (await call(t, 'POST', 'documents/', { as: bob, body: { blueprint: bp.uuid } })).json();
    expect(fresh.blueprint_version).toBe(2);
    expect(fresh.sections.map((section: { title: string }) => section.title)).toEqual(['New Section']);
    expect(fresh.sections[0].user_hint).toBe('Version two hint.');
  });
});
