import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../tests/support/corpus-path.mjs';
import type { Mailer } from '../src/mail/mailer.js';
import { CONTACT_RATE_LIMITS } from '../src/routes/contact-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const valid = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0000',
  message: 'We would like a demo for our venture studio.',
};

let t: TestApp;
let clock = new Date('2026-11-21T10:00:00.000Z');
beforeAll(async () => {
  t = await createTestApp({ CONTACT_EMAIL: 'team@planwright.test' }, { now: () => clock });
});
afterAll(async () => {
  await t?.close();
});

function outbox(): string[] {
  try {
    return readdirSync(t.config.mail.outboxDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
}

let addressCounter = 0;
/** A client address no other post used, so the per-address limit never meets tests that are not about it. */
function freshAddress(): string {
  addressCounter++;
  return `10.1.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

async function post(payload: unknown, headers: Record<string, string> = {}, remoteAddress = freshAddress()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/apps/contact/',
    payload: payload as object,
    headers,
    remoteAddress,
  });
}

describe('POST /api/v1/apps/contact/', () => {
  let storedBefore = 0;
  beforeEach(async () => {
    storedBefore = await t.storage.contactMessages.count();
  });

  it('stores the message, e-mails it to CONTACT_EMAIL and answers 201 with the success text', async () => {
    const before = outbox().length;
    const res = await post(valid);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.detail).toBe('Thank you for your message! We will get back to you soon.');
    const stored = await t.storage.contactMessages.get(body.id);
    expect(stored).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
      message: valid.message,
    });
    expect(stored?.emailedAt).toBeInstanceOf(Date);

    const files = outbox();
    expect(files.length).toBe(before + 1);
    const newest = files.sort().at(-1) ?? '';
    const email = await PostalMime.parse(readFileSync(join(t.config.mail.outboxDir, newest)));
    expect(email.to?.[0]?.address).toBe('team@planwright.test');
    expect(email.replyTo?.[0]?.address).toBe('ada@example.com');
    expect(email.subject).toBe('Contact form: Ada Lovelace');
    expect(email.text).toContain(valid.message);
    expect(email.html).toContain(valid.message);
  });

  it('accepts the phone as optional', async () => {
    const { phone: _phone, ...withoutPhone } = valid;
    const res = await post(withoutPhone);
    expect(res.statusCode).toBe(201);
    expect((await t.storage.contactMessages.get(res.json().id))?.phone).toBe('');
  });

  it.each(['first_name', 'last_name', 'email', 'message'])(
    'answers 400 naming %s when it is missing',
    async (field) => {
      const res = await post({ ...valid, [field]: undefined });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.code).toBe('invalid');
      expect(body.detail).toContain(field);
      expect(body.errors).toContainEqual(expect.objectContaining({ param: field, code: 'required' }));
      expect(await t.storage.contactMessages.count()).toBe(storedBefore);
    },
  );

  it('answers 400 for an address that is not an e-mail and for blank text', async () => {
    const bad = await post({ ...valid, email: 'not an email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toContainEqual(
      expect.objectContaining({ param: 'email', code: 'invalid_email' }),
    );
    const blank = await post({ ...valid, message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toContainEqual(expect.objectContaining({ param: 'message' }));
  });

  it('answers 400 for a body that is not an object', async () => {
    for (const payload of ['[]', '"hello"', 'null', '42']) {
      const res = await post(payload, { 'content-type': 'application/json' });
      expect(res.statusCode, payload).toBe(400);
    }
    expect(await t.storage.contactMessages.count()).toBe(storedBefore);
  });

  it('refuses a 1 MB message with 413 and stores nothing', async () => {
    const before = outbox().length;
    const res = await post({ ...valid, message: 'x'.repeat(1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'The request body is too large.', code: 'payload_too_large' });
    expect(await t.storage.contactMessages.count()).toBe(storedBefore);
    expect(outbox().length).toBe(before);
  });

  it('refuses a message over 10,000 characters that fits the body limit, with 400', async () => {
    const res = await post({ ...valid, message: 'y'.repeat(10_001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(
      expect.objectContaining({ param: 'message', code: 'max_length' }),
    );
    expect(await t.storage.contactMessages.count()).toBe(storedBefore);
  });

  it('escapes HTML from visitors in the e-mail', async () => {
    const res = await post({
      ...valid,
      first_name: '<img src=x onerror=alert(1)>',
      message: '<script>alert(1)</script>',
    });
    expect(res.statusCode).toBe(201);
    const newest = outbox().sort().at(-1) ?? '';
    const email = await PostalMime.parse(readFileSync(join(t.config.mail.outboxDir, newest)));
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<img');
    expect(email.html).toContain('&lt;script&gt;');
  });

  it('keeps the message when the mailer fails', async () => {
    const failing: Mailer = {
      transport: 'smtp',
      send: async () => {
        throw new Error('SMTP down');
      },
      close: () => {},
    };
    const down = await createTestApp({}, { mailer: failing });
    try {
      const res = await down.app.inject({ method: 'POST', url: '/api/v1/apps/contact/', payload: valid });
      expect(res.statusCode).toBe(201);
      const stored = await down.storage.contactMessages.get(res.json().id);
      expect(stored?.message).toBe(valid.message);
      expect(stored?.emailedAt).toBeNull();
    } finally {
      await down.close();
    }
  });
});

describe('limits per client address', () => {
  it('answers the 6th message in 10 minutes from one address 429 with Retry-After, sending nothing; another address is fine', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < CONTACT_RATE_LIMITS.perAddress.limit; i++) {
      expect((await post(valid, {}, address)).statusCode).toBe(201);
    }
    const stored = await t.storage.contactMessages.count();
    const sent = outbox().length;
    const refused = await post(valid, {}, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('600');
    expect(refused.json()).toEqual({
      detail: 'Too many messages from your address. Please wait a while and try again.',
      code: 'rate_limited',
    });
    expect(await t.storage.contactMessages.count()).toBe(stored);
    expect(outbox().length).toBe(sent);

    expect((await post(valid, {}, '203.0.113.8')).statusCode).toBe(201);
    clock = new Date(clock.getTime() + 10 * 60_000);
    expect((await post(valid, {}, address)).statusCode).toBe(201);
  });

  it('allows 20 messages an hour from one address', async () => {
    const address = '203.0.113.9';
    const start = clock.getTime();
    for (let window = 0; window < 4; window++) {
      clock = new Date(start + window * 10 * 60_000);
      for (let i = 0; i < 5; i++) expect((await post(valid, {}, address)).statusCode).toBe(201);
    }
    clock = new Date(start + 40 * 60_000);
    const refused = await post(valid, {}, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1200');
    clock = new Date(start + 60 * 60_000);
    expect((await post(valid, {}, address)).statusCode).toBe(201);
  });
});

describe('the honeypot', () => {
  it('answers a filled phone_number_x exactly like a sent message, and stores and sends nothing', async () => {
    const real = await post(valid);
    const stored = await t.storage.contactMessages.count();
    const sent = outbox().length;
    const bot = await post({ ...valid, phone_number_x: '+1 555 0100' });
    expect(bot.statusCode).toBe(real.statusCode);
    expect(bot.headers['content-type']).toBe(real.headers['content-type']);
    expect(Object.keys(bot.headers).sort()).toEqual(Object.keys(real.headers).sort());
    expect(Object.keys(bot.json())).toEqual(Object.keys(real.json()));
    expect(bot.json().detail).toBe(real.json().detail);
    expect(bot.json().id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await t.storage.contactMessages.get(bot.json().id)).toBeUndefined();
    expect(await t.storage.contactMessages.count()).toBe(stored);
    expect(outbox().length).toBe(sent);
  });

  it('takes an empty phone_number_x as a person (the field left alone), and a filled one counts against the limit', async () => {
    const person = await post({ ...valid, phone_number_x: '' });
    expect(person.statusCode).toBe(201);
    expect(await t.storage.contactMessages.get(person.json().id)).toBeDefined();

    const address = '203.0.113.10';
    for (let i = 0; i < CONTACT_RATE_LIMITS.perAddress.limit; i++) {
      expect((await post({ ...valid, phone_number_x: 'bot' }, {}, address)).statusCode).toBe(201);
    }
    expect((await post({ ...valid, phone_number_x: 'bot' }, {}, address)).statusCode).toBe(429);
  });
});

describe('hostile strings in every contact field', () => {
  const corpus = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];

  it('answers each with a clear 400 or stores it byte-identical; never a 5xx', async () => {
    const fields = ['first_name', 'last_name', 'phone', 'message'] as const;
    let stored = 0;
    let refused = 0;
    for (const hostile of corpus) {
      for (const field of fields) {
        const res = await post({ ...valid, [field]: hostile });
        expect(res.statusCode, `${field}=${JSON.stringify(hostile)}`).toBeLessThan(500);
        if (res.statusCode === 201) {
          const row = await t.storage.contactMessages.get(res.json().id);
          const column = {
            first_name: 'firstName',
            last_name: 'lastName',
            phone: 'phone',
            message: 'message',
          }[field];
          // The schema trims surrounding whitespace; everything else must read back exactly.
          expect(row?.[column as 'message'], `${field}=${JSON.stringify(hostile)}`).toBe(hostile.trim());
          stored++;
        } else {
          expect(res.statusCode).toBe(400);
          expect(res.json().errors?.[0]?.param).toBe(field);
          refused++;
        }
      }
      const asEmail = await post({ ...valid, email: hostile });
      expect(asEmail.statusCode).toBeLessThan(500);
    }
    expect(stored).toBeGreaterThan(corpus.length * 3);
    expect(refused).toBeGreaterThan(0);
  });
});
