import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  call,
  createDocument,
  expectRowsMatchTree,
  rowsOutline,
  treeOutline,
} from '../support/workspace-calls.js';

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

const text = (value: string) => [{ type: 'text', text: value }];
const paragraph = (value: string) => ({ type: 'paragraph', content: text(value) });
const subsection = (uuid: string, title: string, extra: Record<string, unknown> = {}) => ({
  type: 'subsection',
  attrs: { uuid, ...extra },
  content: [{ type: 'subsectionHeading', content: text(title) }, paragraph(`${title} body`)],
});
const section = (
  uuid: string,
  title: string,
  subsections: unknown[] = [],
  extra: Record<string, unknown> = {},
) => ({
  type: 'section',
  attrs: { uuid, ...extra },
  content: [{ type: 'sectionHeading', content: text(title) }, ...subsections],
});

async function patchContent(uuid: string, content: unknown, headers: Record<string, string> = {}) {
  return call(t, 'PATCH', `documents/${uuid}/`, { as: ada, body: { content }, headers });
}

async function activitiesOf(objectId: string) {
  const res = await call(t, 'GET', `activities/activities/?object_id=${objectId}&page_size=100`, { as: ada });
  return res.json().data as Array<{
    verb: string;
    message: string;
    level: number;
    child_target_label: string | null;
  }>;
}

