import {
  AuthRequiredError,
  createAuthClient,
  createPlanwrightClient,
  MemoryTokenStore,
} from '@planwright/sdk';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The SDK's auth client against the real server over real HTTP: the two halves of docs/auth.md
 * checked against each other, not each against its own reading of it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const PASSWORD = 'a-sturdy-harbour-passphrase';
let counter = 0;
const newEmail = () => `sdk-user-${++counter}@example.com`;

function appClient(options: { onAuthRequired?: () => void } = {}) {
  const tokenStore = new MemoryTokenStore();
  return createPlanwrightClient({ baseUrl: server.url, tokenStore, ...options });
}

async function signUpAndVerify(client = appClient()) {
  const email = newEmail();
  const signup = await client.auth.signup({ email, password: PASSWORD, terms_agreement: true });
  expect(signup.kind).toBe('pending');
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  const verified = await client.auth.verifyEmail(key);
  expect(verified.kind).toBe('authenticated');
  return { client, email };
}

describe('app client', () => {
  it('signs up (pending token stored), verifies (token rotated and stored), reads and edits the profile, logs out', async () => {
    const client = appClient();
    const email = newEmail();
    const signup = await client.auth.signup({ email, password: PASSWORD, terms_agreement: true });
    expect(signup).toMatchObject({ kind: 'pending', flow: 'verify_email' });
    const pendingToken = client.tokenStore.getToken();
    expect(pendingToken).toBeTruthy();
    expect((await client.auth.session()).kind).toBe('pending');

    const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
    const info = await client.auth.getEmailVerification(key);
    expect(info).toMatchObject({ kind: 'valid_key', email, isAuthenticating: true });
    const verified = await client.auth.verifyEmail(key);
    expect(verified).toMatchObject({ kind: 'authenticated', user: { email, has_verified_email: true } });
    expect(client.tokenStore.getToken()).not.toBe(pendingToken);
    expect(client.tokenStore.getSnapshot()).toMatchObject({ email });

    const me = await client.auth.me();
    expect(me).toMatchObject({ email, has_verified_email: true });
    const updated = await client.auth.updateMe({ first_name: 'Grace', last_name: 'Hopper' });
    expect(updated.user.get_display_name).toBe('Grace Hopper');
    expect(client.tokenStore.getSnapshot().name).toBe('Grace Hopper');

    expect((await client.auth.logout()).kind).toBe('unauthenticated');
    expect(client.tokenStore.getToken()).toBeNull();
    expect((await client.auth.session()).kind).toBe('unauthenticated');
  });

  it('reports a wrong password as invalid on the password field, and a repeat sign-in as a conflict', async () => {
    const { client, email } = await signUpAndVerify();
    const conflict = await client.auth.login({ email, password: PASSWORD });
    expect(conflict.kind).toBe('conflict');
    const stranger = appClient();
    const wrong = await stranger.auth.login({ email, password: 'not-it-at-all' });
    expect(wrong.kind).toBe('invalid');
    if (wrong.kind === 'invalid')
      expect(wrong.fieldErrors.password?.[0]?.code).toBe('email_password_mismatch');
    expect(stranger.tokenStore.getToken()).toBeNull();
  });

  it('maps sign-up errors to the words of spec 000 §5', async () => {
    const client = appClient();
    const result = await client.auth.signup({
      email: newEmail(),
      password: '12345678',
      terms_agreement: true,
    });
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') {
      expect(result.fieldErrors.password?.map((error) => error.code)).toContain('password_entirely_numeric');
    }
  });

  it('turns a dead token into session_gone and clears the store', async () => {
    const { client } = await signUpAndVerify();
    const token = client.tokenStore.getToken() ?? '';
    await appClient()
      .http.delete('/_allauth/app/v1/auth/session', { headers: { 'x-session-token': token }, auth: false })
      .catch(() => {});
    expect((await client.auth.session()).kind).toBe('session_gone');
    expect(client.tokenStore.getToken()).toBeNull();
  });

  it('fails an /api/v1/ call with an expired session as AuthRequiredError, clearing the store and calling the hook', async () => {
    let hookCalls = 0;
    const client = appClient({ onAuthRequired: () => hookCalls++ });
    const email = newEmail();
    await client.auth.signup({ email, password: PASSWORD, terms_agreement: true });
    // A pending (unverified) session is not signed in: /api/v1/ refuses it.
    await expect(client.auth.me()).rejects.toSatisfy((error) => AuthRequiredError.isInstance(error));
    expect(hookCalls).toBe(1);
    expect(client.tokenStore.getToken()).toBeNull();
  });

  it('resets a password end to end', async () => {
    const { email } = await signUpAndVerify();
    const client = appClient();
    expect((await client.auth.requestPasswordReset(email)).kind).toBe('ok');
    const key = await lastKeyFor(server.outboxDir, email, '/account/password/reset/key/');
    expect((await client.auth.getPasswordReset(key)).kind).toBe('valid_key');
    expect((await client.auth.resetPassword({ key, password: 'an-entirely-new-passphrase' })).kind).toBe(
      'unauthenticated',
    );
    expect((await client.auth.login({ email, password: 'an-entirely-new-passphrase' })).kind).toBe(
      'authenticated',
    );
  });
});

describe('browser client', () => {
  /** Node's fetch has no cookie jar; this is the smallest one that behaves like a browser on one origin. */
  function cookieJarFetch() {
    const jar = new Map<string, string>();
    const jarFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      const response = await fetch(input, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const [name = '', value = ''] = pair.split('=');
        if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    };
    return { jar, fetch: jarFetch };
  }

  it('passes CSRF, signs in with the session cookie, hands back the token, and signs out', async () => {
    const { email } = await signUpAndVerify();
    const { jar, fetch: jarFetch } = cookieJarFetch();
    const tokenStore = new MemoryTokenStore();
    const http = createPlanwrightClient({ baseUrl: server.url, tokenStore, fetch: jarFetch }).http;
    const browser = createAuthClient({
      http,
      tokenStore,
      client: 'browser',
      getCsrfToken: () => jar.get('csrftoken'),
    });

    expect(await browser.fetchCsrf()).toBe(jar.get('csrftoken'));
    const login = await browser.login({ email, password: PASSWORD });
    expect(login.kind).toBe('authenticated');
    expect(jar.get('sessionid')).toBeTruthy();
    const session = await browser.session();
    expect(session).toMatchObject({ kind: 'authenticated', sessionToken: jar.get('sessionid') });
    expect(tokenStore.getToken()).toBe(jar.get('sessionid'));

    // The handed-back token works for /api/v1/ as X-Session-Token.
    expect((await createPlanwrightClient({ baseUrl: server.url, tokenStore }).auth.me()).email).toBe(email);

    // A forged CSRF token is refused and the server session lives on; the right one signs out.
    const csrf = jar.get('csrftoken') ?? '';
    const forged = createAuthClient({ http, tokenStore, client: 'browser', getCsrfToken: () => 'forged' });
    expect((await forged.logout()).kind).toBe('forbidden');
    expect((await browser.session()).kind).toBe('authenticated');
    expect((await browser.logout()).kind).toBe('unauthenticated');
    expect(jar.has('sessionid')).toBe(false);
    expect(jar.get('csrftoken')).toBe(csrf);
    expect((await browser.session()).kind).toBe('unauthenticated');
  });
});
