import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_RATE_LIMITED } from '../../../src/ai/ai-usage-ledger.js';
import { TRANSFORM_ACTIONS } from '../../../src/ai/providers/ai-provider.js';
import { createOfflineProvider } from '../../../src/ai/providers/offline-provider.js';
import {
  isOfflineAction,
  OFFLINE_TRANSFORM_ACTIONS,
  offlineTransform,
} from '../../../src/ai/transform/offline-transforms.js';
import { loadSpellChecker } from '../../../src/ai/transform/spell-checker.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { call, createDocument, hostileStrings } from '../../support/workspace-calls.js';
import { aiUsageTotals } from './ai-usage-totals.js';

// The real app (real storage, the database-backed usage ledger) with its default provider: offline.
const PATH = 'apps/ai/transform/';
const offline = createOfflineProvider();

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let aliceDocument: string;
let bobDocument: string;

beforeAll(async () => {
  // Hostile strings make about a thousand calls: the limit is not what these tests are about.
  t = await createTestApp({ PLANWRIGHT_AI_CALLS_PER_MINUTE: '100000' });
  alice = await createSignedInUser(t, { email: 'alice-transform@example.com' });
  bob = await createSignedInUser(t, { email: 'bob-transform@example.com' });
  aliceDocument = (await createDocument(t, alice)).uuid;
  bobDocument = (await createDocument(t, bob)).uuid;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('POST apps/ai/transform/ text mode (offline provider)', () => {
  it('TR50 answers 401 without a session', async () => {
    const res = await call(t, 'POST', PATH, { body: { text: 'hi', action: 'fix_grammar' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('not_authenticated');
  });

  it('TR51 transforms with the three offline actions and says the offline provider answered', async () => {
    const spell = await loadSpellChecker();
    const text =
      '# plan\n\nwe  really want to utilize the the budget in order to grow. i think so\n\n- one item';
    for (const action of OFFLINE_TRANSFORM_ACTIONS) {
      const res = await call(t, 'POST', PATH, { as: alice, body: { text, action, custom_prompt: null } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        transformed_text: offlineTransform(action, text, { spell }),
        provider: { name: 'offline', model: offline.info.model, label: offline.info.label, offline: true },
      });
      expect(res.json().transformed_text).not.toBe(text);
    }
  });

  it('TR57 Accept: application/x-ndjson streams the answer as it is written, then the same body as JSON', async () => {
    const text =
      'we really want to utilize the budget in order to grow our bakerys and recieve alot of orders.';
    const plain = await call(t, 'POST', PATH, { as: alice, body: { text, action: 'fix_grammar' } });
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: { text, action: 'fix_grammar' },
      headers: { accept: 'application/x-ndjson, application/json;q=0.5' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    const lines = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string; body?: unknown });
    const last = lines.at(-1);
    expect(last).toEqual({ type: 'result', body: plain.json() });
    // The offline rules answer at once: text lines may or may not come before the result; each is a prefix.
    const texts = lines.slice(0, -1);
    const answer = plain.json().transformed_text as string;
    for (const line of texts) {
      expect(line.type).toBe('text');
      expect(answer.startsWith(line.text ?? '\u0000')).toBe(true);
    }
    // JSON stays the default, and structured mode never streams.
    const json = await call(t, 'POST', PATH, {
      as: alice,
      body: { text, action: 'fix_grammar' },
      headers: { accept: '*/*' },
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });

  it('TR57 refusals before the answer starts stay plain JSON errors, also when a stream was asked for', async () => {
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: { text: 'We grow.', action: 'professional' },
      headers: { accept: 'application/x-ndjson' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ai_model_required' });
  });

  it('TR2 TR40 a selection that is part of a sentence comes back as a fragment that fits back in', async () => {
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: { text: 'recieve alot of', action: 'fix_grammar' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().transformed_text).toBe('receive a lot of');
  });

  it('TR56 the actions that need a model answer 409 ai_model_required, in text and structured mode, uncounted', async () => {
    const before = await aiUsageTotals(t, alice);
    const refused = TRANSFORM_ACTIONS.filter((action) => !isOfflineAction(action));
    expect(refused).toEqual(['improve', 'extend', 'professional', 'casual', 'emojify']);
    for (const action of refused) {
      const text = await call(t, 'POST', PATH, {
        as: alice,
        body: { text: 'Our bakery sells bread.', action },
      });
      expect(text.statusCode, text.body).toBe(409);
      expect(text.json()).toEqual({
        detail: 'This action needs an AI model. Ask your administrator to connect one.',
        code: 'ai_model_required',
      });
      const structured = await call(t, 'POST', PATH, {
        as: alice,
        body: {
          mode: 'structured',
          action,
          items: [
            {
              subsection_uuid: '00000000-0000-4000-8000-000000000001',
              include_title: true,
              title_text: 'Title',
              content_html: '<p>Our bakery sells bread.</p>',
            },
          ],
        },
      });
      expect(structured.statusCode, structured.body).toBe(409);
      expect(structured.json().code).toBe('ai_model_required');
    }
    expect((await aiUsageTotals(t, alice)).calls).toBe(before.calls);
  });

  it('TR52 records the call in the usage ledger with its document, read back through apps/ai/usage/', async () => {
    const before = await aiUsageTotals(t, alice);
    const beforeDocument = await aiUsageTotals(t, alice, aliceDocument);
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: { text: 'hello there', action: 'shorten', document_uuid: aliceDocument },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await aiUsageTotals(t, alice);
    const afterDocument = await aiUsageTotals(t, alice, aliceDocument);
    expect(after.calls).toBe(before.calls + 1);
    expect(afterDocument.calls).toBe(beforeDocument.calls + 1);
    expect(afterDocument.output_tokens ?? 0).toBeGreaterThan(beforeDocument.output_tokens ?? 0);
    // Another user's usage is not touched.
    expect((await aiUsageTotals(t, bob)).calls).toBe(0);
  });

  it('TR52 another user’s document answers 404 and no call is counted or recorded', async () => {
    const before = await aiUsageTotals(t, alice);
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: { text: 'hello', action: 'fix_grammar', document_uuid: bobDocument },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Document not found.');
    expect((await aiUsageTotals(t, alice)).calls).toBe(before.calls);
    expect((await aiUsageTotals(t, bob, bobDocument)).calls).toBe(0);
  });
});

describe('POST apps/ai/transform/ rate limit (real ledger, the app’s clock)', () => {
  let r: TestApp;
  let carol: SignedInUser;
  let dave: SignedInUser;
  let clock = new Date('2026-03-02T10:00:00.000Z');
  const now = () => clock;

  beforeAll(async () => {
    r = await createTestApp({ PLANWRIGHT_AI_CALLS_PER_MINUTE: '2' }, { now });
    carol = await createSignedInUser(r, { email: 'carol-transform@example.com' }, now);
    dave = await createSignedInUser(r, { email: 'dave-transform@example.com' }, now);
  }, 60_000);

  afterAll(async () => {
    await r?.close();
  });

  it('TR52 over PLANWRIGHT_AI_CALLS_PER_MINUTE answers 429 ai_rate_limited with Retry-After, until the minute passes', async () => {
    const body = { text: 'hello there', action: 'fix_grammar' };
    for (let n = 0; n < 2; n += 1) {
      const ok = await call(r, 'POST', PATH, { as: carol, body });
      expect(ok.statusCode, ok.body).toBe(200);
    }
    clock = new Date(clock.getTime() + 20_000);
    const limited = await call(r, 'POST', PATH, { as: carol, body });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: AI_RATE_LIMITED, code: 'ai_rate_limited' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A refused call never reached the provider: only the two answered calls are recorded.
    expect((await aiUsageTotals(r, carol)).calls).toBe(2);
    // The limit is per user.
    const other = await call(r, 'POST', PATH, { as: dave, body });
    expect(other.statusCode, other.body).toBe(200);
    // Once the window has passed (no real waiting: the app's clock moves), the user may call again.
    clock = new Date(clock.getTime() + 61_000);
    const again = await call(r, 'POST', PATH, { as: carol, body });
    expect(again.statusCode, again.body).toBe(200);
    expect((await aiUsageTotals(r, carol)).calls).toBe(3);
  });
});

describe('POST apps/ai/transform/ validation', () => {
  it('TR31 an empty or blank selection answers "No text selected"', async () => {
    for (const body of [
      { action: 'fix_grammar' },
      { text: '', action: 'fix_grammar' },
      { text: ' \n\t ', action: 'x' },
    ]) {
      const res = await call(t, 'POST', PATH, { as: alice, body });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('No text selected');
      expect(res.json().errors).toEqual([{ param: 'text', code: 'required', message: 'No text selected' }]);
    }
  });

  it('TR32 names each bad field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ text: 'a', action: 'rewrite' }, 'action'],
      [{ text: 'a' }, 'action'],
      [{ text: 'a', action: 'fix_grammar', custom_prompt: 'x'.repeat(4001) }, 'custom_prompt'],
      [{ text: 'a', action: 'fix_grammar', custom_prompt: 42 }, 'custom_prompt'],
      [{ text: 'a'.repeat(100_001), action: 'fix_grammar' }, 'text'],
      [{ text: 7, action: 'fix_grammar' }, 'text'],
      [{ text: 'a', action: 'fix_grammar', document_uuid: 'not-a-uuid' }, 'document_uuid'],
      [{ mode: 'structured', action: 'fix_grammar', items: [] }, 'items'],
      [{ mode: 'structured', action: 'fix_grammar' }, 'items'],
      [
        {
          mode: 'structured',
          action: 'fix_grammar',
          items: [{ include_title: true, title_text: 'a', content_html: '' }],
        },
        'items.0.subsection_uuid',
      ],
      [
        {
          mode: 'structured',
          action: 'fix_grammar',
          items: [
            {
              subsection_uuid: crypto.randomUUID(),
              include_title: 'yes',
              title_text: 'a',
              content_html: 'b',
            },
          ],
        },
        'items.0.include_title',
      ],
      [
        {
          mode: 'structured',
          action: 'fix_grammar',
          items: [
            {
              subsection_uuid: crypto.randomUUID(),
              include_title: true,
              title_text: 'a'.repeat(501),
              content_html: '',
            },
          ],
        },
        'items.0.title_text',
      ],
      [
        {
          mode: 'structured',
          action: 'fix_grammar',
          items: Array.from({ length: 101 }, () => ({
            subsection_uuid: crypto.randomUUID(),
            include_title: false,
            title_text: '',
            content_html: '<p>a</p>',
          })),
        },
        'items',
      ],
    ];
    for (const [body, param] of cases) {
      const res = await call(t, 'POST', PATH, { as: alice, body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      const params = (res.json().errors as Array<{ param?: string }>).map((error) => error.param);
      expect(params, res.body).toContain(param);
    }
  });

  it('TR32 a body that is not an object answers 400', async () => {
    const res = await call(t, 'POST', PATH, { as: alice, body: ['fix_grammar'] });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST apps/ai/transform/ structured mode', () => {
  it('TR43 headings of levels 1–6 come back as levels 3–4 only, titles transformed, order kept', async () => {
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    const html = [1, 2, 3, 4, 5, 6].map(
      (level) => `<h${level}>heading ${level}</h${level}><p>text  under ${level}</p>`,
    );
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: {
        mode: 'structured',
        action: 'fix_grammar',
        custom_prompt: null,
        items: [
          {
            subsection_uuid: first,
            include_title: true,
            title_text: 'market  overview',
            content_html: html.join(''),
          },
          {
            subsection_uuid: second,
            include_title: false,
            title_text: 'keep me',
            content_html: '<p>i agree</p>',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.provider.offline).toBe(true);
    expect(body.items.map((item: { subsection_uuid: string }) => item.subsection_uuid)).toEqual([
      first,
      second,
    ]);
    const [one, two] = body.items;
    expect(one.title).toBe('Market overview');
    expect(two.title).toBe('keep me');
    expect(two.content_html).toMatch(/<p[^>]*>I agree\.<\/p>/);
    const levels = [...(one.content_html as string).matchAll(/<h(\d)/g)].map((match) => Number(match[1]));
    expect(levels).toEqual([3, 3, 3, 4, 4, 4]);
    expect(one.content_html).toContain('Text under 1.');
    expect(one.content_html).not.toMatch(/<h[1256]|<section/);
  });

  it('TR42 shorten keeps the title as it is', async () => {
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: {
        mode: 'structured',
        action: 'shorten',
        items: [
          {
            subsection_uuid: crypto.randomUUID(),
            include_title: true,
            title_text: 'Goals',
            content_html: '<p>We grow.</p>',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items[0].title).toBe('Goals');
  });

  it('TR31 items with no text at all answer "No text selected"', async () => {
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: {
        mode: 'structured',
        action: 'fix_grammar',
        items: [
          {
            subsection_uuid: crypto.randomUUID(),
            include_title: false,
            title_text: 'x',
            content_html: '<p> </p>',
          },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('No text selected');
  });

  it('TR44 active content in content_html never comes back', async () => {
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: {
        mode: 'structured',
        action: 'fix_grammar',
        items: [
          {
            subsection_uuid: crypto.randomUUID(),
            include_title: false,
            title_text: '',
            content_html:
              '<p onclick="alert(1)">hi <a href="javascript:alert(1)">there</a></p><script>alert(1)</script><img src=x onerror=alert(1)>',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const html = res.json().items[0].content_html as string;
    expect(html).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(html).toContain('Hi');
  });
});

describe('POST apps/ai/transform/ hostile input', () => {
  it('TR55 every hostile string in text and custom_prompt answers 200 or 400, never a 500', async () => {
    for (const hostile of hostileStrings) {
      for (const body of [
        { text: hostile, action: 'fix_grammar', custom_prompt: hostile },
        { text: `plan ${hostile}`, action: 'simplify', custom_prompt: hostile },
      ]) {
        const res = await call(t, 'POST', PATH, { as: alice, body });
        expect([200, 400], `${res.statusCode} ${JSON.stringify(hostile)}`).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().detail).toBe('No text selected');
        else expect(typeof res.json().transformed_text).toBe('string');
      }
    }
  }, 120_000);

  it('TR55 hostile strings as structured titles and HTML never give a 500', async () => {
    const items = hostileStrings.slice(0, 100).map((hostile) => ({
      subsection_uuid: crypto.randomUUID(),
      include_title: true,
      title_text: hostile.slice(0, 500),
      content_html: `<p>${hostile}</p>${hostile}`,
    }));
    const res = await call(t, 'POST', PATH, {
      as: alice,
      body: { mode: 'structured', action: 'fix_grammar', custom_prompt: hostileStrings[50], items },
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json().items).toHaveLength(items.length);
  }, 60_000);
});
