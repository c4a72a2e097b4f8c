import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastKeyFor } from '../../src/mail/outbox-reader.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// SEC-S rules of test/security/SPEC.md: sessions, CSRF and cookies (docs/security.md "Sessions").

const APP = '/_allauth/app/v1';
const BROWSER = '/_allauth/browser/v1';
const PASSWORD = 'quiet-harbour-lantern-42';
let t: TestApp;
let plain: TestApp;
let ipCounter = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://plans.example.com' });
  plain = await createTestApp({ PUBLIC_URL: 'http://localhost:8000' });
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { body?: object; headers?: Record<string, string>; app?: TestApp } = {},
): Promise<LightMyRequestResponse> {
  ipCounter += 1;
  return (options.app ?? t).app.inject({
    method,
    url,
    remoteAddress: `10.9.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`,
    headers: options.headers ?? {},
    ...(options.body ? { payload: options.body } : {}),
  });
}

const token = (headers: Record<string, string>) => ({ headers });

/** A verified account on `app`; answers the pending token of sign-up and the token verification gave. */
async function verifiedUser(email: string, app: TestApp = t) {
  const signup = await call('POST', `${APP}/auth/signup`, {
    app,
    body: { email, password: PASSWORD, terms_agreement: true },
  });
  const pending = signup.json().meta.session_token as string;
  const key = await lastKeyFor(app.config.mail.outboxDir, email, '/account/verify-email/');
  const verify = await call('POST', `${APP}/auth/email/verify`, {
    app,
    body: { key },
    headers: { 'x-session-token': pending },
  });
  expect(verify.statusCode).toBe(200);
  return { pending, verified: verify.json().meta.session_token as string };
}

async function sessionStatus(sessionToken: string): Promise<number> {
  return (await call('GET', `${APP}/auth/session`, token({ 'x-session-token': sessionToken }))).statusCode;
}

