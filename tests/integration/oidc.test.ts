import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, runCliBinary } from '../support/cli-binary.js';
import { startOidcProvider, type TestOidcAccount, type TestOidcProvider } from '../support/oidc-provider.js';
import { freePort, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Google sign-in (OpenID Connect: code + PKCE + state + nonce) end to end: the real server against a
 * real OpenID Connect provider (`oidc-provider`) on 127.0.0.1, driven over HTTP the way a browser
 * would (a cookie jar, redirects followed by hand), down to the `GET auth/session` of the web page.
 */

const CALLBACK = '/accounts/google/login/callback/';
const WEB_CALLBACK = '/account/google/login/callback';
const PASSWORD = 'a-sturdy-harbour-passphrase';

/** A browser's cookies: host-only, path-scoped, and (as browsers do) shared by every port of a host. */
class Browser {
  private readonly cookies = new Map<string, { name: string; value: string; host: string; path: string }>();
  /** Sent as Origin on form POSTs, as a browser does for a page served by `origin`. */
  constructor(private readonly origin?: string) {}

  cookie(name: string): string | undefined {
    for (const cookie of this.cookies.values()) if (cookie.name === name) return cookie.value;
    return undefined;
  }

  setCookie(url: string, name: string, value: string): void {
    const { hostname } = new URL(url);
    this.cookies.set(`${hostname}|/|${name}`, { name, value, host: hostname, path: '/' });
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { method: 'GET', headers });
  }

  /** A form POST (application/x-www-form-urlencoded), like a `<form method="post">` submit. */
  async postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(this.origin ? { origin: this.origin } : {}),
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private async request(
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string },
  ) {
    const target = new URL(url);
    const cookieHeader = [...this.cookies.values()]
      .filter((cookie) => cookie.host === target.hostname && pathMatches(target.pathname, cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, ...(cookieHeader ? { cookie: cookieHeader } : {}) },
    });
    for (const line of response.headers.getSetCookie()) this.store(target, line);
    return response;
  }

  private store(url: URL, line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    let path = url.pathname.slice(0, url.pathname.lastIndexOf('/')) || '/';
    let expired = false;
    for (const attribute of attributes) {
      const [key = '', attributeValue = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = attributeValue;
      if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
    }
    const key = `${url.hostname}|${path}|${name}`;
    if (expired) this.cookies.delete(key);
    else this.cookies.set(key, { name, value, host: url.hostname, path });
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  return (
    requestPath === cookiePath ||
    (requestPath.startsWith(cookiePath) &&
      (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'))
  );
}

function locationOf(response: Response, base: string): string {
  expect([302, 303]).toContain(response.status);
  const location = response.headers.get('location');
  expect(location).toBeTruthy();
  return new URL(location as string, base).href;
}

let provider: TestOidcProvider;
let server: TestServer;
/** The server's clock runs this far ahead of the real one (to expire a started sign-in without waiting). */
let skewMs = 0;
let counter = 0;

function newAccount(overrides: Partial<TestOidcAccount> = {}): TestOidcAccount {
  counter += 1;
  return {
    sub: `google-user-${counter}`,
    email: `oidc-user-${counter}@example.com`,
    email_verified: true,
    given_name: 'Ada',
    family_name: 'Lovelace',
    picture: `https://images.example.com/avatar-${counter}.png`,
    ...overrides,
  };
}

beforeAll(async () => {
  provider = await startOidcProvider();
  server = await startTestServer({
    ownPublicUrl: true,
    now: () => new Date(Date.now() + skewMs),
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      // The refusals below log warnings on purpose; errors still show.
      LOG_LEVEL: 'error',
    },
  });
  provider.registerClient(`${server.url}${CALLBACK}`);
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

/** Opens the site (the CSRF cookie) and submits the Google button's form; returns the answer. */
async function submitGoogleForm(
  browser: Browser,
  target: TestServer,
  fields: { next?: string; csrfmiddlewaretoken?: string } = {},
): Promise<Response> {
  const csrf = await browser.get(`${target.url}/api/v1/apps/csrf/`);
  expect(csrf.status).toBe(200);
  return browser.postForm(`${target.url}/accounts/google/login/`, {
    csrfmiddlewaretoken: fields.csrfmiddlewaretoken ?? (browser.cookie('csrftoken') as string),
    process: 'login',
    next: fields.next ?? `${target.url}${WEB_CALLBACK}?next=/dashboard`,
  });
}

/**
 * Follows the provider's redirects (authorization, login and consent screens) until it sends the
 * browser back to our callback; returns that callback URL, not yet opened.
 */
async function throughProvider(
  browser: Browser,
  authorizationUrl: string,
  target: TestServer,
): Promise<string> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(`${target.url}/`)) return url;
    const response = await browser.get(url);
    url = locationOf(response, url);
  }
  throw new Error('the provider never sent the browser back');
}

/** The whole sign-in: form → provider → callback. Returns where our callback sent the browser. */
async function signIn(
  browser: Browser,
  fields: { next?: string } = {},
  target: TestServer = server,
): Promise<{ landing: string; callbackUrl: string }> {
  const started = await submitGoogleForm(browser, target, fields);
  const authorizationUrl = locationOf(started, target.url);
  const callbackUrl = await throughProvider(browser, authorizationUrl, target);
  const landing = locationOf(await browser.get(callbackUrl), callbackUrl);
  return { landing, callbackUrl };
}

/** The parts of an allauth session answer these tests read. */
interface SessionBody {
  status: number;
  data: { user: { id: string; email: string }; flows: unknown[]; methods: unknown[] };
  meta: { is_authenticated: boolean; session_token?: string };
}

/** What the web app's callback page does: GET session with credentials (the cookies). */
async function session(browser: Browser, target: TestServer = server) {
  const response = await browser.get(`${target.url}/_allauth/browser/v1/auth/session`);
  return { status: response.status, body: (await response.json()) as SessionBody };
}

function errorLanding(code: string, target: TestServer = server): string {
  return `${target.url}${WEB_CALLBACK}?error=${code}`;
}

async function signUpWithPassword(email: string): Promise<{ token: string }> {
  const signup = await fetch(`${server.url}/_allauth/app/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, terms_agreement: true, phone_number_x: '' }),
  });
  expect(signup.status).toBe(401);
  return { token: ((await signup.json()) as { meta: { session_token: string } }).meta.session_token };
}

async function verifyByMail(email: string, token: string): Promise<string> {
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  const verify = await fetch(`${server.url}/_allauth/app/v1/auth/email/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-token': token },
    body: JSON.stringify({ key }),
  });
  expect(verify.status).toBe(200);
  return ((await verify.json()) as { data: { user: { id: string } } }).data.user.id;
}

