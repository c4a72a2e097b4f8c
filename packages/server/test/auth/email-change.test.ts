import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../src/auth/password/index.js';
import type { MailMessage } from '../../src/mail/mailer.js';
import { capturedMail } from '../support/captured-mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Changing the account's e-mail address from the profile (docs/auth.md `/api/v1/app/me/`, Rules "Enumeration"):
// the new address is confirmed by a link before it replaces the current one; a taken address answers like a
// free one; changes are rate limited per account and per address.

const APP = '/_allauth/app/v1';
const PASSWORD = 'quiet-harbour-lantern-42';
const HOUR = 60 * 60_000;

let t: TestApp;
const mail = capturedMail();
let clock = new Date('2026-12-01T10:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const hasher = createPasswordHasher({ params: { ln: 10, r: 8, p: 1 } });
let count = 0;
const newAddress = () => `someone${++count}@example.com`;

beforeAll(async () => {
  t = await createTestApp(
    { PUBLIC_URL: 'https://plans.example.com' },
    { now, passwordHasher: hasher, mailer: mail.mailer },
  );
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  advance(2 * HOUR);
});

const sentTo = (to: string): MailMessage[] => mail.sent.filter((message) => message.to === to);

/** The key of the newest verification link e-mailed to `to`. */
function lastVerifyKey(to: string): string {
  for (const message of sentTo(to).reverse()) {
    const match = /\/account\/verify-email\/([A-Za-z0-9_-]+)/.exec(message.text);
    if (match?.[1]) return match[1];
  }
  throw new Error(`no verification link for ${to}`);
}

function api(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  token?: string,
  body?: object,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    remoteAddress: '10.2.0.1',
    headers: token ? { 'x-session-token': token } : {},
    ...(body ? { payload: body } : {}),
  });
}

/** A verified account with a password, signed in through the app client. */
async function signedIn(email = newAddress()) {
  const user = await t.storage.users.create({
    email,
    passwordHash: await hasher.hash(PASSWORD),
    emailVerified: true,
    createdAt: now(),
  });
  const login = await api('POST', `${APP}/auth/login`, undefined, { email, password: PASSWORD });
  expect(login.statusCode, login.body).toBe(200);
  return { user, email, token: login.json().meta.session_token as string };
}

const changeEmail = (token: string, email: string) => api('PATCH', '/api/v1/app/me/', token, { email });
const me = async (token: string) => (await api('GET', '/api/v1/app/me/', token)).json();
const verify = (key: string, token?: string) => api('POST', `${APP}/auth/email/verify`, token, { key });

