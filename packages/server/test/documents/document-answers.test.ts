import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument } from '../../src/documents/write-document.js';
import { StaleWriteError } from '../../src/structure/stale-write.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, expectRowsMatchTree, hostileStrings } from '../support/workspace-calls.js';

let t: TestApp;
let clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
const tick = () => {
  clock = new Date(clock.getTime() + 1_000);
};
let ada: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada' }, now);
});
afterAll(async () => {
  await t?.close();
});

type Tree = { type: string; attrs?: Record<string, unknown>; content?: Tree[]; text?: string };

/** The first subsection of a document's tree. */
function firstSubsection(content: Tree): Tree {
  const found = content.content?.[0]?.content?.find((node) => node.type === 'subsection');
  if (!found?.content) throw new Error('the tree has no subsection');
  return found;
}

/** `content` with one paragraph per string appended to its first subsection. */
function withParagraphs(content: Tree, texts: readonly string[]): Tree {
  const copy = structuredClone(content);
  firstSubsection(copy).content?.push(
    ...texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  );
  return copy;
}

async function activityVerbs(objectId: string): Promise<string[]> {
  const res = await call(t, 'GET', `activities/activities/?object_id=${objectId}&page_size=100`, { as: ada });
  return (res.json().data as Array<{ verb: string }>).map((entry) => entry.verb);
}

// What PostgreSQL cannot store is refused before the tree is written (see content-input.ts).
const storable = hostileStrings.filter(
  (value) => value !== '' && !value.includes('\u0000') && !/\p{Cs}/u.test(value),
);

describe('GET documents/{uuid}/ passes the stored tree on as the database prints it', () => {
  it('answers every storable hostile string of the corpus exactly as the write answered it', async () => {
    const doc = await createDocument(t, ada);
    const written = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { content: withParagraphs(doc.content, storable) },
    });
    expect(written.statusCode, written.body.slice(0, 300)).toBe(200);
    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.headers.etag).toBe(written.headers.etag);
    expect(read.json()).toEqual(written.json());
    const paragraphs = firstSubsection(read.json().content).content?.slice(-storable.length);
    expect(paragraphs?.map((node) => node.content?.[0]?.text)).toEqual(storable);
  });

  it('answers the same document as the write, rows with their settings included', async () => {
    const doc = await createDocument(t, ada);
    const section = doc.sections[0];
    await call(t, 'PATCH', `documents/${doc.uuid}/sections/${section.uuid}/`, {
      as: ada,
      body: { user_hint: 'Start with the problem — then the “why”.' },
    });
    const read = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(read.sections[0]).toMatchObject({
      user_hint: 'Start with the problem — then the “why”.',
      developer_prompt: section.developer_prompt,
      tool_mode: section.tool_mode,
      mcp_url: '',
    });
    expect(Object.keys(read)).toEqual(Object.keys(doc));
    expectRowsMatchTree(read);
  });

  it('answers 404 for another user’s document and for a malformed uuid', async () => {
    const bob = await createSignedInUser(t, { email: 'bob-answers@example.com' }, now);
    const doc = await createDocument(t, ada);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: bob })).statusCode).toBe(404);
    expect((await call(t, 'GET', 'documents/not-a-uuid/', { as: ada })).statusCode).toBe(404);
  });
});

describe('PATCH documents/{uuid}/ without reading the stored tree', () => {
  it('the stored tree sent back as read keeps the revision, writes nothing and records nothing', async () => {
    const doc = await createDocument(t, ada);
    const read = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    tick();
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { content: read.content },
      headers: { 'if-match': '"1"' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.json()).toMatchObject({ revision: 1, updated_at: doc.updated_at });
    expect(res.json().content).toEqual(doc.content);
    expect(await activityVerbs(doc.uuid)).toEqual(['created']);
  });

  it('a text edit bumps the revision, keeps the rows and their settings, and records nothing', async () => {
    const doc = await createDocument(t, ada);
    const subsection = doc.sections[0].subsections[0];
    const path = `documents/${doc.uuid}/sections/${doc.sections[0].uuid}/subsections/${subsection.uuid}/`;
    await call(t, 'PATCH', path, { as: ada, body: { tool_mode: 'mcp', mcp_url: 'https://mcp.example.com' } });
    const before = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    tick();
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { content: withParagraphs(before.content, ['A new paragraph.']) },
      headers: { 'if-match': `"${before.revision}"` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json();
    expect(after.revision).toBe(before.revision + 1);
    expect(after.updated_at).toBe(clock.toISOString());
    expect(after.sections).toEqual(before.sections);
    expect(after.sections[0].subsections[0]).toMatchObject({
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.com',
    });
    expect(firstSubsection(after.content).content?.at(-1)?.content?.[0]?.text).toBe('A new paragraph.');
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json()).toEqual(after);
    expect(await activityVerbs(doc.uuid)).toEqual(['created']);
  });

  it('a rename without a tree answers the stored tree', async () => {
    const doc = await createDocument(t, ada);
    await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { content: withParagraphs(doc.content, ['Kept through the rename.']) },
    });
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { title: 'Renamed' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Renamed', revision: 3 });
    expect(res.json()).toEqual((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json());
    expect(firstSubsection(res.json().content).content?.at(-1)?.content?.[0]?.text).toBe(
      'Kept through the rename.',
    );
  });

  it('a rename sent with the unchanged tree records "renamed" only', async () => {
    const doc = await createDocument(t, ada);
    tick();
    const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
      as: ada,
      body: { title: 'Renamed with its tree', content: doc.content },
    });
    expect(res.json()).toMatchObject({ title: 'Renamed with its tree', revision: 2 });
    expect(res.json().content).toEqual(doc.content);
    expect(await activityVerbs(doc.uuid)).toEqual(['renamed', 'created']);
  });
});

