import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GLOBAL_SYSTEM_PROMPT } from '../../../src/system-prompt/global-system-prompt.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { call, createDocument } from '../../support/workspace-calls.js';
import { testUuid } from './context-fixtures.js';

const clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
let t: TestApp;
let ada: SignedInUser;
let bob: SignedInUser;
interface DocumentAnswer {
  uuid: string;
  title: string;
  sections: Array<{
    uuid: string;
    title: string;
    developer_prompt: string;
    subsections: Array<{ uuid: string; title: string; user_hint: string }>;
  }>;
}
let doc: DocumentAnswer;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  ada = await createSignedInUser(t, { email: 'ada@example.com' }, now);
  bob = await createSignedInUser(t, { email: 'bob@example.com' }, now);
  doc = await createDocument(t, ada, { title: 'Ada bakery' });
});
afterAll(async () => {
  await t?.close();
});

function context(path: string, as?: SignedInUser) {
  return t.app.inject({
    method: 'GET',
    url: `/api/v1/documents/${path}`,
    headers: as ? as.headers : {},
  });
}

describe('GET documents/{uuid}/ai/context/ (CX14)', () => {
  it('CX14 CX13 answers the owner the assembled prompt of a document chat', async () => {
    const res = await context(
      `${doc.uuid}/ai/context/?message=${encodeURIComponent('Hallo, hilf mir!')}`,
      ada,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['budget_tokens', 'messages', 'over_budget', 'parts', 'provider', 'system', 'total_tokens'].sort(),
    );
    expect(body.provider).toEqual({
      name: 'offline',
      model: 'offline-drafter',
      label: 'Offline drafts (no AI model)',
      offline: true,
      supports: { web_access: false, research: false, tools: true },
      actions: [
        { action: 'improve', available: false, offline: false },
        { action: 'fix_grammar', available: true, offline: true },
        { action: 'simplify', available: true, offline: true },
        { action: 'extend', available: false, offline: false },
        { action: 'shorten', available: true, offline: true },
        { action: 'professional', available: false, offline: false },
        { action: 'casual', available: false, offline: false },
        { action: 'emojify', available: false, offline: false },
      ],
    });
    expect(body.budget_tokens).toBe(24_000);
    expect(body.over_budget).toBe(false);
    expect(body.total_tokens).toBeLessThanOrEqual(24_000);
    expect(body.messages).toEqual([{ role: 'user', content: 'Hallo, hilf mir!' }]);
    const parts = body.parts as Array<{ name: string; tokens: number; truncated: boolean; text: string }>;
    expect(parts.map((part) => part.name)).toEqual([
      'global',
      'blueprint',
      'instructions',
      'scope_prompts',
      'outline',
      'section',
      'digest',
      'history',
      'message',
    ]);
    // The global prompt in force (none set: the default) and the blueprint's own prompt.
    expect(parts[0]?.text).toBe(DEFAULT_GLOBAL_SYSTEM_PROMPT);
    expect(parts[1]?.text).toContain('investor');
    expect(body.system.startsWith(DEFAULT_GLOBAL_SYSTEM_PROMPT)).toBe(true);
    for (const section of doc.sections) expect(parts[4]?.text).toContain(`[section ${section.uuid}]`);
    expect(parts[4]?.text).toContain('The plan is titled "Ada bakery".');
  });

  it('CX14 CX11 a subsection chat carries its prompts and hints, the section text and the options note', async () => {
    const section = doc.sections.find(
      (candidate) => candidate.subsections.length > 0,
    ) as DocumentAnswer['sections'][0];
    const subsection = section.subsections[0] as DocumentAnswer['sections'][0]['subsections'][0];
    const res = await context(
      `${doc.uuid}/ai/context/?section=${section.uuid}&subsection=${subsection.uuid.toUpperCase()}&web_access=on`,
      ada,
    );
    expect(res.statusCode, res.body).toBe(200);
    const parts = res.json().parts as Array<{ name: string; text: string }>;
    const text = (name: string) => parts.find((part) => part.name === name)?.text ?? '';
    expect(section.developer_prompt.trim()).not.toBe('');
    expect(subsection.user_hint.trim()).not.toBe('');
    expect(text('scope_prompts')).toContain(section.developer_prompt.trim());
    expect(text('scope_prompts')).toContain(subsection.user_hint.trim());
    expect(text('section')).toContain(`[subsection_uuid ${subsection.uuid}; not finalized; in scope]`);
    expect(text('instructions')).toContain('cannot do that');
    expect(res.json().messages).toEqual([{ role: 'user', content: '' }]);
  });

  it('CX14 another user gets 404, anonymous 401', async () => {
    const other = await context(`${doc.uuid}/ai/context/`, bob);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Document not found.', code: 'not_found' });
    const anonymous = await context(`${doc.uuid}/ai/context/`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('not_authenticated');
    // A malformed document uuid reads as not found, like every document route.
    expect((await context('not-a-uuid/ai/context/', ada)).statusCode).toBe(404);
  });

  it('CX14 bad query values answer 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['section=nope', 'section'],
      ['subsection=123', 'subsection'],
      [`message=${'a'.repeat(20_001)}`, 'message'],
      ['web_access=yes', 'web_access'],
      [`section=${testUuid(1)}&section=${testUuid(2)}`, 'section'],
    ];
    for (const [query, param] of cases) {
      const res = await context(`${doc.uuid}/ai/context/?${query}`, ada);
      expect(res.statusCode, query).toBe(400);
      expect(
        res.json().errors.map((error: { param: string }) => error.param),
        query,
      ).toContain(param);
    }
    const longest = await context(`${doc.uuid}/ai/context/?message=${'a'.repeat(20_000)}`, ada);
    expect(longest.statusCode).toBe(200);
  });

  it('CX14 CX3 an unknown section or subsection answers 404', async () => {
    const unknownSection = await context(`${doc.uuid}/ai/context/?section=${testUuid(77)}`, ada);
    expect(unknownSection.statusCode).toBe(404);
    expect(unknownSection.json()).toEqual({ detail: 'Section not found.', code: 'not_found' });
    const unknownSubsection = await context(`${doc.uuid}/ai/context/?subsection=${testUuid(78)}`, ada);
    expect(unknownSubsection.statusCode).toBe(404);
    expect(unknownSubsection.json().detail).toBe('Subsection not found.');
    // A subsection of one section asked for under another.
    const [first, second] = doc.sections.filter((section) => section.subsections.length > 0);
    if (!first || !second) throw new Error('the default blueprint has two sections with subsections');
    const mismatched = await context(
      `${doc.uuid}/ai/context/?section=${second.uuid}&subsection=${first.subsections[0]?.uuid}`,
      ada,
    );
    expect(mismatched.statusCode).toBe(404);
  });

  it('CX13 the stored global prompt and a deleted blueprint are read as they are now', async () => {
    await t.storage.appSettings.set('global_system_prompt', 'Stored prompt.', clock);
    const res = await context(`${doc.uuid}/ai/context/`, ada);
    expect(res.json().parts[0].text).toBe('Stored prompt.');
    const blueprint = await call(t, 'POST', 'blueprints/', { as: ada, body: { title: 'Mine' } });
    const mine = await createDocument(t, ada, { blueprint: blueprint.json().uuid });
    expect((await call(t, 'DELETE', `blueprints/${blueprint.json().uuid}/`, { as: ada })).statusCode).toBe(
      204,
    );
    const orphan = await context(`${mine.uuid}/ai/context/`, ada);
    expect(orphan.statusCode).toBe(200);
    expect(orphan.json().parts[1].text).toBe('');
  });
});