describe('a changed e-mail address', () => {
  it('EC1 is confirmed by a link to it before it replaces the verified address; the old address is told', async () => {
    const { email, token } = await signedIn();
    const next = newAddress();
    const res = await changeEmail(token, next);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      user: { email, has_verified_email: true },
      email_verification_sent: true,
    });
    expect(await me(token)).toMatchObject({ email, has_verified_email: true });
    expect(sentTo(next)).toHaveLength(1);
    expect(sentTo(next)[0]?.subject).toBe('Confirm your new e-mail address for Planwright');
    expect(sentTo(email)).toHaveLength(0);
    // The current address still signs in; the pending one does not.
    expect(
      (await api('POST', `${APP}/auth/login`, undefined, { email, password: PASSWORD })).statusCode,
    ).toBe(200);
    expect(
      (await api('POST', `${APP}/auth/login`, undefined, { email: next, password: PASSWORD })).statusCode,
    ).toBe(400);

    const key = lastVerifyKey(next);
    const info = await t.app.inject({
      method: 'GET',
      url: `${APP}/auth/email/verify`,
      headers: { 'x-email-verification-key': key },
    });
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({ data: { email: next }, meta: { is_authenticating: false } });

    // Opened anywhere (here: with no session), it signs nobody in…
    const opened = await verify(key);
    expect(opened.statusCode, opened.body).toBe(401);
    expect(opened.json().meta.session_token).toBeUndefined();
    expect(await me(token)).toMatchObject({ email: next, has_verified_email: true });
    // …and nobody out.
    expect((await api('GET', `${APP}/auth/session`, token)).statusCode).toBe(200);
    const notice = sentTo(email).at(-1);
    expect(notice?.subject).toBe('Your Planwright e-mail address was changed');
    expect(notice?.text).toContain(`Your Planwright e-mail address was changed to ${next}.`);
    expect(notice?.text).toContain('If this was not you');
    expect(
      (await api('POST', `${APP}/auth/login`, undefined, { email: next, password: PASSWORD })).statusCode,
    ).toBe(200);
    expect(
      (await api('POST', `${APP}/auth/login`, undefined, { email, password: PASSWORD })).statusCode,
    ).toBe(400);
    // Used once: again it says the address is verified already.
    const again = await verify(key);
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatchObject({ code: 'already_verified', param: 'key' });
  });

  it('EC2 answers a taken address exactly like a free one; the owner is told, nobody gets a link', async () => {
    const { email, token } = await signedIn();
    const { email: owned } = await signedIn();
    const free = newAddress();
    const before = mail.sent.length;
    const taken = await changeEmail(token, owned.toUpperCase());
    const available = await changeEmail(token, free);
    expect(taken.statusCode).toBe(200);
    expect(available.statusCode).toBe(200);
    expect(taken.body).toBe(available.body);
    const headers = (res: LightMyRequestResponse) => {
      const { date: _date, 'x-request-id': _id, ...rest } = res.headers;
      return rest;
    };
    expect(headers(taken)).toEqual(headers(available));
    expect(taken.json()).toMatchObject({ user: { email }, email_verification_sent: true });

    const toOwner = sentTo(owned).slice();
    expect(toOwner).toHaveLength(1);
    expect(toOwner[0]?.subject).toBe('Someone tried to add your e-mail address to a Planwright account');
    expect(toOwner[0]?.text).not.toMatch(/verify-email/);
    expect(sentTo(free)).toHaveLength(1);
    expect(mail.sent.length - before).toBe(2);
    expect(await me(token)).toMatchObject({ email, has_verified_email: true });
  });

  it('EC3 is limited to 5 per hour per account, with Retry-After', async () => {
    const { token } = await signedIn();
    for (let i = 0; i < 5; i++) expect((await changeEmail(token, newAddress())).statusCode).toBe(200);
    const target = newAddress();
    const limited = await changeEmail(token, target);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: expect.any(String), code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(sentTo(target)).toHaveLength(0);
    // Other fields are not saved by a refused call either, and still can be on their own.
    expect((await api('PATCH', '/api/v1/app/me/', token, { first_name: 'Ada' })).statusCode).toBe(200);
    advance(HOUR);
    expect((await changeEmail(token, target)).statusCode).toBe(200);
  });

  it('EC4 is limited to 3 per hour per address asked for, whoever asks (taken or free alike)', async () => {
    for (const target of [newAddress(), (await signedIn()).email]) {
      const before = sentTo(target).length;
      for (let i = 0; i < 3; i++) {
        const { token } = await signedIn();
        expect((await changeEmail(token, target)).statusCode).toBe(200);
      }
      const { token } = await signedIn();
      const limited = await changeEmail(token, target);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('rate_limited');
      expect(limited.headers['retry-after']).toBeDefined();
      expect(sentTo(target).length - before).toBe(3);
    }
  });

  it("EC5 back to the account's own address (any case) is a no-op: no e-mail, still verified", async () => {
    const { email, token } = await signedIn();
    await changeEmail(token, newAddress());
    const before = mail.sent.length;
    for (const same of [email, email.toUpperCase()]) {
      const res = await changeEmail(token, same);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        user: { has_verified_email: true },
        email_verification_sent: false,
      });
    }
    expect(mail.sent.length).toBe(before);
    expect(await me(token)).toMatchObject({ email: email.toUpperCase(), has_verified_email: true });
    // Saving the rest of the form (PUT sends the address too) keeps a pending change pending.
    const put = await api('PUT', '/api/v1/app/me/', token, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: email.toUpperCase(),
    });
    expect(put.json().email_verification_sent).toBe(false);
  });

  it('EC6 a link whose address another account took meanwhile is refused and changes nothing', async () => {
    const { email, token } = await signedIn();
    const next = newAddress();
    await changeEmail(token, next);
    const key = lastVerifyKey(next);
    const other = await t.storage.users.create({
      email: next,
      passwordHash: null,
      emailVerified: true,
      createdAt: now(),
    });
    for (const res of [
      await t.app.inject({
        method: 'GET',
        url: `${APP}/auth/email/verify`,
        headers: { 'x-email-verification-key': key },
      }),
      await verify(key),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ message: expect.any(String), code: 'invalid', param: 'key' }]);
    }
    expect(await me(token)).toMatchObject({ email, has_verified_email: true });
    expect((await t.storage.users.findById(other.id))?.email).toBe(next);
    expect(sentTo(email)).toHaveLength(0);
  });

  it('EC7 only the newest link works; a password reset or change cancels a pending change', async () => {
    const { email, token } = await signedIn();
    const first = newAddress();
    const second = newAddress();
    await changeEmail(token, first);
    const firstKey = lastVerifyKey(first);
    await changeEmail(token, second);
    expect((await verify(firstKey)).json().errors[0]).toMatchObject({ code: 'invalid', param: 'key' });
    expect(await me(token)).toMatchObject({ email });

    // A password change (by whoever knows the password) ends the pending change.
    await changeEmail(token, newAddress());
    const pending = lastVerifyKey(`someone${count}@example.com`);
    const changed = await api('POST', `${APP}/account/password/change`, token, {
      current_password: PASSWORD,
      new_password: 'amber-orchard-compass-77',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await verify(pending)).statusCode).toBe(400);

    // So does a reset: whoever took over a session cannot finish a change after the owner resets.
    const third = newAddress();
    await changeEmail(token, third);
    const thirdKey = lastVerifyKey(third);
    await api('POST', `${APP}/auth/password/request`, undefined, { email });
    const resetMail = sentTo(email).at(-1);
    const resetKey = /\/account\/password\/reset\/key\/([A-Za-z0-9_-]+)/.exec(resetMail?.text ?? '')?.[1];
    const reset = await api('POST', `${APP}/auth/password/reset`, undefined, {
      key: resetKey,
      password: 'silver-meadow-beacon-19',
    });
    expect(reset.statusCode, reset.body).toBe(401);
    expect((await verify(thirdKey)).statusCode).toBe(400);
    expect((await t.storage.users.findByEmail(email))?.emailVerified).toBe(true);
  });

  it('EC8 opening the link signs nobody in or out: every session of the account goes on as it was', async () => {
    const { email, token } = await signedIn();
    const next = newAddress();
    await changeEmail(token, next);
    const key = lastVerifyKey(next);
    // Another device of the same account, signed in; a third one with nothing.
    const second = await api('POST', `${APP}/auth/login`, undefined, { email, password: PASSWORD });
    const secondToken = second.json().meta.session_token as string;
    const opened = await verify(key, secondToken);
    expect(opened.statusCode).toBe(401);
    expect(opened.json().meta.session_token).toBeUndefined();
    for (const who of [token, secondToken]) {
      expect((await api('GET', `${APP}/auth/session`, who)).statusCode).toBe(200);
    }
    expect(await me(secondToken)).toMatchObject({ email: next, has_verified_email: true });
  });
});

