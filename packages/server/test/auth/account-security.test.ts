import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../src/auth/password/index.js';
import { lastKeyFor, readOutbox } from '../../src/mail/outbox-reader.js';
import { allauthCaller, type Signed } from '../support/allauth-calls.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The account's security over the allauth contract (docs/auth.md "Sessions, password and tokens"): the signed-in
// sessions, reauthentication, changing (or setting) the password, and personal access tokens for scripts, for
// both clients.

const PASSWORD = 'quiet-harbour-lantern-42';
const NEW_PASSWORD = 'amber-orchard-compass-77';

let t: TestApp;
let clock = new Date('2026-11-29T10:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const hasher = createPasswordHasher({ params: { ln: 10, r: 8, p: 1 } });
let count = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://plans.example.com' }, { now, passwordHasher: hasher });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  advance(60 * 60_000);
});

const call = allauthCaller(() => t, {
  ip: '10.1.0.1',
  userAgents: { browser: 'Firefox on the laptop', app: 'planwright-cli' },
});

/** A verified account with a password (or none: made with Google). */
async function account(options: { password?: boolean } = {}) {
  count += 1;
  const email = `owner${count}@example.com`;
  const user = await t.storage.users.create({
    email,
    passwordHash: options.password === false ? null : await hasher.hash(PASSWORD),
    emailVerified: true,
    createdAt: now(),
  });
  return { email, user };
}

/** Signs in with the password through `client`; answers the session. */
async function signIn(email: string, client: 'app' | 'browser' = 'app'): Promise<Signed> {
  const res = await call('POST', 'auth/login', client === 'browser' ? { client, token: '' } : undefined, {
    email,
    password: PASSWORD,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { client, token: res.json().meta.session_token as string };
}

describe('sessions', () => {
  it('AS1 lists every sign-in with its client, user agent, address and times; ends others, or this one', async () => {
    const { email } = await account();
    const laptop = await signIn(email, 'browser');
    advance(60_000);
    const cli = await signIn(email, 'app');
    const phone = await signIn(email, 'app');
    for (const who of [laptop, cli]) {
      const res = await call('GET', 'auth/sessions', who);
      expect(res.statusCode, res.body).toBe(200);
      const sessions = res.json().data as Array<Record<string, unknown>>;
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((session) => session.is_current)).toHaveLength(1);
      expect(sessions[0]).toMatchObject({
        client: 'browser',
        user_agent: 'Firefox on the laptop',
        ip: '10.1.0.1',
        is_current: who === laptop,
        created_at: expect.any(Number),
        last_seen_at: expect.any(Number),
      });
      expect(Number.isInteger(sessions[0]?.id)).toBe(true);
    }
    const listed = (await call('GET', 'auth/sessions', cli)).json().data as Array<{
      id: number;
      is_current: boolean;
      client: string;
    }>;
    // The web app keeps a browser sign-in's token (after Google) and sends it as the app client's header.
    const asHeader = await call('GET', 'auth/sessions', { client: 'app', token: laptop.token });
    expect(asHeader.statusCode).toBe(200);
    expect(asHeader.json().data.find((session: { is_current: boolean }) => session.is_current).client).toBe(
      'browser',
    );
    const phoneId = listed.filter((session) => session.client === 'app' && !session.is_current)[0]?.id;
    const ended = await call('DELETE', 'auth/sessions', cli, { sessions: [phoneId] });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().data).toHaveLength(2);
    expect((await call('GET', 'auth/session', phone)).statusCode).toBe(410);

    // Another account's session numbers end nothing.
    const other = await account();
    const stranger = await signIn(other.email);
    const mine = listed.map((session) => session.id);
    expect((await call('DELETE', 'auth/sessions', stranger, { sessions: mine })).json().data).toHaveLength(1);
    expect((await call('GET', 'auth/sessions', cli)).json().data).toHaveLength(2);

    // Ending this one signs out: 401, and the cookie goes.
    const laptopId = (await call('GET', 'auth/sessions', laptop))
      .json()
      .data.find((session: { is_current: boolean }) => session.is_current).id;
    const out = await call('DELETE', 'auth/sessions', laptop, { sessions: [laptopId] });
    expect(out.statusCode).toBe(401);
    expect(out.json().meta.is_authenticated).toBe(false);
    expect(out.headers['set-cookie']).toMatch(/sessionid=;/);
    expect((await call('GET', 'auth/sessions', cli)).json().data).toHaveLength(1);
  });

  it('AS2 refusals: no session 401, a dead token 410, bad bodies 400', async () => {
    expect((await call('GET', 'auth/sessions', undefined)).statusCode).toBe(401);
    expect((await call('GET', 'auth/sessions', { client: 'app', token: 'gone' })).statusCode).toBe(410);
    const { email } = await account();
    const cli = await signIn(email);
    for (const body of [{}, { sessions: [] }, { sessions: ['1'] }, { sessions: [-1] }, { sessions: [1.5] }]) {
      const res = await call('DELETE', 'auth/sessions', cli, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[0].param).toMatch(/^sessions/);
    }
  });
});

