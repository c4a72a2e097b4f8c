import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../src/auth/password/index.js';
import { allauthCaller } from '../support/allauth-calls.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Two-factor authentication over the allauth contract (docs/auth.md "Two-factor authentication"): TOTP set up
// from its secret, asked after the password at sign-in (both clients), no code twice, recovery codes once each,
// wrong codes limited, and turning it off after a reauthentication by code. The clock is injected.

const PASSWORD = 'quiet-harbour-lantern-42';

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

const call = allauthCaller(() => t, { ip: '10.2.0.1' });

const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at.getTime(),
  });

/** A verified account with a password, signed in (app client), with TOTP on; answers its secret. */
async function withTotp() {
  count += 1;
  const email = `second${count}@example.com`;
  await t.storage.users.create({
    email,
    passwordHash: await hasher.hash(PASSWORD),
    emailVerified: true,
    createdAt: now(),
  });
  const login = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
  const app = { client: 'app' as const, token: login.json().meta.session_token as string };
  const offered = await call('GET', 'account/authenticators/totp', app);
  expect(offered.statusCode).toBe(404);
  const secret = offered.json().meta.secret as string;
  const activated = await call('POST', 'account/authenticators/totp', app, { code: codeAt(secret, clock) });
  expect(activated.statusCode, activated.body).toBe(200);
  return { email, secret, app };
}

