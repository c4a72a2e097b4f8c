import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, hostileStrings } from '../support/workspace-calls.js';

/**
 * The four settings of a section and a subsection (spec 000 §7, spec 001 §7: developer_prompt, user_hint,
 * tool_mode, mcp_url), of a blueprint and of a document: they round trip through PUT and GET, and the
 * MCP rule (`docs/http-api.md` "Sections and subsections") holds through both PUT and PATCH.
 */
let t: TestApp;
const clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
let ada: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(t, { email: 'ada.settings@example.com', firstName: 'Ada' }, now);
});
afterAll(async () => {
  await t?.close();
});

type Kind = 'documents' | 'blueprints';
type Level = 'section' | 'subsection';

interface Part {
  /** The part's own URL, under `/api/v1/`. */
  url: string;
  /** Its parent's URL. */
  parentUrl: string;
  /** The part as its parent's detail shows it. */
  inParent(detail: ParentDetail): Record<string, unknown> | undefined;
}

interface ParentDetail {
  revision: number;
  sections: Array<{ uuid: string; subsections: Array<{ uuid: string }> }>;
}

/** A fresh parent of `kind` owned by Ada, and its first section or subsection. */
async function newPart(kind: Kind, level: Level): Promise<Part> {
  let parent: ParentDetail & { uuid: string };
  if (kind === 'documents') {
    parent = await createDocument(t, ada);
  } else {
    const res = await call(t, 'POST', 'blueprints/', { as: ada });
    expect(res.statusCode).toBe(201);
    parent = res.json();
  }
  const section = parent.sections[0];
  const subsection = section?.subsections[0];
  if (!section || !subsection) throw new Error('a section with a subsection expected');
  const parentUrl = `${kind}/${parent.uuid}/`;
  const sectionUrl = `${parentUrl}sections/${section.uuid}/`;
  return level === 'section'
    ? {
        url: sectionUrl,
        parentUrl,
        inParent: (detail) => detail.sections.find((row) => row.uuid === section.uuid),
      }
    : {
        url: `${sectionUrl}subsections/${subsection.uuid}/`,
        parentUrl,
        inParent: (detail) =>
          detail.sections
            .find((row) => row.uuid === section.uuid)
            ?.subsections.find((row) => row.uuid === subsection.uuid),
      };
}

async function get(url: string) {
  const res = await call(t, 'GET', url, { as: ada });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const SETTINGS = {
  developer_prompt: 'Compare with three rivals.\n\nCite sources <b>inline</b>.',
  user_hint: 'What does a customer pay? مرحبا 👩‍👩‍👧 \u202eevil',
  tool_mode: 'mcp',
  mcp_url: 'https://mcp.example.org/v1?key=a&b=c',
} as const;

const BAD_URLS = [
  'javascript:alert(1)',
  'file:///etc/passwd',
  'ftp://files.example.org',
  'data:text/html,<script>alert(1)</script>',
  'not a url',
  'https://',
  'http://exa mple.com',
];

describe.each([
  ['documents', 'section'],
  ['documents', 'subsection'],
  ['blueprints', 'section'],
  ['blueprints', 'subsection'],
] as const)('settings of a %s %s', (kind, level) => {
  it('round trip: PUT all four, GET them back, on the part and in its parent; no activity', async () => {
    const part = await newPart(kind, level);
    const before = (await get(part.parentUrl)) as ParentDetail & { uuid: string };
    const activity = async () =>
      (await get(`activities/activities/?object_id=${before.uuid}&page_size=100`)).data.length;
    const entries = await activity();

    const put = await call(t, 'PUT', part.url, { as: ada, body: SETTINGS });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject(SETTINGS);
    expect(put.headers.etag).toBe(`"${before.revision + 1}"`);
    expect(await get(part.url)).toMatchObject(SETTINGS);
    const after = (await get(part.parentUrl)) as ParentDetail;
    expect(part.inParent(after)).toMatchObject(SETTINGS);
    expect(after.revision).toBe(before.revision + 1);
    expect(await activity()).toBe(entries);

    // PATCH changes what it names and keeps the rest.
    const patched = await call(t, 'PATCH', part.url, { as: ada, body: { user_hint: 'Shorter.' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await get(part.url)).toMatchObject({ ...SETTINGS, user_hint: 'Shorter.' });
    // MCP may wait for its URL; another mode clears it.
    const waiting = await call(t, 'PUT', part.url, { as: ada, body: { tool_mode: 'mcp', mcp_url: '' } });
    expect(waiting.json()).toMatchObject({ tool_mode: 'mcp', mcp_url: '' });
    await call(t, 'PUT', part.url, { as: ada, body: SETTINGS });
    const web = await call(t, 'PATCH', part.url, { as: ada, body: { tool_mode: 'web' } });
    expect(web.json()).toMatchObject({ tool_mode: 'web', mcp_url: '' });
  });

  it.each(['PUT', 'PATCH'] as const)(
    '%s refuses a bad mcp_url with 400 naming it, and changes nothing',
    async (method) => {
      const part = await newPart(kind, level);
      await call(t, 'PUT', part.url, { as: ada, body: SETTINGS });
      const { revision } = (await get(part.parentUrl)) as ParentDetail;
      for (const mcp_url of BAD_URLS) {
        const res = await call(t, method, part.url, { as: ada, body: { tool_mode: 'mcp', mcp_url } });
        expect(res.statusCode, mcp_url).toBe(400);
        expect(res.json().errors, mcp_url).toEqual([
          expect.objectContaining({ param: 'mcp_url', code: 'invalid_url' }),
        ]);
      }
      const disabled = await call(t, method, part.url, {
        as: ada,
        body: { tool_mode: 'research', mcp_url: 'https://mcp.example.org/v2' },
      });
      expect(disabled.statusCode).toBe(400);
      expect(disabled.json().errors).toEqual([
        { param: 'mcp_url', code: 'mcp_disabled', message: 'Enable MCP to set a URL.' },
      ]);
      for (const mcp_url of [42, ['https://mcp.example.org'], { href: 'https://mcp.example.org' }]) {
        const res = await call(t, method, part.url, { as: ada, body: { tool_mode: 'mcp', mcp_url } });
        expect(res.statusCode, JSON.stringify(mcp_url)).toBe(400);
        expect(res.json().errors[0].param).toBe('mcp_url');
      }
      expect(await get(part.url)).toMatchObject(SETTINGS);
      expect(((await get(part.parentUrl)) as ParentDetail).revision).toBe(revision);
    },
  );
});

describe('mcp_url from the hostile corpus', () => {
  it('is stored only when it is an http(s) URL; everything else is a 400 naming mcp_url, never a 500', async () => {
    const part = await newPart('blueprints', 'subsection');
    for (const mcp_url of hostileStrings) {
      const res = await call(t, 'PATCH', part.url, { as: ada, body: { tool_mode: 'mcp', mcp_url } });
      const label = JSON.stringify(mcp_url);
      if (res.statusCode === 200) {
        expect(/^https?:\/\//i.test(res.json().mcp_url) || res.json().mcp_url === '', label).toBe(true);
      } else {
        expect(res.statusCode, label).toBe(400);
        expect(res.json().errors[0].param, label).toBe('mcp_url');
      }
    }
  });
});
