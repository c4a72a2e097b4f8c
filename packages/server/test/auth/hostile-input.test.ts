import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { createPasswordHasher } from '../../src/auth/password/index.js';
import { lastKeyFor } from '../../src/mail/outbox-reader.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const hostile = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];

let t: TestApp;
const hasher = createPasswordHasher({ params: { ln: 10, r: 8, p: 1 } });
let request = 0;
/** A fresh client address per request: these tests are about input, not rate limits. */
const nextIp = () => {
  request++;
  return `10.${(request >> 16) & 255}.${(request >> 8) & 255}.${request & 255}`;
};

beforeAll(async () => {
  // Hundreds of sign-ups and logins: hashing cost is not what this file tests.
  t = await createTestApp({}, { passwordHasher: hasher });
});
afterAll(async () => {
  await t?.close();
});

async function signUp(body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/_allauth/app/v1/auth/signup',
    remoteAddress: nextIp(),
    payload: body,
  });
}

describe('hostile strings in every sign-up field', () => {
  it('email: a 400 naming email, or an account whose address reads back byte-identical', async () => {
    let accepted = 0;
    for (const [i, value] of hostile.entries()) {
      const res = await signUp({ email: value, password: `unusual-passphrase-${i}`, terms_agreement: true });
      expect(res.statusCode, JSON.stringify(value)).toBeLessThan(500);
      if (res.statusCode === 400) {
        expect(res.json().errors[0].param, JSON.stringify(value)).toBe('email');
      } else {
        expect(res.statusCode).toBe(401);
        expect((await t.storage.users.findByEmail(value))?.email, JSON.stringify(value)).toBe(value.trim());
        accepted++;
      }
    }
    expect(accepted).toBeLessThan(hostile.length);
  });

  // Four slices, so no single test carries 500 sign-ups on a busy machine.
  it.each([0, 1, 2, 3])(
    'password, slice %i: a 400 naming password, or hashed and checked exactly',
    async (slice) => {
      const size = Math.ceil(hostile.length / 4);
      for (const [offset, value] of hostile.slice(slice * size, (slice + 1) * size).entries()) {
        const i = slice * size + offset;
        const email = `hostile-password-${i}@example.com`;
        // Every string goes through the real sign-up (validation and hashing); a sample also through
        // account creation, the e-mailed link and a login. The filled honeypot skips the account,
        // which is what keeps 500 strings within the time of a test.
        const fullWay = i % 25 === 0;
        const res = await signUp({
          email,
          password: value,
          terms_agreement: true,
          phone_number_x: fullWay ? '' : 'bot',
        });
        expect(res.statusCode, JSON.stringify(value)).toBeLessThan(500);
        if (res.statusCode === 400) {
          expect(res.json().errors[0].param, JSON.stringify(value)).toBe('password');
          continue;
        }
        expect(res.statusCode).toBe(401);
        const stored = await hasher.hash(value);
        expect((await hasher.verify(value, stored)).ok, JSON.stringify(value)).toBe(true);
        expect((await hasher.verify(`${value}x`, stored)).ok).toBe(false);
        if (!fullWay) continue;
        const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/verify-email/');
        await t.app.inject({ method: 'POST', url: '/_allauth/app/v1/auth/email/verify', payload: { key } });
        const login = await t.app.inject({
          method: 'POST',
          url: '/_allauth/app/v1/auth/login',
          remoteAddress: nextIp(),
          payload: { email, password: value },
        });
        expect(login.statusCode, JSON.stringify(value)).toBe(200);
      }
    },
    120_000,
  );

  it('terms_agreement, phone_number_x and turnstile_token: never a 5xx', async () => {
    for (const value of hostile) {
      for (const field of ['terms_agreement', 'phone_number_x', 'turnstile_token']) {
        const res = await signUp({
          email: 'x@example.com',
          password: 'x',
          terms_agreement: true,
          [field]: value,
        });
        expect(res.statusCode, `${field}=${JSON.stringify(value)}`).toBeLessThan(500);
      }
    }
  });
});

describe('hostile strings in every profile field', () => {
  it('a 400 naming the field, or a value that reads back byte-identical', async () => {
    const signup = await signUp({
      email: 'profile@example.com',
      password: 'a-sturdy-passphrase',
      terms_agreement: true,
    });
    const key = await lastKeyFor(t.config.mail.outboxDir, 'profile@example.com', '/account/verify-email/');
    const verify = await t.app.inject({
      method: 'POST',
      url: '/_allauth/app/v1/auth/email/verify',
      headers: { 'x-session-token': signup.json().meta.session_token },
      payload: { key },
    });
    const token = verify.json().meta.session_token as string;
    const fields = {
      first_name: 'first_name',
      last_name: 'last_name',
      email: 'email',
      language: 'language',
      timezone: 'timezone',
    };
    let stored = 0;
    for (const value of hostile) {
      for (const field of Object.keys(fields)) {
        const res = await t.app.inject({
          method: 'PATCH',
          url: '/api/v1/app/me/',
          headers: { 'x-session-token': token },
          payload: { [field]: value },
        });
        const label = `${field}=${JSON.stringify(value)}`;
        expect(res.statusCode, label).toBeLessThan(500);
        if (field === 'email' && res.statusCode !== 400) {
          // A new address is only asked for (a link goes to it; changes are rate limited): the account keeps its own.
          expect([200, 429], label).toContain(res.statusCode);
          const me = await t.app.inject({
            method: 'GET',
            url: '/api/v1/app/me/',
            headers: { 'x-session-token': token },
          });
          expect(me.json().email, label).toBe('profile@example.com');
        } else if (res.statusCode === 200) {
          const me = await t.app.inject({
            method: 'GET',
            url: '/api/v1/app/me/',
            headers: { 'x-session-token': token },
          });
          expect(me.json()[field], label).toBe(value);
          stored++;
        } else {
          expect(res.statusCode, label).toBe(400);
          expect(res.json().errors[0].param, label).toBe(field);
        }
      }
    }
    expect(stored).toBeGreaterThan(hostile.length);
  });
});
