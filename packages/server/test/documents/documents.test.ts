import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BLUEPRINT } from '../../src/blueprints/default-blueprint.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  call,
  createDocument,
  defaultBlueprintId,
  expectRowsMatchTree,
  type Method,
} from '../support/workspace-calls.js';

let t: TestApp;
let clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
const tick = () => {
  clock = new Date(clock.getTime() + 1_000);
};
let ada: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(
    t,
    { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
    now,
  );
  bob = await createSignedInUser(t, { email: 'bob@example.com', firstName: 'Bob' }, now);
});
afterAll(async () => {
  await t?.close();
});

async function activitiesOf(user: SignedInUser, objectId: string) {
  const res = await call(t, 'GET', `activities/activities/?object_id=${objectId}&page_size=100`, {
    as: user,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<{ verb: string; message: string; level: number; target_label: string }>;
}

describe('POST documents/', () => {
  it('copies the default blueprint: sections, subsections, their settings and the tree (201, ETag)', async () => {
    const blueprint = await defaultBlueprintId(t);
    const res = await call(t, 'POST', 'documents/', { as: ada, body: { blueprint } });
    expect(res.statusCode, res.body).toBe(201);
    const doc = res.json();
    expect(res.headers.etag).toBe('"1"');
    expect(doc).toMatchObject({
      title: 'Business Plan',
      name: 'Business Plan',
      description: '',
      status: 'in-progress',
      revision: 1,
      blueprint: { uuid: blueprint, title: 'Business Plan' },
      created_at: clock.toISOString(),
      updated_at: clock.toISOString(),
    });
    expect(doc.uuid).toBe(doc.id);
    expect(doc.sections.map((s: { title: string }) => s.title)).toEqual(
      DEFAULT_BLUEPRINT.sections.map((s) => s.title),
    );
    const total = DEFAULT_BLUEPRINT.sections.reduce((sum, s) => sum + s.subsections.length, 0);
    expect(doc.progress).toEqual({ finalized: 0, total, percent: 0 });
    const first = doc.sections[0];
    expect(first.developer_prompt).toBe(DEFAULT_BLUEPRINT.sections[0]?.developerPrompt);
    expect(first.user_hint).toBe(DEFAULT_BLUEPRINT.sections[0]?.userHint);
    expect(first.subsections[0].developer_prompt).toBe(
      DEFAULT_BLUEPRINT.sections[0]?.subsections[0]?.developerPrompt,
    );
    expect(first.subsections[0].finalized).toBe(false);
    expect(first.blueprint_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.uuid).not.toBe(first.blueprint_uuid);
    expectRowsMatchTree(doc);
    const bpRes = await call(t, 'GET', `blueprints/${blueprint}/`);
    expect(bpRes.json().sections[0].uuid).toBe(first.blueprint_uuid);
    expect(await activitiesOf(ada, doc.uuid)).toMatchObject([
      {
        verb: 'created',
        level: 1,
        target_label: 'Business Plan',
        message: 'created the document "Business Plan"',
      },
    ]);
  });

  it('takes a title', async () => {
    const doc = await createDocument(t, ada, { title: '  Acme plan  ' });
    expect(doc.title).toBe('Acme plan');
  });

  it.each<[string, { blueprint?: null; title?: string } | undefined]>([
    ['no body', undefined],
    ['an empty body', {}],
    ['blueprint null', { blueprint: null }],
    ['blueprint null and a title', { blueprint: null, title: 'From the default' }],
  ])(
    'without a blueprint (%s) copies the seeded default (spec 000 §4 "Using default template")',
    async (_label, body) => {
      const blueprint = await defaultBlueprintId(t);
      const res = await call(t, 'POST', 'documents/', { as: ada, body });
      expect(res.statusCode, res.body).toBe(201);
      const doc = res.json();
      expect(doc.blueprint).toEqual({ uuid: blueprint, title: 'Business Plan' });
      expect(doc.title).toBe(body?.title ?? 'Business Plan');
      expect(doc.sections.map((s: { title: string }) => s.title)).toEqual(
        DEFAULT_BLUEPRINT.sections.map((s) => s.title),
      );
      expectRowsMatchTree(doc);
    },
  );

  it('reads a JSON null body as no blueprint', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/documents/',
      headers: { ...ada.headers, 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().blueprint.title).toBe('Business Plan');
  });

  it.each([
    [{ blueprint: '' }, 'blueprint'],
    [{ blueprint: '   ' }, 'blueprint'],
    [{ blueprint: 'not-a-uuid' }, 'blueprint'],
    [{ blueprint: "' OR 1=1 --" }, 'blueprint'],
    [{ blueprint: '00000000-0000-4000-8000-000000000000' }, 'blueprint'],
    [{ blueprint: 42 }, 'blueprint'],
    [{ blueprint: false }, 'blueprint'],
    [{ blueprint: [] }, 'blueprint'],
    [{ blueprint: {} }, 'blueprint'],
  ])('refuses %j with 400 naming %s', async (body, param) => {
    const res = await call(t, 'POST', 'documents/', { as: ada, body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { param: string }) => e.param)).toContain(param);
  });

  it("refuses another user's private draft blueprint with 400 naming blueprint", async () => {
    const bp = (await call(t, 'POST', 'blueprints/', { as: bob })).json();
    const res = await call(t, 'POST', 'documents/', { as: ada, body: { blueprint: bp.uuid } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].param).toBe('blueprint');
    // Its owner may use it, draft or not.
    expect((await call(t, 'POST', 'documents/', { as: bob, body: { blueprint: bp.uuid } })).statusCode).toBe(
      201,
    );
  });

  it('refuses a bad title with 400 naming title', async () => {
    const blueprint = await defaultBlueprintId(t);
    for (const title of ['   ', 'x'.repeat(201), 'a\u0000b', 7]) {
      const res = await call(t, 'POST', 'documents/', { as: ada, body: { blueprint, title } });
      expect(res.statusCode, JSON.stringify(title)).toBe(400);
      expect(res.json().errors[0].param).toBe('title');
    }
  });
});