describe('two-factor authentication', () => {
  it('TF1 set up: a secret and its otpauth URL (the same on a reload), a wrong first code refused, then active', async () => {
    count += 1;
    const email = `setup${count}@example.com`;
    await t.storage.users.create({
      email,
      passwordHash: await hasher.hash(PASSWORD),
      emailVerified: true,
      createdAt: now(),
    });
    const login = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
    const app = { client: 'app' as const, token: login.json().meta.session_token as string };
    const offered = await call('GET', 'account/authenticators/totp', app);
    expect(offered.statusCode).toBe(404);
    const { secret, totp_url: url } = offered.json().meta as { secret: string; totp_url: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(url).toBe(
      `otpauth://totp/Planwright:${encodeURIComponent(email)}?issuer=Planwright&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect((await call('GET', 'account/authenticators/totp', app)).json().meta.secret).toBe(secret);
    const wrong = await call('POST', 'account/authenticators/totp', app, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toMatchObject({ code: 'incorrect_code', param: 'code' });
    expect(
      (await call('POST', 'account/authenticators/totp', app, { code: codeAt(secret, clock) })).statusCode,
    ).toBe(200);
    const status = await call('GET', 'account/authenticators/totp', app);
    expect(status.json()).toMatchObject({
      status: 200,
      data: { type: 'totp', created_at: expect.any(Number) },
    });
    expect(
      (await call('POST', 'account/authenticators/totp', app, { code: codeAt(secret, clock) })).statusCode,
    ).toBe(409);

    const made = await call('POST', 'account/authenticators/recovery-codes', app);
    expect(made.statusCode).toBe(200);
    const codes = made.json().data.unused_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const counted = await call('GET', 'account/authenticators/recovery-codes', app);
    expect(counted.json().data).toMatchObject({
      total_code_count: 10,
      unused_code_count: 10,
      unused_codes: [],
    });
    const listed = await call('GET', 'account/authenticators', app);
    expect(listed.json().data.map((entry: { type: string }) => entry.type)).toEqual([
      'totp',
      'recovery_codes',
    ]);
  });

  it('TF2 sign-in asks for the code after the password (both clients); a code is never accepted twice', async () => {
    const { email, secret } = await withTotp();
    for (const client of ['app', 'browser'] as const) {
      advance(60_000);
      const login =
        client === 'app'
          ? await call('POST', 'auth/login', undefined, { email, password: PASSWORD })
          : await call('POST', 'auth/login', { client, token: '' }, { email, password: PASSWORD });
      expect(login.statusCode).toBe(401);
      expect(login.json().data.flows).toContainEqual({ id: 'mfa_authenticate', is_pending: true });
      const pendingToken =
        client === 'app'
          ? (login.json().meta.session_token as string)
          : (/sessionid=([^;]+)/.exec(String(login.headers['set-cookie']))?.[1] ?? '');
      const pending = { client, token: pendingToken };
      // Not signed in yet: the API refuses the pending token.
      const api = await t.app.inject({
        method: 'GET',
        url: '/api/v1/documents/',
        headers: { 'x-session-token': pendingToken },
      });
      expect(api.statusCode).toBe(401);
      expect((await call('POST', 'auth/2fa/authenticate', pending, { code: '123456' })).statusCode).toBe(400);
      const code = codeAt(secret, clock);
      const signed = await call('POST', 'auth/2fa/authenticate', pending, { code });
      expect(signed.statusCode, signed.body).toBe(200);
      expect(signed.json().data.methods.map((method: { method: string }) => method.method)).toEqual([
        'password',
        'mfa',
      ]);
      // The same code again, for another sign-in in the same 30 seconds: refused.
      const again = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
      const replay = await call(
        'POST',
        'auth/2fa/authenticate',
        { client: 'app', token: again.json().meta.session_token },
        { code },
      );
      expect(replay.statusCode).toBe(400);
    }
  });

  it('TF3 a recovery code signs in once; wrong codes are limited like logins', async () => {
    const { email, app } = await withTotp();
    const codes = (await call('POST', 'account/authenticators/recovery-codes', app)).json().data
      .unused_codes as string[];
    const signIn = async () => {
      const login = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
      return { client: 'app' as const, token: login.json().meta.session_token as string };
    };
    const first = await signIn();
    expect(
      (await call('POST', 'auth/2fa/authenticate', first, { code: ` ${codes[0]?.toUpperCase()} ` }))
        .statusCode,
    ).toBe(200);
    const second = await signIn();
    expect(
      (await call('POST', 'auth/2fa/authenticate', second, { code: codes[0] as string })).statusCode,
    ).toBe(400);
    expect(
      (await call('GET', 'account/authenticators/recovery-codes', app)).json().data.unused_code_count,
    ).toBe(9);
    for (let i = 0; i < 4; i += 1) await call('POST', 'auth/2fa/authenticate', second, { code: '000000' });
    const limited = await call('POST', 'auth/2fa/authenticate', second, { code: codes[1] as string });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('TF4 turning it off needs a recent sign-in, and a code reauthenticates; then sign-in asks no more', async () => {
    const { email, secret, app } = await withTotp();
    advance(10 * 60_000);
    const stale = await call('DELETE', 'account/authenticators/totp', app);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().data.flows).toEqual([{ id: 'reauthenticate' }, { id: 'mfa_reauthenticate' }]);
    const reauth = await call('POST', 'auth/2fa/reauthenticate', app, { code: codeAt(secret, clock) });
    expect(reauth.statusCode).toBe(200);
    expect((await call('DELETE', 'account/authenticators/totp', app)).statusCode).toBe(200);
    const login = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect((await call('GET', 'account/authenticators', app)).json().data).toEqual([]);
  });

  it('TF5 refusals: no pending sign-in 401, a code where none is set up 400, bad bodies 400', async () => {
    expect((await call('POST', 'auth/2fa/authenticate', undefined, { code: '123456' })).statusCode).toBe(401);
    const { app } = await withTotp();
    for (const body of [{}, { code: '' }, { code: 'x'.repeat(65) }, { code: 42 }]) {
      expect(
        (await call('POST', 'auth/2fa/reauthenticate', app, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    count += 1;
    const email = `plain${count}@example.com`;
    await t.storage.users.create({
      email,
      passwordHash: await hasher.hash(PASSWORD),
      emailVerified: true,
      createdAt: now(),
    });
    const plain = {
      client: 'app' as const,
      token: (await call('POST', 'auth/login', undefined, { email, password: PASSWORD })).json().meta
        .session_token,
    };
    expect((await call('POST', 'auth/2fa/reauthenticate', plain, { code: '123456' })).statusCode).toBe(400);
    expect((await call('POST', 'account/authenticators/recovery-codes', plain)).json().errors[0].code).toBe(
      'cannot_generate_recovery_codes',
    );
  });

  it('TF6 locked by wrong passwords: with a second factor the right password still reaches the code; without, a reset link unlocks', async () => {
    const { email, secret } = await withTotp();
    for (let i = 0; i < 5; i += 1)
      await call('POST', 'auth/login', undefined, { email, password: 'a wrong guess' });
    // Still locked for wrong passwords, with the lock's own answer.
    const wrong = await call('POST', 'auth/login', undefined, { email, password: 'another wrong guess' });
    expect(wrong.json().errors[0].code).toBe('too_many_login_attempts');
    const right = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
    expect(right.statusCode).toBe(401);
    expect(right.json().data.flows).toContainEqual({ id: 'mfa_authenticate', is_pending: true });
    const pending = { client: 'app' as const, token: right.json().meta.session_token as string };
    advance(30_000);
    expect(
      (await call('POST', 'auth/2fa/authenticate', pending, { code: codeAt(secret, clock) })).statusCode,
    ).toBe(200);

    // Without a second factor the lock holds for the right password too, until a reset link proves the address.
    count += 1;
    const plain = `locked${count}@example.com`;
    await t.storage.users.create({
      email: plain,
      passwordHash: await hasher.hash(PASSWORD),
      emailVerified: true,
      createdAt: now(),
    });
    for (let i = 0; i < 5; i += 1)
      await call('POST', 'auth/login', undefined, { email: plain, password: 'a wrong guess' });
    expect(
      (await call('POST', 'auth/login', undefined, { email: plain, password: PASSWORD })).json().errors[0]
        .code,
    ).toBe('too_many_login_attempts');
    await call('POST', 'auth/password/request', undefined, { email: plain });
    const { lastKeyFor } = await import('../../src/mail/outbox-reader.js');
    const key = await lastKeyFor(t.config.mail.outboxDir, plain, '/account/password/reset/key/');
    expect(
      (await call('POST', 'auth/password/reset', undefined, { key, password: 'amber-orchard-compass-77' }))
        .statusCode,
    ).toBe(401);
    expect(
      (await call('POST', 'auth/login', undefined, { email: plain, password: 'amber-orchard-compass-77' }))
        .statusCode,
    ).toBe(200);
  });
});
