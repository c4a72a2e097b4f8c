import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, expectRowsMatchTree, hostileStrings } from '../support/workspace-calls.js';

let t: TestApp;
const clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
let ada: SignedInUser;
let doc: { uuid: string; sections: Array<{ uuid: string; subsections: Array<{ uuid: string }> }> };
let blueprint: { uuid: string; sections: Array<{ uuid: string; subsections: Array<{ uuid: string }> }> };

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(t, { email: 'ada@example.com' }, now);
  blueprint = (await call(t, 'POST', 'blueprints/', { as: ada })).json();
  // One section with one subsection: these tests are about text, not about how many rows a write touches.
  doc = await createDocument(t, ada, { blueprint: blueprint.uuid });
});
afterAll(async () => {
  await t?.close();
});

/**
 * A hostile value was either refused with a field error naming `param` (and no 5xx), or stored and
 * answered exactly as sent, trimmed like every text field. Answers how many were stored.
 */
function expectStoredOrRefused(
  res: LightMyRequestResponse,
  value: string,
  param: string,
  read: (body: never) => unknown,
) {
  const label = `${param}=${JSON.stringify(value)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  if (res.statusCode === 400) {
    expect(res.json().errors[0].param, label).toBe(param);
    return 0;
  }
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(200);
  expect(read(res.json() as never), label).toBe(value.trim());
  return 1;
}

const fields: Array<{ name: string; path: () => string; field: string; read: (body: never) => unknown }> = [
  {
    name: 'document title',
    path: () => `documents/${doc.uuid}/`,
    field: 'title',
    read: (b: { title: string }) => b.title,
  },
  {
    name: 'document description',
    path: () => `documents/${doc.uuid}/`,
    field: 'description',
    read: (b: { description: string }) => b.description,
  },
  {
    name: 'blueprint title',
    path: () => `blueprints/${blueprint.uuid}/`,
    field: 'title',
    read: (b: { title: string }) => b.title,
  },
  {
    name: 'blueprint description',
    path: () => `blueprints/${blueprint.uuid}/`,
    field: 'description',
    read: (b: { description: string }) => b.description,
  },
  {
    name: 'blueprint system prompt',
    path: () => `blueprints/${blueprint.uuid}/`,
    field: 'system_prompt',
    read: (b: { system_prompt: string }) => b.system_prompt,
  },
  {
    name: 'section title',
    path: () => `documents/${doc.uuid}/sections/${doc.sections[0]?.uuid}/`,
    field: 'title',
    read: (b: { title: string }) => b.title,
  },
  {
    name: 'subsection title',
    path: () =>
      `blueprints/${blueprint.uuid}/sections/${blueprint.sections[0]?.uuid}/subsections/${blueprint.sections[0]?.subsections[0]?.uuid}/`,
    field: 'title',
    read: (b: { title: string }) => b.title,
  },
  {
    name: 'developer prompt',
    path: () =>
      `documents/${doc.uuid}/sections/${doc.sections[0]?.uuid}/subsections/${doc.sections[0]?.subsections[0]?.uuid}/`,
    field: 'developer_prompt',
    read: (b: { developer_prompt: string }) => b.developer_prompt,
  },
  {
    name: 'user hint',
    path: () => `blueprints/${blueprint.uuid}/sections/${blueprint.sections[0]?.uuid}/`,
    field: 'user_hint',
    read: (b: { user_hint: string }) => b.user_hint,
  },
];

describe.each(fields)('hostile strings in the $name', ({ path, field, read }) => {
  it('are stored and answered exactly (trimmed), or refused naming the field; never a 5xx', async () => {
    let stored = 0;
    for (const value of hostileStrings) {
      const res = await call(t, 'PATCH', path(), { as: ada, body: { [field]: value } });
      stored += expectStoredOrRefused(res, value, field, read);
    }
    // Most of the list is ordinary text in unusual scripts: nearly all of it is kept.
    expect(stored).toBeGreaterThan(hostileStrings.length * 0.9);
    expect((await call(t, 'GET', path(), { as: ada })).statusCode).toBe(200);
  }, 240_000);
});

describe('hostile strings in headings of the content tree', () => {
  it('are stored in the tree as sent and in the rows trimmed, or refused as invalid_content', async () => {
    let stored = 0;
    for (const value of hostileStrings) {
      const content = {
        type: 'doc',
        content: [
          {
            type: 'section',
            attrs: { uuid: doc.sections[0]?.uuid },
            content: [
              { type: 'sectionHeading', content: [{ type: 'text', text: value }] },
              {
                type: 'subsection',
                attrs: { uuid: doc.sections[0]?.subsections[0]?.uuid },
                content: [{ type: 'subsectionHeading', content: [{ type: 'text', text: value }] }],
              },
            ],
          },
        ],
      };
      const res = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { content } });
      const label = JSON.stringify(value);
      expect(res.statusCode, label).toBeLessThan(500);
      if (res.statusCode === 400) {
        expect(res.json().code, label).toBe('invalid_content');
        expect(res.json().errors[0].param, label).toMatch(/^content\./);
        continue;
      }
      expect(res.statusCode, label).toBe(200);
      const body = res.json();
      const heading = body.content.content[0].content[0];
      expect(heading.content?.[0]?.text ?? '', label).toBe(value);
      expect(body.sections[0].title, label).toBe(value.trim());
      expect(body.sections[0].subsections[0].title, label).toBe(value.trim());
      expectRowsMatchTree(body);
      stored++;
    }
    expect(stored).toBeGreaterThan(hostileStrings.length * 0.9);
    const again = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada })).json();
    expectRowsMatchTree(again);
  }, 240_000);
});