describe('GET documents/', () => {
  let lister: SignedInUser;
  beforeAll(async () => {
    lister = await createSignedInUser(t, { email: 'lister@example.com' }, now);
    for (const title of ['bravo', 'Alpha', 'charlie']) {
      tick();
      await createDocument(t, lister, { title });
    }
  });

  it('lists only the caller’s documents, newest change first, without content', async () => {
    const res = await call(t, 'GET', 'documents/', { as: lister });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta.pagination).toEqual({ total: 3, page: 1, page_size: 20 });
    expect(body.data.map((d: { title: string }) => d.title)).toEqual(['charlie', 'Alpha', 'bravo']);
    expect(body.data[0].content).toBeUndefined();
    expect(body.data[0].sections.length).toBe(DEFAULT_BLUEPRINT.sections.length);
    expect(body.data[0].progress.total).toBeGreaterThan(0);
  });

  it.each([
    ['title', ['Alpha', 'bravo', 'charlie']],
    ['-title', ['charlie', 'bravo', 'Alpha']],
    ['created_at', ['bravo', 'Alpha', 'charlie']],
    ['-created_at', ['charlie', 'Alpha', 'bravo']],
    ['updated_at', ['bravo', 'Alpha', 'charlie']],
  ])('orders by %s', async (ordering, titles) => {
    const res = await call(t, 'GET', `documents/?ordering=${ordering}`, { as: lister });
    expect(res.json().data.map((d: { title: string }) => d.title)).toEqual(titles);
  });

  it('pages: page_size, a page past the end answers an empty page with the real total', async () => {
    const second = (
      await call(t, 'GET', 'documents/?page=2&page_size=2&ordering=title', { as: lister })
    ).json();
    expect(second.data.map((d: { title: string }) => d.title)).toEqual(['charlie']);
    expect(second.meta.pagination).toEqual({ total: 3, page: 2, page_size: 2 });
    const past = (await call(t, 'GET', 'documents/?page=99', { as: lister })).json();
    expect(past.data).toEqual([]);
    expect(past.meta.pagination.total).toBe(3);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1&page=2', 'page'],
    ['page=99999999999999999999', 'page'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=', 'page_size'],
    ['ordering=owner', 'ordering'],
    ['ordering=-title;drop table documents', 'ordering'],
  ])('answers 400 naming the parameter for %s', async (query, param) => {
    const res = await call(t, 'GET', `documents/?${query}`, { as: lister });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { param: string }) => e.param)).toContain(param);
  });
});

