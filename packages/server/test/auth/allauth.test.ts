import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/auth/secrets.js';
import { lastKeyFor, readOutbox } from '../../src/mail/outbox-reader.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const APP = '/_allauth/app/v1';
const BROWSER = '/_allauth/browser/v1';
const GOOD_PASSWORD = 'quiet-harbour-lantern-42';

let t: TestApp;
let clock = new Date('2026-11-21T10:00:00.000Z');
let ipCounter = 0;
/** Each test gets its own client address, so per-IP rate limits never leak between tests. */
let ip = '10.0.0.1';

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://plans.example.com' }, { now: () => clock });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  clock = new Date(clock.getTime() + 60 * 60 * 1000);
  ipCounter++;
  ip = `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
});

let emailCounter = 0;
const newEmail = () => `founder${++emailCounter}@example.com`;

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { body?: object; token?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: { ...(options.token ? { 'x-session-token': options.token } : {}), ...options.headers },
    ...(options.body ? { payload: options.body } : {}),
  });
}

async function signUp(email: string, password = GOOD_PASSWORD) {
  return call('POST', `${APP}/auth/signup`, {
    body: { email, password, terms_agreement: true, phone_number_x: '' },
  });
}

/** Signs up and verifies through the e-mailed link; returns the authenticated session token. */
async function verifiedUser(email = newEmail()): Promise<{ email: string; token: string }> {
  const signup = await signUp(email);
  const pendingToken = signup.json().meta.session_token as string;
  const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/verify-email/');
  const verify = await call('POST', `${APP}/auth/email/verify`, { body: { key }, token: pendingToken });
  expect(verify.statusCode).toBe(200);
  return { email, token: verify.json().meta.session_token };
}

describe('config', () => {
  it('answers the account configuration for both clients', async () => {
    for (const prefix of [APP, BROWSER]) {
      const res = await call('GET', `${prefix}/config`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 200,
        data: {
          account: {
            login_methods: ['email'],
            is_open_for_signup: true,
            email_verification_by_code_enabled: false,
            login_by_code_enabled: false,
            password_reset_by_code_enabled: false,
          },
        },
      });
    }
  });
});

describe('sign-up → verify → session → logout (app client)', () => {
  it('walks the whole flow with allauth envelopes', async () => {
    const email = newEmail();
    const signup = await signUp(email);
    expect(signup.statusCode).toBe(401);
    const pending = signup.json();
    expect(pending).toMatchObject({
      status: 401,
      data: { flows: expect.arrayContaining([{ id: 'verify_email', is_pending: true }]) },
      meta: { is_authenticated: false, session_token: expect.any(String) },
    });
    const pendingToken = pending.meta.session_token as string;
    expect(pendingToken.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url

    const session = await call('GET', `${APP}/auth/session`, { token: pendingToken });
    expect(session.statusCode).toBe(401);
    expect(session.json().data.flows).toContainEqual({ id: 'verify_email', is_pending: true });

    const mail = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.links[0]).toMatch(
      /^https:\/\/plans\.example\.com\/account\/verify-email\/[A-Za-z0-9_-]{43}$/,
    );
    const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/verify-email/');

    const info = await call('GET', `${APP}/auth/email/verify`, {
      token: pendingToken,
      headers: { 'x-email-verification-key': key },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ status: 200, data: { email }, meta: { is_authenticating: true } });

    const verify = await call('POST', `${APP}/auth/email/verify`, { body: { key }, token: pendingToken });
    expect(verify.statusCode).toBe(200);
    const authenticated = verify.json();
    expect(authenticated).toMatchObject({
      status: 200,
      data: {
        user: { email, has_verified_email: true, has_usable_password: true, display: email },
        methods: [{ method: 'password', email }],
      },
      meta: { is_authenticated: true, session_token: expect.any(String) },
    });
    const token = authenticated.meta.session_token as string;
    expect(token).not.toBe(pendingToken); // rotated on authentication

    expect((await call('GET', `${APP}/auth/session`, { token: pendingToken })).statusCode).toBe(410);
    const live = await call('GET', `${APP}/auth/session`, { token });
    expect(live.statusCode).toBe(200);
    expect(live.json().data.user.email).toBe(email);

    const logout = await call('DELETE', `${APP}/auth/session`, { token });
    expect(logout.statusCode).toBe(401);
    expect(logout.json()).toMatchObject({ status: 401, meta: { is_authenticated: false } });
    expect((await call('GET', `${APP}/auth/session`, { token })).statusCode).toBe(410);
  });

  it('answers 401 without flows pending and without a token', async () => {
    const res = await call('GET', `${APP}/auth/session`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      status: 401,
      data: { flows: [{ id: 'login' }, { id: 'signup' }] },
      meta: { is_authenticated: false },
    });
  });

  it('answers 410 for an unknown token', async () => {
    const res = await call('GET', `${APP}/auth/session`, { token: 'no-such-token' });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ status: 410, meta: { is_authenticated: false } });
  });
});

describe('sign-up validation', () => {
  it('names each bad field with the codes of spec 000 §5', async () => {
    const res = await call('POST', `${APP}/auth/signup`, {
      body: { email: 'not-an-address', password: '', terms_agreement: false },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as { param?: string; code: string }[];
    expect(errors).toContainEqual(expect.objectContaining({ param: 'email', code: 'invalid_email' }));
    expect(errors).toContainEqual(expect.objectContaining({ param: 'password', code: 'required' }));
    expect(errors).toContainEqual(expect.objectContaining({ param: 'terms_agreement', code: 'required' }));
  });

  it.each([
    ['short', 'password_too_short'],
    ['12345678901', 'password_entirely_numeric'],
    ['password', 'password_too_common'],
  ])('refuses the password %j with %s', async (password, code) => {
    const res = await signUp(newEmail(), password);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(expect.objectContaining({ param: 'password', code }));
  });

  it('refuses a password too similar to the address', async () => {
    const res = await signUp('marguerite.delacroix@example.com', 'marguerite.delacroix');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(
      expect.objectContaining({ param: 'password', code: 'password_too_similar' }),
    );
  });

  it('accepts a long password without truncating it', async () => {
    const password = `${'correct horse battery staple '.repeat(3)}!`;
    const email2 = newEmail();
    expect((await signUp(email2, password)).statusCode).toBe(401);
    const key = await lastKeyFor(t.config.mail.outboxDir, email2, '/account/verify-email/');
    await call('POST', `${APP}/auth/email/verify`, { body: { key } });
    const wrongLast = await call('POST', `${APP}/auth/login`, {
      body: { email: email2, password: `${password.slice(0, -1)}?` },
    });
    expect(wrongLast.statusCode).toBe(400);
    expect((await call('POST', `${APP}/auth/login`, { body: { email: email2, password } })).statusCode).toBe(
      200,
    );
  });
});

describe('enumeration prevention', () => {
  it('answers sign-up with a taken address exactly like a new one, and e-mails the owner', async () => {
    const { email } = await verifiedUser();
    const fresh = await signUp(newEmail());
    const taken = await signUp(email.toUpperCase());
    expect(taken.statusCode).toBe(fresh.statusCode);
    const strip = (body: { meta: { session_token: string } }) => ({
      ...body,
      meta: { ...body.meta, session_token: 'x' },
    });
    expect(strip(taken.json())).toEqual(strip(fresh.json()));
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
    const owner = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email);
    expect(owner.at(-1)?.subject).toBe('You already have a Planwright account');
  });

  it('answers a reset request for an unknown address like a known one', async () => {
    const { email } = await verifiedUser();
    const known = await call('POST', `${APP}/auth/password/request`, { body: { email } });
    const unknown = await call('POST', `${APP}/auth/password/request`, {
      body: { email: 'nobody@example.com' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
  });

  it('answers a login for an unknown address like a wrong password', async () => {
    const { email } = await verifiedUser();
    const wrong = await call('POST', `${APP}/auth/login`, { body: { email, password: 'not-the-password' } });
    const unknown = await call('POST', `${APP}/auth/login`, {
      body: { email: 'ghost@example.com', password: 'x' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.body).toBe(wrong.body);
  });
});

describe('honeypot', () => {
  it('answers a filled phone_number_x like a sign-up and creates no account', async () => {
    const email = newEmail();
    const res = await call('POST', `${APP}/auth/signup`, {
      body: { email, password: GOOD_PASSWORD, terms_agreement: true, phone_number_x: '+1 555 0100' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().data.flows).toContainEqual({ id: 'verify_email', is_pending: true });
    expect(await t.storage.users.findByEmail(email)).toBeUndefined();
    expect((await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email)).toHaveLength(0);
  });
});

describe('login', () => {
  it('signs in a verified user with a new token each time', async () => {
    const { email } = await verifiedUser();
    const first = await call('POST', `${APP}/auth/login`, { body: { email, password: GOOD_PASSWORD } });
    const second = await call('POST', `${APP}/auth/login`, {
      body: { email: email.toUpperCase(), password: GOOD_PASSWORD },
    });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.json().meta.session_token).not.toBe(second.json().meta.session_token);
  });

  it('answers 409 when already signed in', async () => {
    const { email, token } = await verifiedUser();
    const res = await call('POST', `${APP}/auth/login`, { body: { email, password: GOOD_PASSWORD }, token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 409 });
  });

  it('answers an unverified address with a pending verification and a new e-mail', async () => {
    const email = newEmail();
    await signUp(email);
    const res = await call('POST', `${APP}/auth/login`, { body: { email, password: GOOD_PASSWORD } });
    expect(res.statusCode).toBe(401);
    expect(res.json().data.flows).toContainEqual({ id: 'verify_email', is_pending: true });
    expect((await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email)).toHaveLength(2);
  });

  it('locks an account for 5 minutes after 5 failed attempts, with a non-field error', async () => {
    const { email } = await verifiedUser();
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', `${APP}/auth/login`, { body: { email, password: `wrong-${i}` } });
      expect(res.json().errors[0].code).toBe('email_password_mismatch');
    }
    const locked = await call('POST', `${APP}/auth/login`, { body: { email, password: GOOD_PASSWORD } });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().errors).toEqual([
      { message: 'Too many failed login attempts. Try again later.', code: 'too_many_login_attempts' },
    ]);
    clock = new Date(clock.getTime() + 5 * 60_000 + 1000);
    expect(
      (await call('POST', `${APP}/auth/login`, { body: { email, password: GOOD_PASSWORD } })).statusCode,
    ).toBe(200);
  });

  it('answers 429 with Retry-After past 30 logins a minute from one address', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await call('POST', `${APP}/auth/login`, {
        body: { email: `x${i}@example.com`, password: 'x' },
      });
      expect(res.statusCode).toBe(400);
    }
    const limited = await call('POST', `${APP}/auth/login`, {
      body: { email: 'y@example.com', password: 'x' },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ status: 429 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('keys', () => {
  it('refuses a verification key twice, saying the address is already verified', async () => {
    const email = newEmail();
    await signUp(email);
    const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/verify-email/');
    const first = await call('POST', `${APP}/auth/email/verify`, { body: { key } });
    expect(first.statusCode).toBe(401); // verified, but this client had no pending session
    const again = await call('POST', `${APP}/auth/email/verify`, { body: { key } });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual([
      { message: 'This email address has already been verified.', code: 'already_verified', param: 'key' },
    ]);
  });

  it('expires verification keys after 3 days', async () => {
    const email = newEmail();
    await signUp(email);
    const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/verify-email/');
    clock = new Date(clock.getTime() + 3 * 24 * 60 * 60_000 + 1000);
    const res = await call('POST', `${APP}/auth/email/verify`, { body: { key } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ code: 'invalid', param: 'key' });
  });

  it('answers 400 for a made-up key and a missing header', async () => {
    expect(
      (await call('GET', `${APP}/auth/email/verify`, { headers: { 'x-email-verification-key': 'nope' } }))
        .statusCode,
    ).toBe(400);
    expect((await call('GET', `${APP}/auth/email/verify`)).statusCode).toBe(400);
    expect((await call('GET', `${APP}/auth/password/reset`)).json().errors[0].code).toBe('token_invalid');
  });
});

describe('password reset', () => {
  it('resets with the e-mailed key once, ends every session, and the new password works', async () => {
    const { email, token } = await verifiedUser();
    await call('POST', `${APP}/auth/password/request`, { body: { email } });
    const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/password/reset/key/');
    const info = await call('GET', `${APP}/auth/password/reset`, {
      headers: { 'x-password-reset-key': key },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json().data.user.email).toBe(email);

    const weak = await call('POST', `${APP}/auth/password/reset`, { body: { key, password: '123' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0].param).toBe('password');

    const reset = await call('POST', `${APP}/auth/password/reset`, {
      body: { key, password: 'a-brand-new-passphrase' },
    });
    expect(reset.statusCode).toBe(401);
    expect((await call('GET', `${APP}/auth/session`, { token })).statusCode).toBe(410);
    const reused = await call('POST', `${APP}/auth/password/reset`, {
      body: { key, password: 'another-new-passphrase' },
    });
    expect(reused.json().errors[0]).toMatchObject({ code: 'token_invalid', param: 'key' });
    expect(
      (await call('POST', `${APP}/auth/login`, { body: { email, password: GOOD_PASSWORD } })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${APP}/auth/login`, { body: { email, password: 'a-brand-new-passphrase' } }))
        .statusCode,
    ).toBe(200);
  });

  it.each([
    ['newer', 'older'],
    ['older', 'newer'],
  ] as const)('using the %s of two reset keys ends the %s; verification keys stay', async (used, other) => {
    const email = newEmail();
    await signUp(email); // unverified: its verification key is still outstanding
    const verifyKey = await lastKeyFor(t.config.mail.outboxDir, email, '/account/verify-email/');
    const resetKey = async () => {
      expect((await call('POST', `${APP}/auth/password/request`, { body: { email } })).statusCode).toBe(200);
      return lastKeyFor(t.config.mail.outboxDir, email, '/account/password/reset/key/');
    };
    const keys = { older: await resetKey(), newer: await resetKey() };
    expect(keys.newer).not.toBe(keys.older);

    const reset = await call('POST', `${APP}/auth/password/reset`, {
      body: { key: keys[used], password: 'a-brand-new-passphrase' },
    });
    expect(reset.statusCode).toBe(401);
    const again = await call('POST', `${APP}/auth/password/reset`, {
      body: { key: keys[other], password: 'an-attackers-passphrase' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual([expect.objectContaining({ code: 'token_invalid', param: 'key' })]);
    const info = await call('GET', `${APP}/auth/password/reset`, {
      headers: { 'x-password-reset-key': keys[other] },
    });
    expect(info.json().errors[0].code).toBe('token_invalid');
    expect(
      (await call('POST', `${APP}/auth/login`, { body: { email, password: 'an-attackers-passphrase' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${APP}/auth/login`, { body: { email, password: 'a-brand-new-passphrase' } }))
        .statusCode,
    ).toBe(200);
    const verification = await t.storage.accountKeys.find('verify_email', hashSecret(verifyKey));
    expect(verification).toMatchObject({ usedAt: null });
  });

  it('expires reset keys after 24 hours', async () => {
    const { email } = await verifiedUser();
    await call('POST', `${APP}/auth/password/request`, { body: { email } });
    const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/password/reset/key/');
    clock = new Date(clock.getTime() + 24 * 60 * 60_000 + 1000);
    const res = await call('GET', `${APP}/auth/password/reset`, { headers: { 'x-password-reset-key': key } });
    expect(res.statusCode).toBe(400);
  });

  it('limits reset requests to 5 a minute per address', async () => {
    const { email } = await verifiedUser();
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', `${APP}/auth/password/request`, { body: { email } })).statusCode).toBe(200);
    }
    expect((await call('POST', `${APP}/auth/password/request`, { body: { email } })).statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('expires a session idle for longer than the idle timeout', async () => {
    const { token } = await verifiedUser();
    clock = new Date(clock.getTime() + 336 * 60 * 60_000 + 1000);
    expect((await call('GET', `${APP}/auth/session`, { token })).statusCode).toBe(410);
  });

  it('expires a busy session at its absolute age', async () => {
    const { token } = await verifiedUser();
    for (let day = 0; day < 30; day++) {
      clock = new Date(clock.getTime() + 24 * 60 * 60_000);
      expect((await call('GET', `${APP}/auth/session`, { token })).statusCode).toBe(200);
    }
    clock = new Date(clock.getTime() + 60 * 60_000);
    expect((await call('GET', `${APP}/auth/session`, { token })).statusCode).toBe(410);
  });

  it('never lets an app token act as a browser cookie', async () => {
    const { token } = await verifiedUser();
    const res = await call('GET', `${BROWSER}/auth/session`, { headers: { cookie: `sessionid=${token}` } });
    expect(res.statusCode).toBe(410);
  });
});

describe('browser client', () => {
  async function csrf() {
    const res = await call('GET', '/api/v1/apps/csrf/');
    const token = res.json().csrftoken as string;
    expect(res.headers['set-cookie']).toMatch(new RegExp(`csrftoken=${token}`));
    return token;
  }

  it('refuses an unsafe call without the CSRF header, or from another origin', async () => {
    const token = await csrf();
    const body = { email: 'a@example.com', password: 'x' };
    const missing = await call('POST', `${BROWSER}/auth/login`, {
      body,
      headers: { cookie: `csrftoken=${token}` },
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().errors[0].code).toBe('csrf_failed');
    const wrong = await call('POST', `${BROWSER}/auth/login`, {
      body,
      headers: { cookie: `csrftoken=${token}`, 'x-csrftoken': 'other' },
    });
    expect(wrong.statusCode).toBe(403);
    const foreign = await call('POST', `${BROWSER}/auth/login`, {
      body,
      headers: { cookie: `csrftoken=${token}`, 'x-csrftoken': token, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().errors[0].code).toBe('origin_not_allowed');
    const ok = await call('POST', `${BROWSER}/auth/login`, {
      body,
      headers: { cookie: `csrftoken=${token}`, 'x-csrftoken': token, origin: 'https://plans.example.com' },
    });
    expect(ok.statusCode).toBe(400); // past the guard: a wrong password
  });

  it('signs in with an HttpOnly, SameSite=Lax, Secure session cookie and signs out clearing it', async () => {
    const { email } = await verifiedUser();
    const token = await csrf();
    const headers = { cookie: `csrftoken=${token}`, 'x-csrftoken': token };
    const login = await call('POST', `${BROWSER}/auth/login`, {
      body: { email, password: GOOD_PASSWORD },
      headers,
    });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/sessionid=[A-Za-z0-9_-]{43}/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
    const sessionId = /sessionid=([^;]+)/.exec(cookie)?.[1];
    const withSession = { cookie: `csrftoken=${token}; sessionid=${sessionId}`, 'x-csrftoken': token };
    const session = await call('GET', `${BROWSER}/auth/session`, { headers: withSession });
    expect(session.statusCode).toBe(200);
    // The web app keeps this as its X-Session-Token for /api/v1/ (docs/auth.md).
    expect(session.json().meta.session_token).toBe(sessionId);
    const me = await call('GET', '/api/v1/app/me/', { token: sessionId });
    expect(me.statusCode).toBe(200);
    const logout = await call('DELETE', `${BROWSER}/auth/session`, { headers: withSession });
    expect(logout.statusCode).toBe(401);
    expect(String(logout.headers['set-cookie'])).toMatch(/sessionid=;/);
    expect((await call('GET', `${BROWSER}/auth/session`, { headers: withSession })).statusCode).toBe(410);
  });
});

describe('/api/v1/app/me/', () => {
  it('reads and updates the profile; changing the e-mail sends a verification to the new address', async () => {
    const { email, token } = await verifiedUser();
    const me = await call('GET', '/api/v1/app/me/', { token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email,
      first_name: '',
      last_name: '',
      has_verified_email: true,
      get_display_name: email,
    });

    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/app/me/',
      headers: { 'x-session-token': token },
      payload: { first_name: 'Ada', last_name: 'Lovelace', language: 'en-GB', timezone: 'Europe/London' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      user: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        get_display_name: 'Ada Lovelace',
        timezone: 'Europe/London',
      },
      email_verification_sent: false,
    });

    const newAddress = newEmail();
    const moved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/app/me/',
      headers: { 'x-session-token': token },
      payload: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: newAddress,
        language: null,
        timezone: null,
      },
    });
    expect(moved.statusCode).toBe(200);
    // The account keeps its verified address until the new one's link is opened (email-change.test.ts).
    expect(moved.json()).toMatchObject({
      user: { email, has_verified_email: true },
      email_verification_sent: true,
    });
    await lastKeyFor(t.config.mail.outboxDir, newAddress, '/account/verify-email/');
  });

  it('answers 401 without a session and 400 naming a bad field', async () => {
    expect((await call('GET', '/api/v1/app/me/')).statusCode).toBe(401);
    const { token } = await verifiedUser();
    const bad = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/app/me/',
      headers: { 'x-session-token': token },
      payload: { timezone: 'Mars/Olympus_Mons' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].param).toBe('timezone');
  });
});

describe('resend verification', () => {
  it('answers the same for unknown, verified and unverified addresses, and sends only for the last', async () => {
    const { email: verified } = await verifiedUser();
    const unverified = newEmail();
    await signUp(unverified);
    const answers = await Promise.all(
      [verified, unverified, 'nobody@example.com'].map((email) =>
        call('POST', '/api/v1/users/resend-verification/', { body: { email } }),
      ),
    );
    expect(new Set(answers.map((res) => res.statusCode))).toEqual(new Set([200]));
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect((await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === unverified)).toHaveLength(2);
  });
});
