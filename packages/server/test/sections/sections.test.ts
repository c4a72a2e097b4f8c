import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, expectRowsMatchTree } from '../support/workspace-calls.js';

let t: TestApp;
const clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
let ada: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada' }, now);
  bob = await createSignedInUser(t, { email: 'bob@example.com' }, now);
});
afterAll(async () => {
  await t?.close();
});

type Kind = 'documents' | 'blueprints';
const parentKey = { documents: 'document', blueprints: 'blueprint' } as const;

/** A fresh parent of `kind` owned by Ada, as its detail answer. */
async function newParent(kind: Kind) {
  if (kind === 'documents') return createDocument(t, ada);
  const res = await call(t, 'POST', 'blueprints/', { as: ada });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function reload(kind: Kind, uuid: string) {
  const res = await call(t, 'GET', `${kind}/${uuid}/`, { as: ada });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe.each(['documents', 'blueprints'] as const)('sections of %s', (kind) => {
  const key = parentKey[kind];

  it('POST sections/ appends "New Section" with the parent detail; 201, ETag, rows and tree agree', async () => {
    const parent = await newParent(kind);
    const res = await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada, body: { title: null } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(res.headers.etag).toBe('"2"');
    expect(body).toMatchObject({
      title: 'New Section',
      order: parent.sections.length + 1,
      developer_prompt: '',
      user_hint: '',
      tool_mode: '',
      mcp_url: '',
      subsections: [],
    });
    expect(body[key].revision).toBe(2);
    expect(body[key].sections.at(-1).uuid).toBe(body.uuid);
    expectRowsMatchTree(body[key]);
    expectRowsMatchTree(await reload(kind, parent.uuid));
  });

  it('POST sections/ places by order (clamped) or after a section; an unknown `after` is 400', async () => {
    const parent = await newParent(kind);
    const first = parent.sections[0].uuid;
    const atTop = await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, {
      as: ada,
      body: { title: 'Top', order: 1 },
    });
    expect(atTop.json()).toMatchObject({ title: 'Top', order: 1 });
    const far = await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada, body: { order: 999 } });
    expect(far.json().order).toBe(far.json()[key].sections.length);
    const after = await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, {
      as: ada,
      body: { title: 'After first', after: first },
    });
    const titles = after.json()[key].sections.map((s: { title: string }) => s.title);
    expect(titles.indexOf('After first')).toBe(titles.indexOf(parent.sections[0].title) + 1);
    const unknown = await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, {
      as: ada,
      body: { after: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].param).toBe('after');
    for (const body of [{ order: 0 }, { order: 1.5 }, { order: '2' }, { title: '' }, { after: 'x' }]) {
      const bad = await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().errors[0].param).toBe(Object.keys(body)[0]);
    }
    expectRowsMatchTree(await reload(kind, parent.uuid));
  });

  it('GET a section answers it with settings, subsections and the parent ETag', async () => {
    const parent = await newParent(kind);
    const section = parent.sections[0];
    const res = await call(t, 'GET', `${kind}/${parent.uuid}/sections/${section.uuid}/`, { as: ada });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe(`"${parent.revision}"`);
    expect(res.json()).toEqual(section);
    const missing = await call(
      t,
      'GET',
      `${kind}/${parent.uuid}/sections/00000000-0000-4000-8000-000000000000/`,
      { as: ada },
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Section not found.');
  });

  it('PATCH a section renames its heading and moves it; the tree follows', async () => {
    const parent = await newParent(kind);
    await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada, body: { title: 'Second' } });
    const section = parent.sections[0];
    const res = await call(t, 'PATCH', `${kind}/${parent.uuid}/sections/${section.uuid}/`, {
      as: ada,
      body: { title: '  Renamed  ', order: 99 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await reload(kind, parent.uuid);
    expect(res.json()).toMatchObject({ uuid: section.uuid, title: 'Renamed', order: after.sections.length });
    expect(res.headers.etag).toBe(`"${after.revision}"`);
    const last = after.content.content.at(-1);
    expect(last.attrs.uuid).toBe(section.uuid);
    expect(last.content[0].content[0].text).toBe('Renamed');
    expectRowsMatchTree(after);
  });

  it('PUT a section sets its settings under the MCP rule', async () => {
    const parent = await newParent(kind);
    const url = `${kind}/${parent.uuid}/sections/${parent.sections[0].uuid}/`;
    const ok = await call(t, 'PUT', url, {
      as: ada,
      body: {
        developer_prompt: 'Be brief.\n\nCite sources.',
        user_hint: 'Hint',
        tool_mode: 'mcp',
        mcp_url: 'https://mcp.example.com/x',
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      developer_prompt: 'Be brief.\n\nCite sources.',
      user_hint: 'Hint',
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.com/x',
    });
    // Another mode clears the URL; sending one with another mode is refused.
    const web = await call(t, 'PATCH', url, { as: ada, body: { tool_mode: 'web' } });
    expect(web.json()).toMatchObject({ tool_mode: 'web', mcp_url: '' });
    const refused = await call(t, 'PATCH', url, { as: ada, body: { mcp_url: 'https://mcp.example.com/x' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toEqual({
      param: 'mcp_url',
      code: 'mcp_disabled',
      message: 'Enable MCP to set a URL.',
    });
    for (const mcp_url of [
      'javascript:alert(1)',
      'ftp://x.example.com',
      'not a url',
      'https://exa mple.com',
    ]) {
      const bad = await call(t, 'PATCH', url, { as: ada, body: { tool_mode: 'mcp', mcp_url } });
      expect(bad.statusCode, mcp_url).toBe(400);
      expect(bad.json().errors[0].param).toBe('mcp_url');
    }
    for (const body of [
      { tool_mode: 'telepathy' },
      { developer_prompt: 'x'.repeat(20_001) },
      { user_hint: 'a\u0001b' },
      { order: -1 },
    ]) {
      const bad = await call(t, 'PATCH', url, { as: ada, body });
      expect(bad.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(bad.json().errors[0].param).toBe(Object.keys(body)[0]);
    }
    expect((await call(t, 'GET', url, { as: ada })).json()).toMatchObject({ tool_mode: 'web', mcp_url: '' });
  });

  it('a subsection’s settings round trip through PUT and GET, under the same MCP rule', async () => {
    const parent = await newParent(kind);
    const section = parent.sections[0];
    const created = await call(t, 'POST', `${kind}/${parent.uuid}/sections/${section.uuid}/subsections/`, {
      as: ada,
      body: { title: 'Pricing' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `${kind}/${parent.uuid}/sections/${section.uuid}/subsections/${created.json().uuid}/`;
    const settings = {
      developer_prompt: 'Compare with three rivals.',
      user_hint: 'What does a customer pay, and how often?\nدفع 💶',
      tool_mode: 'mcp',
      mcp_url: 'http://127.0.0.1:9000/mcp',
    };
    const put = await call(t, 'PUT', url, { as: ada, body: settings });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call(t, 'GET', url, { as: ada })).json()).toMatchObject({ ...settings, title: 'Pricing' });
    const bad = await call(t, 'PUT', url, {
      as: ada,
      body: { tool_mode: 'mcp', mcp_url: 'file:///etc/passwd' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ param: 'mcp_url', code: 'invalid_url' });
    expect((await call(t, 'GET', url, { as: ada })).json()).toMatchObject(settings);
    const detail = await reload(kind, parent.uuid);
    expect(
      detail.sections[0].subsections.find((sub: { title: string }) => sub.title === 'Pricing'),
    ).toMatchObject(settings);
  });

  it('settings survive a content write that moves their section', async () => {
    const parent = await newParent(kind);
    await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada, body: { title: 'Other' } });
    const section = parent.sections[0];
    await call(t, 'PATCH', `${kind}/${parent.uuid}/sections/${section.uuid}/`, {
      as: ada,
      body: { user_hint: 'Stay' },
    });
    const current = await reload(kind, parent.uuid);
    const reversed = { type: 'doc', content: [...current.content.content].reverse() };
    const res = await call(t, 'PATCH', `${kind}/${parent.uuid}/`, { as: ada, body: { content: reversed } });
    const moved = res.json().sections.find((s: { uuid: string }) => s.uuid === section.uuid);
    expect(moved).toMatchObject({ user_hint: 'Stay', order: current.sections.length });
  });

  it('PUT …/content/ replaces the section node (same uuid); a mismatch or bad node is 400', async () => {
    const parent = await newParent(kind);
    const section = parent.sections[0];
    const url = `${kind}/${parent.uuid}/sections/${section.uuid}/content/`;
    const node = {
      type: 'section',
      attrs: { uuid: section.uuid },
      content: [
        { type: 'sectionHeading', content: [{ type: 'text', text: 'Rewritten' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Intro' }] },
        {
          type: 'subsection',
          content: [{ type: 'subsectionHeading', content: [{ type: 'text', text: 'Only child' }] }],
        },
      ],
    };
    const res = await call(t, 'PUT', url, { as: ada, body: { content: node } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uuid: section.uuid, title: 'Rewritten' });
    expect(res.json().subsections.map((s: { title: string }) => s.title)).toEqual(['Only child']);
    expectRowsMatchTree(await reload(kind, parent.uuid));

    const other = await call(t, 'PUT', url, {
      as: ada,
      body: { content: { ...node, attrs: { uuid: '00000000-0000-4000-8000-000000000000' } } },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].param).toBe('content.attrs.uuid');
    const notSection = await call(t, 'PUT', url, { as: ada, body: { content: { type: 'paragraph' } } });
    expect(notSection.statusCode).toBe(400);
    expect(notSection.json().code).toBe('invalid_content');
    const badText = await call(t, 'PUT', url, {
      as: ada,
      body: {
        content: { ...node, content: [{ type: 'sectionHeading', content: [{ type: 'text', text: 9 }] }] },
      },
    });
    expect(badText.statusCode).toBe(400);
    expect(badText.json().errors[0].param).toBe('content.content[0].content[0]');
    const nul = await call(t, 'PUT', url, {
      as: ada,
      body: {
        content: {
          ...node,
          content: [{ type: 'sectionHeading', content: [{ type: 'text', text: 'a\u0000' }] }],
        },
      },
    });
    expect(nul.statusCode).toBe(400);
    expect((await call(t, 'PUT', url, { as: ada, body: {} })).statusCode).toBe(400);
    expect((await reload(kind, parent.uuid)).sections[0].title).toBe('Rewritten');
  });

  it('DELETE a section answers 204 with the new ETag; the only section answers 409 last_section', async () => {
    const parent = await newParent(kind);
    const added = (await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada })).json();
    const res = await call(t, 'DELETE', `${kind}/${parent.uuid}/sections/${added.uuid}/`, { as: ada });
    expect(res.statusCode).toBe(204);
    expect(res.headers.etag).toBe('"3"');
    let current = await reload(kind, parent.uuid);
    for (const section of current.sections.slice(1)) {
      expect(
        (await call(t, 'DELETE', `${kind}/${parent.uuid}/sections/${section.uuid}/`, { as: ada })).statusCode,
      ).toBe(204);
    }
    current = await reload(kind, parent.uuid);
    expect(current.sections.length).toBe(1);
    const last = await call(t, 'DELETE', `${kind}/${parent.uuid}/sections/${current.sections[0].uuid}/`, {
      as: ada,
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ detail: `A ${key} keeps at least one section.`, code: 'last_section' });
    expect((await reload(kind, parent.uuid)).revision).toBe(current.revision);
  });

  it('subsections: create (answer nests the section and parent), get, patch, delete', async () => {
    const parent = await newParent(kind);
    const section = parent.sections[0];
    const base = `${kind}/${parent.uuid}/sections/${section.uuid}/subsections/`;
    const created = await call(t, 'POST', base, { as: ada, body: { title: 'Risks', order: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json();
    expect(sub).toMatchObject({ title: 'Risks', order: 1, developer_prompt: '', tool_mode: '' });
    expect('finalized' in sub).toBe(kind === 'documents');
    expect(sub.section.uuid).toBe(section.uuid);
    expect(sub.section[key].uuid).toBe(parent.uuid);
    expectRowsMatchTree(sub.section[key]);
    const untitled = (await call(t, 'POST', base, { as: ada })).json();
    expect(untitled.title).toBe('New Subsection');
    expect(untitled.order).toBe(untitled.section.subsections.length);

    const url = `${base}${sub.uuid}/`;
    const got = await call(t, 'GET', url, { as: ada });
    expect(got.json()).toEqual(
      untitled.section.subsections.find((s: { uuid: string }) => s.uuid === sub.uuid),
    );
    const patched = await call(t, 'PATCH', url, {
      as: ada,
      body: { title: 'Risks and mitigations', order: 99, user_hint: 'Be honest' },
    });
    expect(patched.json()).toMatchObject({
      title: 'Risks and mitigations',
      order: untitled.section.subsections.length,
      user_hint: 'Be honest',
    });
    expectRowsMatchTree(await reload(kind, parent.uuid));

    // A subsection under another section of the same parent is not found there.
    const otherSection = (await call(t, 'POST', `${kind}/${parent.uuid}/sections/`, { as: ada })).json();
    const wrong = await call(
      t,
      'GET',
      `${kind}/${parent.uuid}/sections/${otherSection.uuid}/subsections/${sub.uuid}/`,
      { as: ada },
    );
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().detail).toBe('Subsection not found.');

    expect((await call(t, 'DELETE', url, { as: ada })).statusCode).toBe(204);
    expect((await call(t, 'GET', url, { as: ada })).statusCode).toBe(404);
    expectRowsMatchTree(await reload(kind, parent.uuid));
  });

  it('section writes honour If-Match against the parent revision', async () => {
    const parent = await newParent(kind);
    const url = `${kind}/${parent.uuid}/sections/${parent.sections[0].uuid}/`;
    const stale = await call(t, 'PATCH', url, {
      as: ada,
      body: { title: 'x' },
      headers: { 'if-match': '"9"' },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ code: 'revision_mismatch', current_revision: parent.revision });
    const fresh = await call(t, 'PATCH', url, {
      as: ada,
      body: { title: 'y' },
      headers: { 'if-match': `"${parent.revision}"` },
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.etag).toBe(`"${parent.revision + 1}"`);
  });

  it('another user gets 404 on every section write', async () => {
    const parent = await newParent(kind);
    const section = parent.sections[0];
    const sub = section.subsections[0];
    const writes: Array<['POST' | 'PATCH' | 'PUT' | 'DELETE', string, unknown?]> = [
      ['POST', `${kind}/${parent.uuid}/sections/`, {}],
      ['PATCH', `${kind}/${parent.uuid}/sections/${section.uuid}/`, { title: 'x' }],
      ['DELETE', `${kind}/${parent.uuid}/sections/${section.uuid}/`],
      ['POST', `${kind}/${parent.uuid}/sections/${section.uuid}/subsections/`, {}],
      ['PATCH', `${kind}/${parent.uuid}/sections/${section.uuid}/subsections/${sub.uuid}/`, { title: 'x' }],
      ['DELETE', `${kind}/${parent.uuid}/sections/${section.uuid}/subsections/${sub.uuid}/`],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(t, method, path, { as: bob, body });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await reload(kind, parent.uuid)).revision).toBe(parent.revision);
  });
});

describe('finalize', () => {
  it('a document subsection is finalized and reopened through `finalized`; progress and tree follow', async () => {
    const doc = await createDocument(t, ada);
    const section = doc.sections[0];
    const url = `documents/${doc.uuid}/sections/${section.uuid}/subsections/${section.subsections[0].uuid}/`;
    const res = await call(t, 'PATCH', url, { as: ada, body: { finalized: true } });
    expect(res.json().finalized).toBe(true);
    const after = await reload('documents', doc.uuid);
    expect(after.progress.finalized).toBe(1);
    expect(after.content.content[0].content[1].attrs.finalized).toBe(true);
    expectRowsMatchTree(after);
    expect((await call(t, 'PATCH', url, { as: ada, body: { finalized: false } })).json().finalized).toBe(
      false,
    );
    expect((await call(t, 'PATCH', url, { as: ada, body: { finalized: 'yes' } })).statusCode).toBe(400);
  });

  it('blueprint subsections cannot be finalized, not even through content', async () => {
    const bp = await newParent('blueprints');
    const section = bp.sections[0];
    const url = `blueprints/${bp.uuid}/sections/${section.uuid}/subsections/${section.subsections[0].uuid}/`;
    const res = await call(t, 'PATCH', url, { as: ada, body: { finalized: true } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].param).toBe('finalized');
    const content = structuredClone(bp.content);
    content.content[0].content[1].attrs.finalized = true;
    const written = await call(t, 'PATCH', `blueprints/${bp.uuid}/`, { as: ada, body: { content } });
    expect(written.json().content.content[0].content[1].attrs.finalized).toBe(false);
  });
});