describe('GET, PATCH, PUT and DELETE documents/{uuid}/', () => {
  it('GET answers the document with its content and ETag', async () => {
    const doc = await createDocument(t, ada);
    const res = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.json()).toEqual(doc);
  });

  it.each(['PATCH', 'PUT'] as const)(
    '%s renames: revision bumped, ETag, activity "renamed"',
    async (method) => {
      const doc = await createDocument(t, ada);
      tick();
      const res = await call(t, method, `documents/${doc.uuid}/`, { as: ada, body: { title: 'Acme plan' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers.etag).toBe('"2"');
      expect(res.json()).toMatchObject({
        title: 'Acme plan',
        name: 'Acme plan',
        revision: 2,
        updated_at: clock.toISOString(),
      });
      expect(res.json().content).toEqual(doc.content);
      const entries = await activitiesOf(ada, doc.uuid);
      expect(entries[0]).toMatchObject({
        verb: 'renamed',
        level: 1,
        message: 'renamed the document to "Acme plan"',
      });
    },
  );

  it('a write that changes nothing keeps the revision and records nothing', async () => {
    const doc = await createDocument(t, ada);
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { title: doc.title, description: '', content: doc.content },
    });
    expect(res.json().revision).toBe(1);
    expect((await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada })).json().revision).toBe(1);
    expect((await activitiesOf(ada, doc.uuid)).map((a) => a.verb)).toEqual(['created']);
  });

  it('sets the description (line breaks kept; control characters refused)', async () => {
    const doc = await createDocument(t, ada);
    const ok = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { description: 'Line 1\n\tLine 2' },
    });
    expect(ok.json().description).toBe('Line 1\n\tLine 2');
    const bad = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { description: 'a\u0007b' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].param).toBe('description');
    const long = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { description: 'x'.repeat(5_001) },
    });
    expect(long.statusCode).toBe(400);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json().revision).toBe(2);
  });

  it('DELETE answers 204, records "deleted", and the document is gone', async () => {
    const doc = await createDocument(t, ada, { title: 'Doomed' });
    tick();
    const res = await call(t, 'DELETE', `documents/${doc.uuid}/`, { as: ada });
    expect(res.statusCode).toBe(204);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).statusCode).toBe(404);
    expect((await activitiesOf(ada, doc.uuid)).map((a) => a.verb)).toEqual(['deleted', 'created']);
  });

  it('status is completed once every subsection is finalized', async () => {
    const doc = await createDocument(t, ada);
    const content = structuredClone(doc.content);
    for (const section of content.content) {
      for (const child of section.content) if (child.type === 'subsection') child.attrs.finalized = true;
    }
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { content } });
    expect(res.json().status).toBe('completed');
    expect(res.json().progress).toEqual({
      finalized: doc.progress.total,
      total: doc.progress.total,
      percent: 100,
    });
    const listed = (await call(t, 'GET', 'documents/?page_size=100', { as: ada })).json().data;
    expect(listed.find((d: { uuid: string }) => d.uuid === doc.uuid).status).toBe('completed');
  });
});

describe('revisions and If-Match', () => {
  it('a stale If-Match answers 412 with the current revision and writes nothing', async () => {
    const doc = await createDocument(t, ada);
    await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { title: 'Second' } });
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { title: 'Lost update' },
      headers: { 'if-match': '"1"' },
    });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({
      detail: 'This document was changed since you loaded it.',
      code: 'revision_mismatch',
      current_revision: 2,
    });
    const now = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(now).toMatchObject({ title: 'Second', revision: 2 });
    const del = await call(t, 'DELETE', `documents/${doc.uuid}/`, {
      as: ada,
      headers: { 'if-match': '"1"' },
    });
    expect(del.statusCode).toBe(412);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).statusCode).toBe(200);
  });

  it.each(['"1"', '1', 'W/"1"', '*', '"7", "1"'])('accepts If-Match %s for revision 1', async (ifMatch) => {
    const doc = await createDocument(t, ada);
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { title: 'Matched' },
      headers: { 'if-match': ifMatch },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
  });

  it.each(['"abc"', '""', 'W/', '"99999999999999"'])(
    'an If-Match naming no revision (%s) answers 412',
    async (ifMatch) => {
      const doc = await createDocument(t, ada);
      const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
        as: ada,
        body: { title: 'Never' },
        headers: { 'if-match': ifMatch },
      });
      expect(res.statusCode).toBe(412);
      expect(res.json().current_revision).toBe(1);
    },
  );

  it('of two concurrent writers with the same If-Match exactly one wins', async () => {
    const doc = await createDocument(t, ada);
    const results = await Promise.all(
      ['One', 'Two', 'Three'].map((title) =>
        call(t, 'PATCH', `documents/${doc.uuid}/`, {
          as: ada,
          body: { title },
          headers: { 'if-match': '"1"' },
        }),
      ),
    );
    const codes = results.map((res) => res.statusCode).sort();
    expect(codes).toEqual([200, 412, 412]);
    const winner = results.find((res) => res.statusCode === 200)?.json().title;
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json()).toMatchObject({
      title: winner,
      revision: 2,
    });
  });

  it('concurrent writers without If-Match all land, one revision each', async () => {
    const doc = await createDocument(t, ada);
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((title) =>
        call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { title } }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(results.map((res) => res.json().revision).sort()).toEqual([2, 3, 4, 5]);
  });
});