describe('reconciliation: the rows follow the content tree', () => {
  it('adds, removes, reorders and renames sections and subsections; rows and tree agree', async () => {
    const doc = await createDocument(t, ada);
    const [first, second, third] = doc.sections;
    // Settings on a subsection that survives, and on a section that will be removed.
    const kept = first.subsections[1];
    await call(t, 'PATCH', `documents/${doc.uuid}/sections/${first.uuid}/subsections/${kept.uuid}/`, {
      as: ada,
      body: { user_hint: 'Kept hint', tool_mode: 'mcp', mcp_url: 'https://mcp.example.com/sse' },
    });
    const fresh = randomUUID();
    const freshSub = randomUUID();
    const content = {
      type: 'doc',
      content: [
        // third moved first and renamed; second removed; first kept with its subsections reversed and one added.
        {
          ...structuredClone(doc.content.content[2]),
          content: [
            { type: 'sectionHeading', content: text('Markets, renamed') },
            ...doc.content.content[2].content.slice(1),
          ],
        },
        {
          ...structuredClone(doc.content.content[0]),
          content: [
            doc.content.content[0].content[0],
            ...doc.content.content[0].content.slice(1).reverse(),
            subsection(freshSub, 'Brand new subsection'),
          ],
        },
        section(fresh, 'Brand new section', [subsection(randomUUID(), 'Inside the new one')]),
        ...doc.content.content.slice(3),
      ],
    };
    tick();
    const res = await patchContent(doc.uuid, content);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectRowsMatchTree(body);
    expect(body.sections.map((s: { uuid: string }) => s.uuid).slice(0, 3)).toEqual([
      third.uuid,
      first.uuid,
      fresh,
    ]);
    expect(body.sections.find((s: { uuid: string }) => s.uuid === second.uuid)).toBeUndefined();
    expect(body.sections[0]).toMatchObject({
      title: 'Markets, renamed',
      order: 1,
      developer_prompt: third.developer_prompt,
    });
    const movedFirst = body.sections[1];
    expect(movedFirst.subsections.map((s: { uuid: string }) => s.uuid)).toEqual([
      ...first.subsections.map((s: { uuid: string }) => s.uuid).reverse(),
      freshSub,
    ]);
    const keptNow = movedFirst.subsections.find((s: { uuid: string }) => s.uuid === kept.uuid);
    expect(keptNow).toMatchObject({
      user_hint: 'Kept hint',
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.com/sse',
    });
    expect(movedFirst.subsections.at(-1)).toMatchObject({
      title: 'Brand new subsection',
      developer_prompt: '',
      tool_mode: '',
    });
    expect(body.sections[2]).toMatchObject({
      title: 'Brand new section',
      blueprint_uuid: null,
      developer_prompt: '',
    });

    // The stored rows say the same after a fresh read.
    const again = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expect(rowsOutline(again)).toEqual(treeOutline(again.content));
    expect(again.sections).toEqual(body.sections);

    const verbs = (await activitiesOf(doc.uuid)).map((a) => `${a.verb}: ${a.child_target_label}`);
    expect(verbs).toEqual(
      expect.arrayContaining([
        `renamed section: Markets, renamed`,
        `removed section: ${second.title}`,
        'added section: Brand new section',
        'added subsection: Brand new subsection',
      ]),
    );
    // Moves record nothing; the new section's own subsection is told by the section's event.
    expect(verbs.filter((v) => v.startsWith('added subsection'))).toEqual([
      'added subsection: Brand new subsection',
    ]);
    expect((await activitiesOf(doc.uuid)).find((a) => a.verb === 'renamed section')?.level).toBe(2);
  });

  it('a new part naming a blueprint part takes its settings', async () => {
    const doc = await createDocument(t, ada);
    const blueprintSection = doc.sections[4];
    const withoutFifth = {
      type: 'doc',
      content: doc.content.content.filter((_: unknown, i: number) => i !== 4),
    };
    const removed = await patchContent(doc.uuid, withoutFifth);
    expect(removed.json().sections.length).toBe(doc.sections.length - 1);
    const again = {
      type: 'doc',
      content: [
        ...withoutFifth.content,
        section(randomUUID(), 'Back again', [], { blueprint_uuid: blueprintSection.blueprint_uuid }),
      ],
    };
    const res = await patchContent(doc.uuid, again);
    expect(res.json().sections.at(-1)).toMatchObject({
      title: 'Back again',
      blueprint_uuid: blueprintSection.blueprint_uuid,
      developer_prompt: blueprintSection.developer_prompt,
      user_hint: blueprintSection.user_hint,
    });
  });

  it('finalize and reopen through content are level-1 activities; progress and status follow', async () => {
    const doc = await createDocument(t, ada);
    const content = structuredClone(doc.content);
    content.content[0].content[1].attrs.finalized = true;
    const res = await patchContent(doc.uuid, content);
    expect(res.json().progress.finalized).toBe(1);
    expect(res.json().sections[0].subsections[0].finalized).toBe(true);
    content.content[0].content[1].attrs.finalized = false;
    await patchContent(doc.uuid, content);
    const entries = await activitiesOf(doc.uuid);
    expect(
      entries.filter((a) => a.verb === 'finalized' || a.verb === 'reopened').map((a) => [a.verb, a.level]),
    ).toEqual(
      expect.arrayContaining([
        ['finalized', 1],
        ['reopened', 1],
      ]),
    );
  });

  it('plain text edits record nothing and change no row', async () => {
    const doc = await createDocument(t, ada);
    const content = structuredClone(doc.content);
    content.content[0].content[1].content.push(paragraph('Just some prose.'));
    const res = await patchContent(doc.uuid, content);
    expect(res.json().revision).toBe(2);
    expect(res.json().sections).toEqual(doc.sections);
    expect((await activitiesOf(doc.uuid)).map((a) => a.verb)).toEqual(['created']);
  });

  it('duplicate uuids in one tree get fresh ones: no row clash, rows and tree agree', async () => {
    const doc = await createDocument(t, ada);
    const twin = randomUUID();
    const content = {
      type: 'doc',
      content: [
        section(twin, 'One', [subsection(twin, 'Clash with its section'), subsection(randomUUID(), 'Fine')]),
        section(twin, 'Two', [subsection(doc.sections[0].uuid, 'Named like an old section')]),
        section('not-a-uuid', 'Three'),
        section(twin.toUpperCase(), 'Four'),
      ],
    };
    const res = await patchContent(doc.uuid, content);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectRowsMatchTree(body);
    const uuids = [
      ...body.sections.map((s: { uuid: string }) => s.uuid),
      ...body.sections.flatMap((s: { subsections: Array<{ uuid: string }> }) =>
        s.subsections.map((x) => x.uuid),
      ),
    ];
    expect(new Set(uuids).size).toBe(uuids.length);
    expect(body.sections[0].uuid).toBe(twin);
    for (const uuid of uuids)
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('removes javascript: links and flattens unknown nodes, keeping their text', async () => {
    const doc = await createDocument(t, ada);
    const content = structuredClone(doc.content);
    content.content[0].content[1].content.push({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'click', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
        { type: 'mystery', content: [{ type: 'text', text: ' me' }] },
      ],
    });
    const res = await patchContent(doc.uuid, content);
    expect(res.statusCode).toBe(200);
    const stored = JSON.stringify(res.json().content);
    expect(stored).not.toContain('javascript:');
    expect(stored).not.toContain('mystery');
    expect(stored).toContain('click');
  });
});

describe('content that cannot be repaired', () => {
  it.each([
    ['null', null, 'content'],
    ['a string', 'hello', 'content'],
    ['an array', [], 'content'],
    ['not a doc', { type: 'paragraph' }, 'content'],
    ['content not a list', { type: 'doc', content: 'x' }, 'content'],
    ['a node that is no object', { type: 'doc', content: [7] }, 'content.content[0]'],
    [
      'text that is no string',
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 5 }] }] },
      'content.content[0].content[0]',
    ],
  ])('refuses %s with 400 invalid_content naming the path', async (_name, content, param) => {
    const doc = await createDocument(t, ada);
    const res = await patchContent(doc.uuid, content);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('invalid_content');
    expect(res.json().errors[0].param).toBe(param);
    expect((await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json().revision).toBe(1);
  });

  it('refuses text PostgreSQL cannot store (NUL, lone surrogates) with 400 invalid_content', async () => {
    const doc = await createDocument(t, ada);
    for (const bad of ['a\u0000b', 'a\ud800b', '\udfff']) {
      const content = structuredClone(doc.content);
      content.content[0].content[0].content = text(bad);
      const res = await patchContent(doc.uuid, content);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().code).toBe('invalid_content');
      expect(res.json().errors[0].param).toBe('content.content[0].content[0].content[0].text');
    }
  });

  it('refuses a tree nested deeper than the model allows', async () => {
    const doc = await createDocument(t, ada);
    let node: Record<string, unknown> = paragraph('deep');
    for (let i = 0; i < 200; i++) node = { type: 'blockquote', content: [node] };
    const res = await patchContent(doc.uuid, {
      type: 'doc',
      content: [section(randomUUID(), 'Deep', [], {}), node],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_content');
  });

  it('refuses JSON nested beyond what can be parsed, without a 500', async () => {
    const doc = await createDocument(t, ada);
    const depth = 200_000;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/documents/${doc.uuid}/`,
      headers: { ...ada.headers, 'content-type': 'application/json' },
      payload: `{"content":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('takes content bodies above the 1 MiB default, and refuses more than 5 MiB with 413', async () => {
    const doc = await createDocument(t, ada);
    const big = structuredClone(doc.content);
    big.content[0].content[1].content.push(paragraph('x'.repeat(2 * 1024 * 1024)));
    const ok = await patchContent(doc.uuid, big);
    expect(ok.statusCode).toBe(200);
    const huge = structuredClone(doc.content);
    huge.content[0].content[1].content.push(paragraph('x'.repeat(5 * 1024 * 1024)));
    const tooBig = await patchContent(doc.uuid, huge);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe('payload_too_large');
  });

  it('takes a tree of many sections (rows inserted in batches)', async () => {
    const doc = await createDocument(t, ada);
    const sections = Array.from({ length: 400 }, (_, i) =>
      section(randomUUID(), `Section ${i}`, [
        subsection(randomUUID(), `A ${i}`),
        subsection(randomUUID(), `B ${i}`),
        subsection(randomUUID(), `C ${i}`),
      ]),
    );
    const res = await patchContent(doc.uuid, { type: 'doc', content: sections });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().sections.length).toBe(400);
    expect(res.json().progress.total).toBe(1200);
    expectRowsMatchTree(res.json());
  });
});