const CSRF = 'csrf-token-for-the-tests-0123456789';

/** An allauth call of `client` (the browser's session as its cookie, with CSRF). */
function allauth(
  client: 'app' | 'browser',
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  token: string | undefined,
  body?: object,
): Promise<LightMyRequestResponse> {
  const browser = client === 'browser';
  return t.app.inject({
    method,
    url: `/_allauth/${client}/v1/${path}`,
    remoteAddress: '10.2.0.2',
    headers: browser
      ? {
          cookie: `${token ? `sessionid=${token}; ` : ''}csrftoken=${CSRF}`,
          'x-csrftoken': CSRF,
          origin: 'https://plans.example.com',
        }
      : token
        ? { 'x-session-token': token }
        : {},
    ...(body ? { payload: body } : {}),
  });
}

describe('account/email (both clients)', () => {
  for (const client of ['app', 'browser'] as const) {
    it(`EB1 ${client}: lists, adds (a link goes out), verifies, makes primary (the old primary is told)`, async () => {
      const { email, token: appToken } = await signedIn();
      const login = await allauth(client, 'POST', 'auth/login', undefined, { email, password: PASSWORD });
      const token = client === 'app' ? appToken : (login.json().meta.session_token as string);
      const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', body?: object) =>
        allauth(client, method, 'account/email', token, body);
      expect((await call('GET')).json()).toEqual({
        status: 200,
        data: [{ email, primary: true, verified: true }],
      });
      const added = newAddress();
      const res = await call('POST', { email: added });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual([
        { email, primary: true, verified: true },
        { email: added, primary: false, verified: false },
      ]);
      expect(sentTo(added)[0]?.subject).toBe('Confirm your e-mail address for Planwright');
      const unverified = await call('PATCH', { email: added, primary: true });
      expect(unverified.statusCode).toBe(400);
      expect(unverified.json().errors[0]).toMatchObject({ code: 'invalid', param: 'email' });

      const opened = await verify(lastVerifyKey(added));
      expect(opened.statusCode).toBe(401);
      expect((await call('GET')).json().data[1]).toEqual({ email: added, primary: false, verified: true });
      expect((await call('PUT', { email: added })).statusCode).toBe(400); // verified already

      const primary = await call('PATCH', { email: added, primary: true });
      expect(primary.statusCode, primary.body).toBe(200);
      expect(primary.json().data).toEqual([
        { email: added, primary: true, verified: true },
        { email, primary: false, verified: true },
      ]);
      expect(sentTo(email).at(-1)?.text).toContain(`Your Planwright e-mail address was changed to ${added}.`);
      expect(await me(token)).toMatchObject({ email: added, has_verified_email: true });
      expect(
        (await api('POST', `${APP}/auth/login`, undefined, { email: added, password: PASSWORD })).statusCode,
      ).toBe(200);

      // The old primary can go now; the primary cannot.
      const primaryGone = await call('DELETE', { email: added });
      expect(primaryGone.statusCode).toBe(400);
      expect(primaryGone.json().errors[0].message).toMatch(/primary/);
      const removed = await call('DELETE', { email });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().data).toEqual([{ email: added, primary: true, verified: true }]);
      expect((await call('DELETE', { email })).statusCode).toBe(400);
    });
  }

  it('EB2 a taken address is added like a free one: its owner is told, nobody gets a link', async () => {
    const { token } = await signedIn();
    const { email: owned } = await signedIn();
    const free = newAddress();
    const taken = await allauth('app', 'POST', 'account/email', token, { email: owned });
    advance(1_000); // listed oldest first
    const available = await allauth('app', 'POST', 'account/email', token, { email: free });
    expect(taken.statusCode).toBe(200);
    expect(available.statusCode).toBe(200);
    expect(taken.json().data[1]).toEqual({ email: owned, primary: false, verified: false });
    expect(available.json().data[2]).toEqual({ email: free, primary: false, verified: false });
    expect(sentTo(owned).map((message) => message.subject)).toEqual([
      'Someone tried to add your e-mail address to a Planwright account',
    ]);
    expect(sentTo(free)).toHaveLength(1);
    // Resending to the taken one tells its owner again, still without a link.
    expect((await allauth('app', 'PUT', 'account/email', token, { email: owned })).statusCode).toBe(200);
    expect(sentTo(owned).every((message) => !/verify-email/.test(message.text))).toBe(true);
  });

  it('EB3 adding and making primary need a recent sign-in; anonymous calls answer 401', async () => {
    const { token } = await signedIn();
    advance(6 * 60_000);
    for (const [method, body] of [
      ['POST', { email: newAddress() }],
      ['PATCH', { email: newAddress(), primary: true }],
    ] as const) {
      const res = await allauth('app', method, 'account/email', token, body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        data: { flows: [{ id: 'reauthenticate' }] },
        meta: { is_authenticated: true },
      });
    }
    const reauth = await allauth('app', 'POST', 'auth/reauthenticate', token, { password: PASSWORD });
    expect(reauth.statusCode).toBe(200);
    expect((await allauth('app', 'POST', 'account/email', token, { email: newAddress() })).statusCode).toBe(
      200,
    );
    for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const) {
      const res = await allauth('app', method, 'account/email', undefined, { email: newAddress() });
      expect(res.statusCode).toBe(401);
    }
  });

  it('EB4 is rate limited like the profile (429 with Retry-After); the last verified address stays', async () => {
    const { user, token } = await signedIn();
    const listed = newAddress();
    expect((await allauth('app', 'POST', 'account/email', token, { email: listed })).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect((await allauth('app', 'PUT', 'account/email', token, { email: listed })).statusCode).toBe(200);
    }
    const limited = await allauth('app', 'PUT', 'account/email', token, { email: listed });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(sentTo(listed)).toHaveLength(3);

    // With an unverified primary, the only verified address cannot be removed.
    const verifiedOther = newAddress();
    await t.storage.emailAddresses.add({
      userId: user.id,
      email: verifiedOther,
      verified: true,
      createdAt: now(),
    });
    await t.storage.users.update(user.id, { emailVerified: false });
    const refused = await allauth('app', 'DELETE', 'account/email', token, { email: verifiedOther });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].message).toMatch(/only verified/);
    expect((await allauth('app', 'DELETE', 'account/email', token, { email: listed })).statusCode).toBe(200);
  });

  it("EB5 the profile's change lists the new address until its link makes it primary and drops the old", async () => {
    const { email, token } = await signedIn();
    const next = newAddress();
    await changeEmail(token, next);
    expect((await allauth('app', 'GET', 'account/email', token)).json().data).toEqual([
      { email, primary: true, verified: true },
      { email: next, primary: false, verified: false },
    ]);
    await verify(lastVerifyKey(next));
    expect((await allauth('app', 'GET', 'account/email', token)).json().data).toEqual([
      { email: next, primary: true, verified: true },
    ]);
  });
});