describe('who may touch a document', () => {
  const routes = (doc: string, section: string, subsection: string): Array<[Method, string, unknown?]> => [
    ['GET', `documents/${doc}/`],
    ['PATCH', `documents/${doc}/`, { title: 'Mine now' }],
    ['PUT', `documents/${doc}/`, { title: 'Mine now' }],
    ['DELETE', `documents/${doc}/`],
    ['POST', `documents/${doc}/sections/`, {}],
    ['GET', `documents/${doc}/sections/${section}/`],
    ['PATCH', `documents/${doc}/sections/${section}/`, { title: 'x' }],
    ['PUT', `documents/${doc}/sections/${section}/`, { title: 'x' }],
    ['PUT', `documents/${doc}/sections/${section}/content/`, { content: { type: 'section' } }],
    ['DELETE', `documents/${doc}/sections/${section}/`],
    ['POST', `documents/${doc}/sections/${section}/subsections/`, {}],
    ['GET', `documents/${doc}/sections/${section}/subsections/${subsection}/`],
    ['PATCH', `documents/${doc}/sections/${section}/subsections/${subsection}/`, { finalized: true }],
    ['PUT', `documents/${doc}/sections/${section}/subsections/${subsection}/`, { finalized: true }],
    ['DELETE', `documents/${doc}/sections/${section}/subsections/${subsection}/`],
  ];

  it("another user's document answers 404 Document not found on every route, and nothing changes", async () => {
    const doc = await createDocument(t, ada);
    const section = doc.sections[0].uuid;
    const subsection = doc.sections[0].subsections[0].uuid;
    for (const [method, path, body] of routes(doc.uuid, section, subsection)) {
      const res = await call(t, method, path, { as: bob, body });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json(), `${method} ${path}`).toEqual({ detail: 'Document not found.', code: 'not_found' });
    }
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json()).toEqual(doc);
  });

  it('answers exactly the same for a document that never existed', async () => {
    const missing = '0b7e8f0a-3d1c-4b9a-9a51-2f4c5d6e7f80';
    const doc = await createDocument(t, ada);
    for (const [method, path, body] of routes(
      missing,
      doc.sections[0].uuid,
      doc.sections[0].subsections[0].uuid,
    )) {
      const res = await call(t, method, path, { as: bob, body });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().detail).toBe('Document not found.');
    }
  });

  it('a malformed uuid anywhere in the path answers 404, never 500', async () => {
    const doc = await createDocument(t, ada);
    const section = doc.sections[0].uuid;
    const subsection = doc.sections[0].subsections[0].uuid;
    for (const bad of [
      'nope',
      '1',
      "1' or '1'='1",
      '%00',
      'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
      `${doc.uuid}0`,
    ]) {
      for (const [method, path, body] of [
        ...routes(bad, section, subsection),
        ...routes(doc.uuid, bad, subsection).slice(5),
        ...routes(doc.uuid, section, bad).slice(11),
      ]) {
        const res = await call(t, method, path, { as: ada, body });
        expect(res.statusCode, `${method} ${path}`).toBe(404);
      }
    }
  });

  it('without a session every document route answers 401', async () => {
    const doc = await createDocument(t, ada);
    const all: Array<[Method, string, unknown?]> = [
      ['GET', 'documents/'],
      ['POST', 'documents/', {}],
      ...routes(doc.uuid, doc.sections[0].uuid, doc.sections[0].subsections[0].uuid),
    ];
    for (const [method, path, body] of all) {
      const res = await call(t, method, path, { body });
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json().code).toBe('not_authenticated');
      const expired = await call(t, method, path, { body, headers: { 'x-session-token': 'not-a-session' } });
      expect(expired.statusCode, `${method} ${path}`).toBe(401);
    }
  });
});
