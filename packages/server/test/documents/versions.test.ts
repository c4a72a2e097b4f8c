import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOURLY_VERSION_MS } from '../../src/documents/write-document.js';
import { multipartBody } from '../files/multipart.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, hostileStrings } from '../support/workspace-calls.js';

// Versions of a document (docs/versions.md): named ones, automatic ones at most hourly and before an import or a
// restore, reading one, and restoring one as a new change that is itself undone by restoring again.

let t: TestApp;
let clock = new Date('2026-11-29T10:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let owner: SignedInUser;
let counter = 0;

interface Node {
  type: string;
  text?: string;
  content?: Node[];
}

/** The content with its first body paragraph saying `text`. */
function withFirstParagraph(content: Node, text: string): Node {
  const copy = structuredClone(content);
  const visit = (node: Node): boolean => {
    if (node.type === 'paragraph') {
      node.content = [{ type: 'text', text }];
      return true;
    }
    return (node.content ?? []).some(visit);
  };
  visit(copy);
  return copy;
}

function firstParagraphText(content: Node): string {
  const found = (node: Node): Node | undefined =>
    node.type === 'paragraph' ? node : (node.content ?? []).map(found).find(Boolean);
  return (found(content)?.content ?? []).map((leaf) => leaf.text ?? '').join('');
}

async function write(doc: { uuid: string }, text: string, as = owner) {
  const current = (await call(t, 'GET', `documents/${doc.uuid}/`, { as })).json();
  const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, {
    as,
    body: { content: withFirstParagraph(current.content, text) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function versions(doc: { uuid: string }, as = owner) {
  const res = await call(t, 'GET', `documents/${doc.uuid}/versions/?page_size=100`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<{ id: string; name: string | null; kind: string; title: string }>;
}

beforeAll(async () => {
  t = await createTestApp({}, { now });
  owner = await createSignedInUser(t, { email: 'olive@example.com', firstName: 'Olive' }, now);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  advance(HOURLY_VERSION_MS);
});

describe('versions', () => {
  it('VE1 a named version keeps the plan as it is; it reads back whole after the plan changes, by id or by name', async () => {
    const doc = await createDocument(t, owner, { title: 'Bakery plan' });
    await write(doc, 'Sent to the bank on Monday.');
    const named = await call(t, 'POST', `documents/${doc.uuid}/versions/`, {
      as: owner,
      body: { name: '  Sent to bank, v3 ' },
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json()).toMatchObject({
      name: 'Sent to bank, v3',
      kind: 'named',
      title: 'Bakery plan',
      created_by: { username: 'olive', first_name: 'Olive' },
      created_at: clock.toISOString(),
    });
    advance(60_000);
    await write(doc, 'Rewritten after the meeting.');
    for (const ref of [named.json().id, 'SENT TO BANK, V3']) {
      const read = await call(t, 'GET', `documents/${doc.uuid}/versions/${encodeURIComponent(ref)}/`, {
        as: owner,
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(firstParagraphText(read.json().content)).toBe('Sent to the bank on Monday.');
    }
    const listed = await versions(doc);
    expect(listed.find((version) => version.kind === 'named')).toMatchObject({ name: 'Sent to bank, v3' });
    // The same name again (case aside) is refused, and nothing is kept.
    const again = await call(t, 'POST', `documents/${doc.uuid}/versions/`, {
      as: owner,
      body: { name: 'sent to bank, V3' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'version_name_taken' });
    expect(await versions(doc)).toHaveLength(listed.length);
  });

  it('VE2 automatic versions: at most one an hour while the plan is written, and one before each import', async () => {
    const doc = await createDocument(t, owner);
    await write(doc, 'First words.');
    await write(doc, 'Second words.');
    advance(60_000);
    await write(doc, 'Third words.');
    const hourly = (await versions(doc)).filter((version) => version.kind === 'hourly');
    expect(hourly).toHaveLength(1);
    // Kept before the first write: the plan as it started.
    expect(
      firstParagraphText(
        (await call(t, 'GET', `documents/${doc.uuid}/versions/${hourly[0]?.id}/`, { as: owner })).json()
          .content,
      ),
    ).toBe('');
    advance(HOURLY_VERSION_MS);
    await write(doc, 'Fourth words.');
    expect((await versions(doc)).filter((version) => version.kind === 'hourly')).toHaveLength(2);

    const body = await multipartBody({ file: { name: 'notes.md', bytes: '# Notes\n\nImported words.\n' } });
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/v1/documents/${doc.uuid}/import/`,
      headers: { ...owner.headers, ...body.headers },
      payload: body.payload,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const before = (await versions(doc)).find((version) => version.kind === 'before_import');
    const read = await call(t, 'GET', `documents/${doc.uuid}/versions/${before?.id}/`, { as: owner });
    expect(firstParagraphText(read.json().content)).toBe('Fourth words.');
  });

  it('VE3 restoring brings the version back as a new change; the plan as it was is kept, so restoring that undoes it', async () => {
    const doc = await createDocument(t, owner, { title: 'Cafe plan' });
    await write(doc, 'The good version.');
    const kept = (
      await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name: 'Good' } })
    ).json();
    advance(60_000);
    await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: owner, body: { title: 'Cafe plan, messy' } });
    const messy = await write(doc, 'A messy rewrite.');
    const restored = await call(t, 'POST', `documents/${doc.uuid}/versions/${kept.id}/restore/`, {
      as: owner,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().title).toBe('Cafe plan');
    expect(firstParagraphText(restored.json().content)).toBe('The good version.');
    expect(restored.json().revision).toBeGreaterThan(messy.revision);
    const before = (await versions(doc)).find((version) => version.kind === 'before_restore');
    expect(before).toMatchObject({ title: 'Cafe plan, messy' });
    // Undo: restore what it was.
    const undone = await call(t, 'POST', `documents/${doc.uuid}/versions/${before?.id}/restore/`, {
      as: owner,
    });
    expect(firstParagraphText(undone.json().content)).toBe('A messy rewrite.');
    expect(undone.json().title).toBe('Cafe plan, messy');
    const feed = await call(t, 'GET', `activities/activities/?target=document&object_id=${doc.uuid}`, {
      as: owner,
    });
    expect(JSON.stringify(feed.json())).toContain('restored the version \\"Good\\"');
  });

  it('VE4 roles: viewers list and read versions; only editors and the owner name and restore; strangers see nothing', async () => {
    const doc = await createDocument(t, owner);
    const viewer = await createSignedInUser(t, { email: `viewer-${++counter}@example.com` }, now);
    const stranger = await createSignedInUser(t, { email: `stranger-${++counter}@example.com` }, now);
    const sent = await call(t, 'POST', `documents/${doc.uuid}/invitations/`, {
      as: owner,
      body: { email: viewer.user.email, role: 'viewer' },
    });
    await call(t, 'POST', `invitations/${sent.json().id}/accept/`, { as: viewer });
    const kept = (
      await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name: 'Start' } })
    ).json();
    expect(await versions(doc, viewer)).toEqual([expect.objectContaining({ name: 'Start' })]);
    expect(
      (await call(t, 'GET', `documents/${doc.uuid}/versions/${kept.id}/`, { as: viewer })).statusCode,
    ).toBe(200);
    const named = await call(t, 'POST', `documents/${doc.uuid}/versions/`, {
      as: viewer,
      body: { name: 'Mine' },
    });
    expect(named.statusCode).toBe(404);
    expect(named.json().code).toBe('not_permitted');
    const restore = await call(t, 'POST', `documents/${doc.uuid}/versions/${kept.id}/restore/`, {
      as: viewer,
    });
    expect(restore.json().code).toBe('not_permitted');
    for (const path of ['versions/', `versions/${kept.id}/`]) {
      expect((await call(t, 'GET', `documents/${doc.uuid}/${path}`, { as: stranger })).statusCode).toBe(404);
    }
    // A version of another plan is not found through this one.
    const other = await createDocument(t, owner);
    expect(
      (await call(t, 'GET', `documents/${other.uuid}/versions/${kept.id}/`, { as: owner })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'POST', `documents/${other.uuid}/versions/${kept.id}/restore/`, { as: owner }))
        .statusCode,
    ).toBe(404);
  });

  it('VE5 bad names get clear answers and keep nothing: empty, too long, control characters, an id, "now", hostile text', async () => {
    const doc = await createDocument(t, owner);
    for (const name of [
      '',
      '   ',
      'x'.repeat(101),
      'tab\there',
      'now',
      'NOW',
      '0a900000-0000-4000-8000-000000000001',
      42,
    ]) {
      const res = await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name } });
      expect(res.statusCode, String(name)).toBe(400);
      expect(JSON.stringify(res.json())).toContain('name');
    }
    let kept = 0;
    for (const name of hostileStrings) {
      const res = await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name } });
      expect([201, 400, 409], name).toContain(res.statusCode);
      if (res.statusCode === 201) {
        kept++;
        expect(res.json().name).toBe(name.trim());
      }
    }
    const listed = await call(t, 'GET', `documents/${doc.uuid}/versions/`, { as: owner });
    expect(listed.json().meta.pagination.total).toBe(kept);
    expect(
      (
        await call(t, 'GET', `documents/${doc.uuid}/versions/${encodeURIComponent('no such version')}/`, {
          as: owner,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('VE6 retention: automatic versions kept before the cut are pruned; named versions stay for ever', async () => {
    const doc = await createDocument(t, owner);
    await write(doc, 'Old words.');
    await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name: 'Keep me' } });
    const cut = new Date(clock.getTime() + 1);
    advance(2 * HOURLY_VERSION_MS);
    await write(doc, 'New words.');
    expect((await versions(doc)).map((version) => version.kind).sort()).toEqual([
      'hourly',
      'hourly',
      'named',
    ]);
    expect(await t.storage.documentVersions.pruneAutomatic(cut)).toBeGreaterThanOrEqual(1);
    expect((await versions(doc)).map((version) => version.kind).sort()).toEqual(['hourly', 'named']);
  });

  it('VE7 a diff from a version to now, or between two versions, section by section and word by word; JSON or Markdown', async () => {
    const doc = await createDocument(t, owner, { title: 'Diff plan' });
    await write(doc, 'A market of 3 billion.');
    await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name: 'v1' } });
    advance(60_000);
    await write(doc, 'A market of 4 billion.');
    await call(t, 'POST', `documents/${doc.uuid}/versions/`, { as: owner, body: { name: 'v2' } });
    const json = await call(t, 'GET', `documents/${doc.uuid}/diff/?from=v1`, { as: owner });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json()).toMatchObject({
      from: { name: 'v1' },
      to: { now: true },
      summary: { changed: 1, added: 0, removed: 0 },
    });
    const changed = json
      .json()
      .sections.flatMap((part: { subsections: unknown[] }) => part.subsections)
      .find((part: { status: string }) => part.status === 'changed');
    expect(changed.words).toEqual([
      { kind: 'same', text: 'A market of ' },
      { kind: 'removed', text: '3' },
      { kind: 'added', text: '4' },
      { kind: 'same', text: ' billion.' },
    ]);
    const md = await call(t, 'GET', `documents/${doc.uuid}/diff/?from=v1&to=v2&format=md`, { as: owner });
    expect(md.statusCode).toBe(200);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.body).toContain('# Changes from “v1” to “v2”');
    expect(md.body).toContain('A market of {--3--}{++4++} billion.');
    const word = await call(t, 'GET', `documents/${doc.uuid}/diff/?from=v1&to=v2&format=docx`, { as: owner });
    expect(word.statusCode).toBe(200);
    expect(word.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(word.headers['content-disposition']).toContain('Diff plan - changes.docx');
    const xml = new TextDecoder().decode(unzipSync(word.rawPayload)['word/document.xml']);
    expect(xml).toMatch(/<w:ins [^>]*w:author="Olive"[^>]*>.*?<w:t[^>]*>4<\/w:t>/s);
    expect(xml).toMatch(/<w:del [^>]*>.*?<w:delText[^>]*>3<\/w:delText>/s);
    const none = await call(t, 'GET', `documents/${doc.uuid}/diff/?from=v2`, { as: owner });
    expect(none.json().summary.changed).toBe(0);

    // Refusals: no `from`, an unknown format, a version of another plan, a stranger.
    expect((await call(t, 'GET', `documents/${doc.uuid}/diff/`, { as: owner })).statusCode).toBe(400);
    expect(
      (await call(t, 'GET', `documents/${doc.uuid}/diff/?from=v1&format=pdf`, { as: owner })).statusCode,
    ).toBe(400);
    const other = await createDocument(t, owner);
    const foreign = (
      await call(t, 'POST', `documents/${other.uuid}/versions/`, { as: owner, body: { name: 'Other' } })
    ).json();
    expect(
      (await call(t, 'GET', `documents/${doc.uuid}/diff/?from=${foreign.id}`, { as: owner })).statusCode,
    ).toBe(404);
    const stranger = await createSignedInUser(t, { email: `diff-stranger-${++counter}@example.com` }, now);
    expect((await call(t, 'GET', `documents/${doc.uuid}/diff/?from=v1`, { as: stranger })).statusCode).toBe(
      404,
    );
  });
});
