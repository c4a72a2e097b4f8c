import type { DocumentJson } from '@planwright/sdk/model';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAW_JSON_MIN_BYTES } from '../../src/http/json-body-parser.js';
import { normalizeContentInput } from '../../src/structure/content-input.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, expectRowsMatchTree } from '../support/workspace-calls.js';

// Bodies from RAW_JSON_MIN_BYTES on are parsed, validated and normalised in a worker thread: every answer
// must be the one the event loop gives a small body (each case compares the two paths).
let t: TestApp;
let ada: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  ada = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada' });
});
afterAll(async () => {
  await t?.close();
});

function patch(
  uuid: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/v1/documents/${uuid}/`,
    headers: { ...ada.headers, 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

/** The document's tree with `paragraphs` long paragraphs added to its first section, normalised. */
async function grownTree(uuid: string, paragraphs: number): Promise<DocumentJson> {
  const tree = (await call(t, 'GET', `documents/${uuid}/`, { as: ada })).json().content as DocumentJson;
  const [first] = tree.content;
  if (!first) throw new Error('the document has no section');
  const [heading, ...rest] = first.content;
  const blocks = Array.from({ length: paragraphs }, (_, index) => ({
    type: 'paragraph',
    content: [{ type: 'text', text: `Paragraph ${index}: ${'market and revenue plans '.repeat(12)}` }],
  }));
  const grown = {
    ...tree,
    content: [{ ...first, content: [heading, ...blocks, ...rest] }, ...tree.content.slice(1)],
  };
  // Normalised once here, so the server's normalisation (which would add node ids) changes nothing.
  return normalizeContentInput(grown);
}

/** The same body, once small (inline) and once padded past the threshold with spaces (off-thread). */
function padded(body: string): string {
  return body + ' '.repeat(RAW_JSON_MIN_BYTES);
}

describe('large content saves (off the event loop)', () => {
  it('saves a large tree: the answer holds it exactly, rows and progress rebuilt from it, revision up', async () => {
    const doc = await createDocument(t, ada);
    const tree = await grownTree(doc.uuid, 1200);
    const body = JSON.stringify({ content: tree, title: 'Large plan' });
    expect(body.length).toBeGreaterThan(RAW_JSON_MIN_BYTES);
    const res = await patch(doc.uuid, body);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.content).toEqual(tree);
    expect(answer.title).toBe('Large plan');
    expect(answer.revision).toBe(doc.revision + 1);
    expect(res.headers.etag).toBe(`"${answer.revision}"`);
    expectRowsMatchTree(answer);
    const read = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(read.content).toEqual(tree);
    expect(read.sections).toEqual(answer.sections);
  });

  it('a large save with a stale If-Match answers 412 like a small one and saves nothing', async () => {
    const doc = await createDocument(t, ada);
    const tree = await grownTree(doc.uuid, 1200);
    const small = await patch(doc.uuid, JSON.stringify({ title: 'x' }), { 'if-match': '"999"' });
    const large = await patch(doc.uuid, JSON.stringify({ content: tree }), { 'if-match': '"999"' });
    expect(large.statusCode).toBe(412);
    expect(large.json()).toEqual(small.json());
    const read = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(read.revision).toBe(doc.revision);
  });

  it.each([
    ['malformed JSON', '{"content": {"type": "doc", '],
    ['prototype poisoning', '{"__proto__": {"admin": true}, "title": "x"}'],
    ['a title that is not a string', '{"title": 42}'],
    ['content that is not a tree', '{"content": "nope"}'],
    [
      'text PostgreSQL cannot store',
      '{"content": {"type": "doc", "content": [{"type": "section", "content": [{"type": "sectionHeading", "content": [{"type": "text", "text": "a\\u0000b"}]}]}]}}',
    ],
  ])('%s: the large body gets the small body’s answer exactly', async (_name, body) => {
    const doc = await createDocument(t, ada);
    const small = await patch(doc.uuid, body);
    const large = await patch(doc.uuid, padded(body));
    expect(small.statusCode).toBeGreaterThanOrEqual(400);
    expect(small.statusCode).toBeLessThan(500);
    expect([large.statusCode, large.json()]).toEqual([small.statusCode, small.json()]);
    const read = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(read.revision).toBe(doc.revision);
  });

  it('a malformed document uuid answers 404 before a large body’s validation error, as a small body does', async () => {
    const missing = 'not-a-uuid';
    const body = '{"title": 42}';
    const small = await patch(missing, body);
    const large = await patch(missing, padded(body));
    expect(small.statusCode).toBe(404);
    expect([large.statusCode, large.json()]).toEqual([small.statusCode, small.json()]);
  });
});