describe('writeDocument: compare-and-set on the revision it was read at', () => {
  async function staleHead() {
    const doc = await createDocument(t, ada);
    const head = await t.storage.documents.findHeadFor(doc.uuid, ada.user.id);
    if (!head) throw new Error('no document');
    // Another writer gets there first.
    await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { description: 'Theirs' } });
    return { doc, head };
  }

  it('the stored tree at a stale revision is a lost race, not a write that changes nothing', async () => {
    const { doc, head } = await staleHead();
    const outcome = t.storage.transaction((tx) =>
      writeDocument(tx, head, { content: doc.content }, { actor: ada.user, now: now() }),
    );
    await expect(outcome).rejects.toBeInstanceOf(StaleWriteError);
  });

  it('a new tree at a stale revision is a lost race and writes nothing', async () => {
    const { doc, head } = await staleHead();
    const outcome = t.storage.transaction((tx) =>
      writeDocument(
        tx,
        head,
        { content: withParagraphs(doc.content, ['Lost']) as typeof doc.content },
        { actor: ada.user, now: now() },
      ),
    );
    await expect(outcome).rejects.toBeInstanceOf(StaleWriteError);
    const current = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(current).toMatchObject({ revision: 2, description: 'Theirs' });
    expect(current.content).toEqual(doc.content);
  });

  it('updateAt with ifContentDiffers writes only a tree that differs from the stored one', async () => {
    const doc = await createDocument(t, ada);
    const same = JSON.stringify(doc.content);
    const changes = { contentJson: same, updatedAt: now() };
    expect(
      await t.storage.documents.updateAt(doc.uuid, 1, changes, { ifContentDiffers: true }),
    ).toBeUndefined();
    const changed = JSON.stringify(withParagraphs(doc.content, ['Different']));
    const written = await t.storage.documents.updateAt(
      doc.uuid,
      1,
      { contentJson: changed, updatedAt: now() },
      { ifContentDiffers: true },
    );
    expect(written).toMatchObject({ revision: 2, blueprintTitle: 'Business Plan' });
    expect(JSON.parse((await t.storage.documents.contentJsonOf(doc.uuid)) ?? 'null')).toEqual(
      JSON.parse(changed),
    );
  });
});

describe('lists answer each section as an outline, without settings', () => {
  it('GET documents/: uuid, title and order, subsections with finalized; details keep the settings', async () => {
    const lister = await createSignedInUser(t, { email: 'outline-lister@example.com' }, now);
    const doc = await createDocument(t, lister);
    const [item] = (await call(t, 'GET', 'documents/', { as: lister })).json().data;
    expect(item.content).toBeUndefined();
    expect(item.sections).toEqual(
      doc.sections.map((section: (typeof doc.sections)[number]) => ({
        uuid: section.uuid,
        title: section.title,
        order: section.order,
        subsections: section.subsections.map((sub: (typeof section.subsections)[number]) => ({
          uuid: sub.uuid,
          title: sub.title,
          order: sub.order,
          finalized: sub.finalized,
        })),
      })),
    );
    expect(doc.sections[0]).toHaveProperty('developer_prompt');
  });

  it('GET blueprints/ and blueprints/available/: the same outline, subsections without finalized', async () => {
    const owner = await createSignedInUser(t, { email: 'outline-owner@example.com' }, now);
    const bp = (await call(t, 'POST', 'blueprints/', { as: owner })).json();
    const detail = (await call(t, 'GET', `blueprints/${bp.uuid}/`, { as: owner })).json();
    expect(detail.sections[0]).toHaveProperty('developer_prompt');
    const outline = detail.sections.map((section: (typeof detail.sections)[number]) => ({
      uuid: section.uuid,
      title: section.title,
      order: section.order,
      subsections: section.subsections.map((sub: (typeof section.subsections)[number]) => ({
        uuid: sub.uuid,
        title: sub.title,
        order: sub.order,
      })),
    }));
    const [own] = (await call(t, 'GET', 'blueprints/', { as: owner })).json().data;
    expect(own).toMatchObject({ uuid: bp.uuid, sections_count: outline.length });
    expect(own.content).toBeUndefined();
    expect(own.sections).toEqual(outline);
    const available = (await call(t, 'GET', 'blueprints/available/?page_size=100', { as: owner })).json()
      .data;
    expect(available.find((item: { uuid: string }) => item.uuid === bp.uuid).sections).toEqual(outline);
    const anonymous = (await call(t, 'GET', 'blueprints/available/?page_size=100')).json().data;
    const seeded = anonymous.find((item: { is_default: boolean }) => item.is_default);
    for (const section of seeded.sections) {
      expect(Object.keys(section).sort()).toEqual(['order', 'subsections', 'title', 'uuid']);
      for (const sub of section.subsections)
        expect(Object.keys(sub).sort()).toEqual(['order', 'title', 'uuid']);
    }
  });
});