async function login(email: string, previous?: string): Promise<string> {
  const res = await call('POST', `${APP}/auth/login`, {
    body: { email, password: PASSWORD },
    headers: previous ? { 'x-session-token': previous } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().meta.session_token as string;
}

async function csrf(app: TestApp = t): Promise<string> {
  return (await call('GET', '/api/v1/apps/csrf/', { app })).json().csrftoken as string;
}

describe('session fixation', () => {
  it('SEC-S1: verifying the e-mail issues a new token; the pending one stops working', async () => {
    const { pending, verified } = await verifiedUser('fixation1@example.com');
    expect(verified).not.toBe(pending);
    expect(await sessionStatus(verified)).toBe(200);
    expect(await sessionStatus(pending)).not.toBe(200);
  });

  it('SEC-S2: signing in over a planted (unauthenticated) token issues a new one; the planted one gains nothing', async () => {
    await verifiedUser('fixation2@example.com');
    // The attacker's own half-finished sign-up: a real session token, not signed in.
    const attacker = await call('POST', `${APP}/auth/signup`, {
      body: { email: 'attacker2@example.com', password: PASSWORD, terms_agreement: true },
    });
    const planted = attacker.json().meta.session_token as string;
    expect(await sessionStatus(planted)).toBe(401);
    const fresh = await login('fixation2@example.com', planted);
    expect(fresh).not.toBe(planted);
    expect(await sessionStatus(planted)).not.toBe(200);
    expect(await sessionStatus(fresh)).toBe(200);
  });

  it('SEC-S3: a browser sign-in over a planted sessionid cookie sets a new cookie; the planted one gains nothing', async () => {
    await verifiedUser('fixation3@example.com');
    const csrfToken = await csrf();
    const headers = { cookie: `csrftoken=${csrfToken}`, 'x-csrftoken': csrfToken };
    const attacker = await call('POST', `${BROWSER}/auth/signup`, {
      body: { email: 'attacker3@example.com', password: PASSWORD, terms_agreement: true },
      headers,
    });
    const planted = /sessionid=([^;]+)/.exec(String(attacker.headers['set-cookie']))?.[1] ?? '';
    expect(planted).not.toBe('');
    const res = await call('POST', `${BROWSER}/auth/login`, {
      body: { email: 'fixation3@example.com', password: PASSWORD },
      headers: { ...headers, cookie: `${headers.cookie}; sessionid=${planted}` },
    });
    expect(res.statusCode).toBe(200);
    const cookie = /sessionid=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
    expect(cookie).toBeDefined();
    expect(cookie).not.toBe(planted);
    const replay = await call('GET', `${BROWSER}/auth/session`, {
      headers: { cookie: `sessionid=${planted}` },
    });
    expect(replay.statusCode).not.toBe(200);
  });

  it('SEC-S4: after sign-out the old token is invalid for the API and the chat', async () => {
    await verifiedUser('logout@example.com');
    const session = await login('logout@example.com');
    const out = await call('DELETE', `${APP}/auth/session`, token({ 'x-session-token': session }));
    expect(out.statusCode).toBe(401);
    expect(await sessionStatus(session)).not.toBe(200);
    const me = await call('GET', '/api/v1/app/me/', token({ 'x-session-token': session }));
    expect(me.statusCode).toBe(401);
  });

  it('SEC-S5: a password reset ends every session of the account', async () => {
    const email = 'reset@example.com';
    const { verified } = await verifiedUser(email);
    const other = await login(email);
    expect((await call('POST', `${APP}/auth/password/request`, { body: { email } })).statusCode).toBe(200);
    const key = await lastKeyFor(t.config.mail.outboxDir, email, '/account/password/reset/key/');
    const reset = await call('POST', `${APP}/auth/password/reset`, {
      body: { key, password: 'a-brand-new-passphrase-77' },
    });
    expect(reset.statusCode, reset.body).toBeLessThan(500);
    expect([200, 401]).toContain(reset.statusCode);
    expect(await sessionStatus(verified)).not.toBe(200);
    expect(await sessionStatus(other)).not.toBe(200);
  });
});

describe('CSRF, Origin and cookies', () => {
  it('SEC-S6: /api/v1/ never reads the session cookie, so a cross-site form cannot act there', async () => {
    await verifiedUser('cookie-only@example.com');
    const session = await login('cookie-only@example.com');
    for (const [method, url] of [
      ['GET', '/api/v1/app/me/'],
      ['POST', '/api/v1/documents/'],
    ] as const) {
      const res = await call(method, url, { headers: { cookie: `sessionid=${session}` }, body: {} });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('SEC-S7: browser unsafe methods need the double-submit token and our Origin', async () => {
    const csrfToken = await csrf();
    const body = { email: 'nobody@example.com', password: 'x' };
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 403],
      [{ cookie: `csrftoken=${csrfToken}` }, 403],
      [{ cookie: `csrftoken=${csrfToken}`, 'x-csrftoken': `${csrfToken}x` }, 403],
      [{ cookie: `csrftoken=${csrfToken}`, 'x-csrftoken': csrfToken, origin: 'https://evil.example' }, 403],
      [{ cookie: `csrftoken=${csrfToken}`, 'x-csrftoken': csrfToken, origin: 'null' }, 403],
      [
        { cookie: `csrftoken=${csrfToken}`, 'x-csrftoken': csrfToken, origin: 'https://plans.example.com' },
        400,
      ],
    ];
    for (const [headers, status] of cases) {
      const res = await call('POST', `${BROWSER}/auth/login`, { body, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(status);
    }
    const logout = await call('DELETE', `${BROWSER}/auth/session`, {
      headers: { cookie: `csrftoken=${csrfToken}`, origin: 'https://evil.example', 'x-csrftoken': csrfToken },
    });
    expect(logout.statusCode).toBe(403);
  });

  it('SEC-S8: the session cookie is HttpOnly and SameSite=Lax, Secure only with an https PUBLIC_URL', async () => {
    for (const [app, secure] of [
      [t, true],
      [plain, false],
    ] as const) {
      const email = `flags-${secure}@example.com`;
      await verifiedUser(email, app);
      const csrfToken = await csrf(app);
      const res = await call('POST', `${BROWSER}/auth/login`, {
        app,
        body: { email, password: PASSWORD },
        headers: { cookie: `csrftoken=${csrfToken}`, 'x-csrftoken': csrfToken },
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(/;\s*Secure/i.test(cookie)).toBe(secure);
      const csrfCookie = String((await call('GET', '/api/v1/apps/csrf/', { app })).headers['set-cookie']);
      expect(csrfCookie).toMatch(/SameSite=Lax/i);
      expect(/;\s*Secure/i.test(csrfCookie)).toBe(secure);
    }
  });
});