describe('reauthentication and the password', () => {
  it('AS3 reauthenticate: a wrong password 400 (5 then 429), the right one renews the sign-in time', async () => {
    const { email } = await account();
    const cli = await signIn(email);
    advance(10 * 60_000);
    const wrong = await call('POST', 'auth/reauthenticate', cli, { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([
      { message: 'Incorrect password.', code: 'incorrect_password', param: 'password' },
    ]);
    const right = await call('POST', 'auth/reauthenticate', cli, { password: PASSWORD });
    expect(right.statusCode).toBe(200);
    expect(right.json().data.methods[0]).toMatchObject({ method: 'password', at: clock.getTime() / 1000 });
    for (let i = 0; i < 5; i += 1) await call('POST', 'auth/reauthenticate', cli, { password: 'not it' });
    const limited = await call('POST', 'auth/reauthenticate', cli, { password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('AS4 change the password: the current one is asked, others are signed out, reset links die, the owner is told', async () => {
    const { email } = await account();
    const laptop = await signIn(email, 'browser');
    const cli = await signIn(email, 'app');
    await call('POST', 'auth/password/request', undefined, { email });
    const resetKey = await lastKeyFor(t.config.mail.outboxDir, email, '/account/password/reset/key/');

    const missing = await call('POST', 'account/password/change', laptop, { new_password: NEW_PASSWORD });
    expect(missing.json().errors[0]).toMatchObject({ code: 'required', param: 'current_password' });
    const wrong = await call('POST', 'account/password/change', laptop, {
      current_password: 'not it',
      new_password: NEW_PASSWORD,
    });
    expect(wrong.json().errors[0]).toMatchObject({ code: 'incorrect_password', param: 'current_password' });
    const weak = await call('POST', 'account/password/change', laptop, {
      current_password: PASSWORD,
      new_password: '12345678',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.map((error: { param: string }) => error.param)).toContain('new_password');

    const changed = await call('POST', 'account/password/change', laptop, {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().meta.is_authenticated).toBe(true);
    expect((await call('GET', 'auth/session', laptop)).statusCode).toBe(200);
    expect((await call('GET', 'auth/session', cli)).statusCode).toBe(410);
    const reset = await call('POST', 'auth/password/reset', undefined, {
      key: resetKey,
      password: 'x-another-one-99',
    });
    expect(reset.json().errors[0].code).toBe('token_invalid');
    const old = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
    expect(old.statusCode).toBe(400);
    const fresh = await call('POST', 'auth/login', undefined, { email, password: NEW_PASSWORD });
    expect(fresh.statusCode).toBe(200);
    const notices = (await readOutbox(t.config.mail.outboxDir)).filter(
      (mail) => mail.to.includes(email) && mail.subject === 'Your Planwright password was changed',
    );
    expect(notices).toHaveLength(1);
  });

  it('AS5 an account made with Google sets its first password after a recent sign-in, else is asked to sign in again', async () => {
    const { email, user } = await account({ password: false });
    const { SessionService } = await import('../../src/auth/session-service.js');
    const sessions = new SessionService(t.storage, t.config.sessions, now);
    const issued = await sessions.issue(
      { client: 'app', token: undefined, ip: '10.1.0.1', userAgent: 'vitest' },
      { user, authenticated: true, method: 'socialaccount', provider: 'google' },
    );
    const google: Signed = { client: 'app', token: issued.token };
    advance(6 * 60_000);
    const stale = await call('POST', 'account/password/change', google, { new_password: NEW_PASSWORD });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({
      status: 401,
      data: { flows: [], user: { email, has_usable_password: false } },
      meta: { is_authenticated: true },
    });
    const again = await sessions.issue(
      { client: 'app', token: undefined, ip: '10.1.0.1', userAgent: 'vitest' },
      { user, authenticated: true, method: 'socialaccount', provider: 'google' },
    );
    const set = await call(
      'POST',
      'account/password/change',
      { client: 'app', token: again.token },
      {
        new_password: NEW_PASSWORD,
      },
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.user.has_usable_password).toBe(true);
    expect((await call('POST', 'auth/login', undefined, { email, password: NEW_PASSWORD })).statusCode).toBe(
      200,
    );
  });
});

describe('personal access tokens', () => {
  it('AS6 made after a recent sign-in, shown once, work on /api/v1/ (read-only ones only read), listed with last use, revoked at once', async () => {
    const { email } = await account();
    const cli = await signIn(email);
    advance(10 * 60_000);
    const stale = await call('POST', 'account/tokens', cli, { name: 'nightly export' });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().data.flows).toEqual([{ id: 'reauthenticate' }]);
    await call('POST', 'auth/reauthenticate', cli, { password: PASSWORD });
    const made = await call('POST', 'account/tokens', cli, { name: 'nightly export', expires_in_days: 30 });
    expect(made.statusCode, made.body).toBe(200);
    const token = made.json().meta.token as string;
    expect(token).toMatch(/^pwt_[A-Za-z0-9_-]{43}$/);
    expect(made.json().data).toMatchObject({
      name: 'nightly export',
      scope: 'write',
      token_hint: token.slice(0, 8),
      expires_at: clock.getTime() / 1000 + 30 * 86_400,
      last_used_at: null,
    });
    const reader = (await call('POST', 'account/tokens', cli, { name: 'dashboard', scope: 'read' })).json()
      .meta.token as string;

    const api = (method: 'GET' | 'POST', path: string, bearer: string, body?: object) =>
      t.app.inject({
        method,
        url: `/api/v1/${path}`,
        headers: { 'x-session-token': bearer },
        ...(body ? { payload: body } : {}),
      });
    advance(2 * 60_000);
    expect((await api('GET', 'documents/', token)).statusCode).toBe(200);
    expect((await api('POST', 'documents/', token, { title: 'By token' })).statusCode).toBe(201);
    expect((await api('GET', 'documents/', reader)).statusCode).toBe(200);
    const refused = await api('POST', 'documents/', reader, { title: 'Not by a reader' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'not_permitted' });
    // A token is no sign-in: the allauth endpoints do not know it, nor do these.
    expect((await call('GET', 'auth/session', { client: 'app', token })).statusCode).toBe(410);
    expect((await call('GET', 'account/tokens', { client: 'app', token })).statusCode).toBe(410);
    expect(
      (await call('POST', 'account/tokens', { client: 'app', token }, { name: 'chained' })).statusCode,
    ).toBe(410);

    const listed = (await call('GET', 'account/tokens', cli)).json().data as Array<{
      id: number;
      name: string;
      last_used_at: number | null;
    }>;
    expect(listed.map((entry) => entry.name)).toEqual(['dashboard', 'nightly export']);
    expect(listed[1]?.last_used_at).toBe(clock.getTime() / 1000);
    expect(JSON.stringify(listed)).not.toContain(token);
    // Tokens are not sessions in the sessions list.
    expect((await call('GET', 'auth/sessions', cli)).json().data).toHaveLength(1);

    const revoked = await call('DELETE', `account/tokens/${listed[1]?.id}`, cli);
    expect(revoked.statusCode).toBe(200);
    expect((await api('GET', 'documents/', token)).statusCode).toBe(401);
    expect((await call('DELETE', `account/tokens/${listed[1]?.id}`, cli)).statusCode).toBe(404);
    const other = await account();
    const stranger = await signIn(other.email);
    expect((await call('DELETE', `account/tokens/${listed[0]?.id}`, stranger)).statusCode).toBe(404);
    expect((await api('GET', 'documents/', reader)).statusCode).toBe(200);

    // Expired: past its days, it signs nobody in.
    advance(91 * 86_400_000);
    expect((await api('GET', 'documents/', reader)).statusCode).toBe(401);
  });

  it('AS7 bad token settings are refused with their field', async () => {
    const { email } = await account();
    const cli = await signIn(email);
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 'bell\u0007' },
      { name: 'ok', expires_in_days: 0 },
      { name: 'ok', expires_in_days: 366 },
      { name: 'ok', expires_in_days: 1.5 },
      { name: 'ok', scope: 'admin' },
    ]) {
      const res = await call('POST', 'account/tokens', cli, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('sensitive API actions', () => {
  it('AS8 deleting a plan shared with others needs a recent sign-in (428), given again by reauthentication', async () => {
    const { email, user } = await account();
    const other = await account();
    const cli = await signIn(email);
    const api = (method: 'POST' | 'DELETE', path: string, body?: object) =>
      t.app.inject({
        method,
        url: `/api/v1/${path}`,
        headers: { 'x-session-token': cli.token },
        ...(body ? { payload: body } : {}),
      });
    const shared = (await api('POST', 'documents/', { title: 'Shared' })).json();
    const alone = (await api('POST', 'documents/', { title: 'Alone' })).json();
    await t.storage.documentMembers.put({
      documentId: shared.uuid,
      userId: other.user.id,
      role: 'editor',
      addedBy: user.id,
      at: now(),
    });
    advance(10 * 60_000);
    expect((await api('DELETE', `documents/${alone.uuid}/`)).statusCode).toBe(204);
    const refused = await api('DELETE', `documents/${shared.uuid}/`);
    expect(refused.statusCode).toBe(428);
    expect(refused.json()).toMatchObject({ code: 'reauthentication_required' });
    expect((await call('POST', 'auth/reauthenticate', cli, { password: PASSWORD })).statusCode).toBe(200);
    expect((await api('DELETE', `documents/${shared.uuid}/`)).statusCode).toBe(204);
  });
});