async function passwordLogin(email: string): Promise<number> {
  const login = await fetch(`${server.url}/_allauth/app/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return login.status;
}

describe('configuration', () => {
  it('offers Google in GET config and the provider_redirect flow to unauthenticated clients', async () => {
    const config = await (await fetch(`${server.url}/_allauth/browser/v1/config`)).json();
    expect(config.data.socialaccount).toEqual({
      providers: [{ id: 'google', name: 'Google', flows: ['provider_redirect'] }],
    });
    const anonymous = await session(new Browser());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.data.flows).toContainEqual({ id: 'provider_redirect', providers: ['google'] });
  });
});

describe('sign-in', () => {
  it('creates a verified account on the first sign-in and lands on next, signed in', async () => {
    const account = newAccount();
    provider.addAccount(account);
    const browser = new Browser(server.url);
    const before = provider.interactions.length;

    const next = `${server.url}${WEB_CALLBACK}?next=/dashboard/plans`;
    const started = await submitGoogleForm(browser, server, { next });
    const authorizationUrl = new URL(locationOf(started, server.url));
    expect(authorizationUrl.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: provider.clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${server.url}${CALLBACK}`,
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    });

    const callbackUrl = await throughProvider(browser, authorizationUrl.href, server);
    expect(provider.interactions.slice(before)).toEqual(['login', 'consent']);
    const callback = await browser.get(callbackUrl);
    expect(locationOf(callback, callbackUrl)).toBe(next);
    expect(callback.headers.get('cache-control')).toBe('no-store');
    const sessionCookie = browser.cookie('sessionid');
    expect(sessionCookie).toMatch(/^[\w-]{43}$/);

    const signedIn = await session(browser);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({
      status: 200,
      data: {
        user: {
          email: account.email,
          display: 'Ada Lovelace',
          has_verified_email: true,
          has_usable_password: false,
          avatar_url: account.picture,
        },
        methods: [{ method: 'socialaccount', provider: 'google', at: expect.any(Number) }],
      },
      meta: { is_authenticated: true, session_token: sessionCookie },
    });

    // The token the page keeps works for the product API, as after a password login.
    const me = await fetch(`${server.url}/api/v1/app/me/`, {
      headers: { 'x-session-token': signedIn.body.meta.session_token as string },
    });
    expect(await me.json()).toMatchObject({
      email: account.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      has_verified_email: true,
    });
  });

  it('an account made with Google scripts the CLI with a personal access token (docs/auth.md)', async () => {
    ensureCliBuilt();
    const account = newAccount();
    provider.addAccount(account);
    const browser = new Browser(server.url);
    await signIn(browser);
    const signedIn = await session(browser);
    // The web app keeps this token and makes the token as the app client, from Profile › Security.
    const made = await fetch(`${server.url}/_allauth/app/v1/account/tokens`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-session-token': signedIn.body.meta.session_token as string,
      },
      body: JSON.stringify({ name: 'nightly export' }),
    });
    expect(made.status).toBe(200);
    const token = ((await made.json()) as { meta: { token: string } }).meta.token;

    const scratch = mkdtempSync(join(tmpdir(), 'planwright-oidc-cli-'));
    try {
      const run = { cwd: scratch, configDir: join(scratch, 'config'), serverUrl: server.url };
      // A password login cannot work: the account has none.
      const refused = await runCliBinary(
        run,
        ['login', '--email', account.email, '--password-stdin'],
        'guess\n',
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('--token-stdin');
      const login = await runCliBinary(run, ['login', '--token-stdin'], `${token}\n`);
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout.toString()).toContain(account.email);
      const created = await runCliBinary(run, [
        'documents',
        'create',
        '--title',
        'Made by a script',
        '--json',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const listed = await runCliBinary(run, ['documents', 'list', '--json']);
      expect(listed.stdout.toString()).toContain('Made by a script');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('finds the same account on a later sign-in (by the provider subject, even when the address changed)', async () => {
    const account = newAccount();
    provider.addAccount(account);
    const browser = new Browser(server.url);
    await signIn(browser);
    const firstId = (await session(browser)).body.data.user.id;
    expect((await session(new Browser())).status).toBe(401); // nobody else is signed in by it

    provider.addAccount({ ...account, email: `renamed-${account.email}` });
    const later = new Browser(server.url);
    await signIn(later);
    const again = await session(later);
    expect(again.body.data.user).toMatchObject({ id: firstId, email: account.email });
  });

  it('links an existing password account with the same verified address (any case) and keeps its password', async () => {
    const email = `linked-${++counter}@example.com`;
    const { token } = await signUpWithPassword(email);
    const userId = await verifyByMail(email, token);
    provider.addAccount(newAccount({ email: email.toUpperCase() }));

    const browser = new Browser(server.url);
    await signIn(browser);
    const linked = await session(browser);
    expect(linked.body.data.user).toMatchObject({
      id: userId,
      email,
      has_usable_password: true,
      has_verified_email: true,
    });
    expect(await passwordLogin(email)).toBe(200);
  });

  it('takes over an unverified password account with that address: the provider proves it, the password goes', async () => {
    const email = `prehijacked-${++counter}@example.com`;
    const { token: squatterToken } = await signUpWithPassword(email);
    provider.addAccount(newAccount({ email }));

    const browser = new Browser(server.url);
    await signIn(browser);
    const owner = await session(browser);
    expect(owner.body.data.user).toMatchObject({
      email,
      has_usable_password: false,
      has_verified_email: true,
    });
    // Whoever signed up with the owner's address can neither log in nor keep their pending session.
    expect(await passwordLogin(email)).toBe(400);
    const squatter = await fetch(`${server.url}/_allauth/app/v1/auth/session`, {
      headers: { 'x-session-token': squatterToken },
    });
    expect(squatter.status).toBe(410);
  });

  it('reads the e-mail and names from UserInfo when the ID token carries only the subject', async () => {
    const account = newAccount({ given_name: 'Grace', family_name: 'Hopper' });
    provider.addAccount(account);
    provider.claimsOnlyInUserInfo = true;
    try {
      const browser = new Browser(server.url);
      await signIn(browser);
      expect((await session(browser)).body.data.user).toMatchObject({
        email: account.email,
        display: 'Grace Hopper',
        has_verified_email: true,
      });
    } finally {
      provider.claimsOnlyInUserInfo = false;
    }
  });

  it('also starts from allauth’s provider/redirect form (provider, callback_url, process, csrfToken)', async () => {
    provider.addAccount(newAccount());
    const browser = new Browser(server.url);
    await browser.get(`${server.url}/api/v1/apps/csrf/`);
    const callbackUrl = `${server.url}${WEB_CALLBACK}?next=/dashboard/documents`;
    const started = await browser.postForm(`${server.url}/_allauth/browser/v1/auth/provider/redirect`, {
      provider: 'google',
      callback_url: callbackUrl,
      process: 'login',
      csrfToken: browser.cookie('csrftoken') as string,
    });
    const back = await throughProvider(browser, locationOf(started, server.url), server);
    expect(locationOf(await browser.get(back), back)).toBe(callbackUrl);
    expect((await session(browser)).status).toBe(200);

    const unknown = await browser.postForm(`${server.url}/_allauth/browser/v1/auth/provider/redirect`, {
      provider: 'facebook',
      callback_url: callbackUrl,
      process: 'login',
      csrfToken: browser.cookie('csrftoken') as string,
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      status: 400,
      errors: [{ message: 'Unknown provider.', code: 'invalid', param: 'provider' }],
    });
  });
});

describe('refusals (each lands on the web page with ?error=, never a 500)', () => {
  it('ignores a foreign or malformed next and lands on the default callback page', async () => {
    provider.addAccount(newAccount());
    for (const next of [
      'https://evil.example/steal',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const { landing } = await signIn(new Browser(server.url), { next });
      expect(landing).toBe(`${server.url}${WEB_CALLBACK}?next=/dashboard`);
    }
  });

  it('answers 403 to a missing, wrong or cookie-less CSRF token, and to a foreign Origin', async () => {
    const browser = new Browser(server.url);
    await browser.get(`${server.url}/api/v1/apps/csrf/`);
    const url = `${server.url}/accounts/google/login/`;
    const cases: Array<[Browser, Record<string, string>, Record<string, string>]> = [
      [browser, { process: 'login', next: '/dashboard' }, {}],
      [browser, { csrfmiddlewaretoken: 'x'.repeat(43), process: 'login' }, {}],
      [new Browser(server.url), { csrfmiddlewaretoken: browser.cookie('csrftoken') as string }, {}],
      [
        browser,
        { csrfmiddlewaretoken: browser.cookie('csrftoken') as string, process: 'login' },
        { origin: 'https://evil.example' },
      ],
    ];
    for (const [who, fields, headers] of cases) {
      const response = await who.postForm(url, fields, headers);
      expect(response.status).toBe(403);
      expect((await response.json()).errors[0].code).toMatch(/^(csrf_failed|origin_not_allowed)$/);
    }
  });

  it('refuses an address the provider has not verified, and signs nobody in', async () => {
    provider.addAccount(newAccount({ email_verified: false }));
    const browser = new Browser(server.url);
    const { landing } = await signIn(browser);
    expect(landing).toBe(errorLanding('email_unverified'));
    expect((await session(browser)).status).toBe(401);
  });

  it('reports a cancelled consent as access_denied', async () => {
    provider.addAccount(newAccount());
    provider.nextInteraction({ deny: true });
    const { landing } = await signIn(new Browser(server.url));
    expect(landing).toBe(errorLanding('access_denied'));
  });

  it('refuses a tampered state, a reused one, and one finished in another browser', async () => {
    provider.addAccount(newAccount());
    const browser = new Browser(server.url);
    const started = await submitGoogleForm(browser, server);
    const callbackUrl = await throughProvider(browser, locationOf(started, server.url), server);

    const tampered = new URL(callbackUrl);
    const state = tampered.searchParams.get('state') as string;
    tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
    expect(locationOf(await browser.get(tampered.href), callbackUrl)).toBe(errorLanding('invalid_state'));
    const noState = new URL(callbackUrl);
    noState.search = '';
    expect(locationOf(await browser.get(noState.href), callbackUrl)).toBe(errorLanding('invalid_state'));

    // The same callback opened by another browser (a forwarded link: login CSRF) signs nobody in.
    const other = new Browser(server.url);
    expect(locationOf(await other.get(callbackUrl), callbackUrl)).toBe(errorLanding('invalid_state'));
    expect((await session(other)).status).toBe(401);

    // That attempt used the state up: the rightful browser cannot replay it either.
    expect(locationOf(await browser.get(callbackUrl), callbackUrl)).toBe(errorLanding('invalid_state'));

    const { callbackUrl: finished } = await signIn(browser);
    expect((await session(browser)).status).toBe(200);
    expect(locationOf(await browser.get(finished), finished)).toBe(errorLanding('invalid_state'));
  });

  it('refuses a state older than ten minutes', async () => {
    provider.addAccount(newAccount());
    const browser = new Browser(server.url);
    const started = await submitGoogleForm(browser, server);
    const callbackUrl = await throughProvider(browser, locationOf(started, server.url), server);
    skewMs = 10 * 60 * 1000 + 1000;
    try {
      expect(locationOf(await browser.get(callbackUrl), callbackUrl)).toBe(errorLanding('expired_state'));
    } finally {
      skewMs = 0;
    }
    expect((await session(browser)).status).toBe(401);
  });

  it('reports a code the provider does not accept as token_failed', async () => {
    provider.addAccount(newAccount());
    const browser = new Browser(server.url);
    const started = await submitGoogleForm(browser, server);
    const callbackUrl = new URL(await throughProvider(browser, locationOf(started, server.url), server));
    callbackUrl.searchParams.set('code', 'forged-authorization-code');
    expect(locationOf(await browser.get(callbackUrl.href), callbackUrl.href)).toBe(
      errorLanding('token_failed'),
    );
    expect((await session(browser)).status).toBe(401);
  });
});

describe('provider unreachable', () => {
  it('redirects with provider_unavailable while the issuer is down, and works once it is up (discovery retried)', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const lonely = await startTestServer({
      ownPublicUrl: true,
      env: {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'planwright-test',
        OIDC_CLIENT_SECRET: 'down-for-now',
        LOG_LEVEL: 'silent',
      },
    });
    let late: TestOidcProvider | undefined;
    try {
      const browser = new Browser(lonely.url);
      const refused = await submitGoogleForm(browser, lonely);
      expect(locationOf(refused, lonely.url)).toBe(errorLanding('provider_unavailable', lonely));

      late = await startOidcProvider({ port, clientSecret: 'down-for-now' });
      late.registerClient(`${lonely.url}${CALLBACK}`);
      late.addAccount(newAccount());
      const { landing } = await signIn(browser, {}, lonely);
      expect(landing).toBe(`${lonely.url}${WEB_CALLBACK}?next=/dashboard`);
      expect((await session(browser, lonely)).status).toBe(200);
    } finally {
      await lonely.close();
      await late?.close();
    }
  });
});
