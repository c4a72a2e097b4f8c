import {
  type AuthClient,
  createAuthClient,
  createHttpClient,
  InvalidInputError,
  MemoryTokenStore,
  ResponseValidationError,
  readCookie,
  type SessionInfo,
} from '@planwright/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, authenticated, happyAllauth, rejectionOf } from './support/allauth.js';
import { useRecordingServer } from './support/recording-server.js';

const server = useRecordingServer(happyAllauth);
afterEach(() => {
  vi.unstubAllGlobals();
});

const signedIn: SessionInfo = {
  token: 'stored-token',
  email: 'ada@example.com',
  name: 'Ada',
  avatarUrl: null,
};

/** A browser client whose fetch records each call's `credentials` on its way to the real server. */
function setup(
  options: { getCsrfToken?: () => string | null | undefined; session?: SessionInfo; baseUrl?: string } = {},
) {
  const credentials: Array<{ url: string; credentials: RequestCredentials | undefined }> = [];
  const recordingFetch: typeof fetch = (input, init) => {
    credentials.push({ url: String(input), credentials: init?.credentials });
    return fetch(input, init);
  };
  const tokenStore = new MemoryTokenStore(options.session);
  const http = createHttpClient({
    baseUrl: options.baseUrl ?? server.origin,
    tokenStore,
    fetch: recordingFetch,
  });
  const clientOptions = { http, tokenStore, client: 'browser' as const };
  const auth = createAuthClient(
    'getCsrfToken' in options ? { ...clientOptions, getCsrfToken: options.getCsrfToken } : clientOptions,
  );
  return { auth, tokenStore, credentials };
}

const unsafeCalls: Array<[string, (auth: AuthClient) => Promise<unknown>]> = [
  ['login', (a) => a.login({ email: 'ada@example.com', password: 'pw' })],
  ['signup', (a) => a.signup({ email: 'ada@example.com', password: 'pw', terms_agreement: true })],
  ['logout', (a) => a.logout()],
  ['verifyEmail', (a) => a.verifyEmail('k')],
  ['requestPasswordReset', (a) => a.requestPasswordReset('ada@example.com')],
  ['resetPassword', (a) => a.resetPassword({ key: 'k', password: 'new secret' })],
];

const safeCalls: Array<[string, (auth: AuthClient) => Promise<unknown>]> = [
  ['config', (a) => a.config()],
  ['session', (a) => a.session()],
  ['getEmailVerification', (a) => a.getEmailVerification('k')],
  ['getPasswordReset', (a) => a.getPasswordReset('k')],
];

describe('A1 A3 the browser client', () => {
  it.each([...unsafeCalls, ...safeCalls])(
    'A1 A3: %s goes to /_allauth/browser/v1/ with credentials and without X-Session-Token',
    async (_name, run) => {
      const { auth, credentials } = setup({ getCsrfToken: () => 'cookie-csrf', session: signedIn });
      await run(auth);
      const request = server.last();
      expect(request.url.startsWith('/_allauth/browser/v1/')).toBe(true);
      expect(request.headers['x-session-token']).toBeUndefined();
      expect(credentials.at(-1)?.credentials).toBe('include');
    },
  );

  it('A3: the app client sends no credentials mode', async () => {
    const tokenStore = new MemoryTokenStore();
    const seen: Array<RequestCredentials | undefined> = [];
    const http = createHttpClient({
      baseUrl: server.origin,
      tokenStore,
      fetch: (input, init) => {
        seen.push(init?.credentials);
        return fetch(input, init);
      },
    });
    await createAuthClient({ http, tokenStore }).session();
    expect(seen).toEqual([undefined]);
  });

  it('A3 A9: a token the browser client is given (docs/auth.md extension) is stored', async () => {
    const { auth, tokenStore } = setup({ getCsrfToken: () => 'c' });
    await auth.login({ email: 'ada@example.com', password: 'pw' });
    expect(tokenStore.getToken()).toBe('new-token');
  });

  it('A3 A10: an authenticated session answer refreshes the stored details of the token kept for /api/v1/', async () => {
    const { auth, tokenStore } = setup({ session: signedIn });
    await auth.session();
    expect(tokenStore.getSnapshot()).toMatchObject({ token: 'stored-token', name: 'Ada Lovelace' });
  });
});

describe('A4 CSRF', () => {
  it.each(unsafeCalls)('A4: %s sends X-CSRFToken from getCsrfToken()', async (_name, run) => {
    const { auth } = setup({ getCsrfToken: () => 'cookie-csrf' });
    await run(auth);
    expect(server.requests.map((r) => r.url).filter((url) => url.includes('csrf'))).toEqual([]);
    expect(server.last().headers['x-csrftoken']).toBe('cookie-csrf');
  });

  it.each(safeCalls)('A4: %s (a GET) sends no X-CSRFToken', async (_name, run) => {
    const { auth } = setup({ getCsrfToken: () => 'cookie-csrf' });
    await run(auth);
    expect(server.last().headers['x-csrftoken']).toBeUndefined();
  });

  it('A4: reads the token at every call, so a rotated cookie is followed', async () => {
    let cookie = 'first';
    const { auth } = setup({ getCsrfToken: () => cookie });
    await auth.login({ email: 'a@b.co', password: 'p' });
    cookie = 'rotated';
    await auth.logout();
    expect(server.requests.map((r) => r.headers['x-csrftoken'])).toEqual(['first', 'rotated']);
  });

  it('A4: without a token it fetches one first, then reuses it', async () => {
    const { auth, credentials } = setup({ getCsrfToken: () => null, session: signedIn });
    await auth.login({ email: 'a@b.co', password: 'p' });
    await auth.logout();
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.headers['x-csrftoken'] ?? '-'}`)).toEqual([
      'GET /api/v1/apps/csrf/ -',
      'POST /_allauth/browser/v1/auth/login csrf-from-server',
      'DELETE /_allauth/browser/v1/auth/session csrf-from-server',
    ]);
    expect(credentials[0]?.credentials).toBe('include');
  });

  it('A4: an empty token counts as none', async () => {
    const { auth } = setup({ getCsrfToken: () => '' });
    await auth.verifyEmail('k');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/apps/csrf/',
      '/_allauth/browser/v1/auth/email/verify',
    ]);
  });

  it('A4: the default reads the csrftoken cookie from document.cookie when called, not at creation', async () => {
    const { auth } = setup();
    vi.stubGlobal('document', { cookie: 'theme=coffee; csrftoken=doc%20token; other=1' });
    await auth.requestPasswordReset('a@b.co');
    expect(server.last().headers['x-csrftoken']).toBe('doc token');
  });

  it('A4: the default copes with no document and with a cookie jar that throws', async () => {
    const { auth } = setup();
    await auth.login({ email: 'a@b.co', password: 'p' });
    vi.stubGlobal('document', {
      get cookie(): string {
        throw new DOMException('sandboxed', 'SecurityError');
      },
    });
    await auth.logout();
    // No cookie both times: one fetch, then the fetched token is reused.
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/apps/csrf/',
      '/_allauth/browser/v1/auth/login',
      '/_allauth/browser/v1/auth/session',
    ]);
    expect(server.last().headers['x-csrftoken']).toBe('csrf-from-server');
  });

  it('A4: the cookie wins over a fetched token', async () => {
    let cookie: string | null = null;
    const { auth } = setup({ getCsrfToken: () => cookie });
    await auth.fetchCsrf();
    cookie = 'from-cookie';
    await auth.login({ email: 'a@b.co', password: 'p' });
    expect(server.last().headers['x-csrftoken']).toBe('from-cookie');
  });

  it('A4: fetchCsrf sends no session token and resolves to the csrftoken', async () => {
    const { auth } = setup({ session: signedIn });
    await expect(auth.fetchCsrf()).resolves.toBe('csrf-from-server');
    expect(server.last()).toMatchObject({ method: 'GET', url: '/api/v1/apps/csrf/' });
    expect(server.last().headers['x-session-token']).toBeUndefined();
  });

  it('A4: a fetchCsrf answer without csrftoken is a ResponseValidationError', async () => {
    answer(server, 200, { token: 'x' });
    expect(ResponseValidationError.isInstance(await rejectionOf(setup().auth.fetchCsrf()))).toBe(true);
  });

  it('A4: the app client never sends X-CSRFToken, even when a token is at hand', async () => {
    const tokenStore = new MemoryTokenStore();
    const http = createHttpClient({ baseUrl: server.origin, tokenStore });
    await createAuthClient({ http, tokenStore, client: 'app', getCsrfToken: () => 'c' }).logout();
    expect(server.requests.map((r) => r.headers['x-csrftoken'])).toEqual([undefined]);
  });

  it('A4: readCookie decodes values and keeps malformed escapes', () => {
    expect(readCookie('a=1; csrftoken=x%3Dy', 'csrftoken')).toBe('x=y');
    expect(readCookie('csrftoken=%E0%A4%A', 'csrftoken')).toBe('%E0%A4%A');
    expect(readCookie('xcsrftoken=no; csrftoken2=no', 'csrftoken')).toBeNull();
    expect(readCookie('', 'csrftoken')).toBeNull();
    expect(readCookie(undefined, 'csrftoken')).toBeNull();
  });
});

describe('A13 provider redirect form', () => {
  it('A13: builds the spec form POST to /accounts/{provider}/login/', () => {
    const { auth } = setup({ getCsrfToken: () => 'c1' });
    expect(
      auth.providerRedirectForm({
        provider: 'google',
        callbackUrl: 'https://plans.example/account/google/login/callback?next=%2Fdashboard',
      }),
    ).toEqual({
      method: 'POST',
      action: `${server.origin}/accounts/google/login/`,
      fields: {
        csrfmiddlewaretoken: 'c1',
        process: 'login',
        next: 'https://plans.example/account/google/login/callback?next=%2Fdashboard',
      },
    });
    expect(server.requests).toEqual([]);
  });

  it('A13: the headless endpoint, a given token and the connect process', () => {
    const { auth } = setup({ getCsrfToken: () => 'ignored', baseUrl: '/planwright/' });
    expect(
      auth.providerRedirectForm({
        provider: 'google',
        callbackUrl: '/account/google/login/callback',
        process: 'connect',
        csrfToken: 'given',
        endpoint: 'headless',
      }),
    ).toEqual({
      method: 'POST',
      action: '/planwright/_allauth/browser/v1/auth/provider/redirect',
      fields: {
        provider: 'google',
        callback_url: '/account/google/login/callback',
        process: 'connect',
        csrfmiddlewaretoken: 'given',
      },
    });
  });

  it('A13: falls back to the token of the last fetchCsrf', async () => {
    const { auth } = setup({ getCsrfToken: () => null });
    await auth.fetchCsrf();
    expect(
      auth.providerRedirectForm({ provider: 'google', callbackUrl: '/cb' }).fields.csrfmiddlewaretoken,
    ).toBe('csrf-from-server');
  });

  it.each([
    ['no CSRF token', { provider: 'google', callbackUrl: '/cb' }, 'csrfToken'],
    ['an empty callback URL', { provider: 'google', callbackUrl: '', csrfToken: 'c' }, 'callbackUrl'],
    ['a provider that is not an id', { provider: '../evil', callbackUrl: '/cb', csrfToken: 'c' }, 'provider'],
  ])('A13: %s throws InvalidInputError naming the field', (_name, input, field) => {
    const { auth } = setup({ getCsrfToken: () => null });
    let thrown: unknown;
    try {
      auth.providerRedirectForm(input);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidInputError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidInputError).issues.map((issue) => issue.path.join('.'))).toEqual([field]);
  });
});

describe('A12 resend verification from the browser', () => {
  it('A12: sends credentials and X-CSRFToken, and the stored token as every /api/v1/ call does', async () => {
    const { auth, credentials } = setup({ getCsrfToken: () => 'c2', session: signedIn });
    await auth.resendVerification('ada@example.com');
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/users/resend-verification/' });
    expect(server.last().headers).toMatchObject({ 'x-csrftoken': 'c2', 'x-session-token': 'stored-token' });
    expect(credentials.at(-1)?.credentials).toBe('include');
  });

  it('A12: a browser authenticated answer then a resend use the same store', async () => {
    answer(server, 200, authenticated('fresh'));
    const { auth } = setup({ getCsrfToken: () => 'c' });
    await auth.login({ email: 'a@b.co', password: 'p' });
    server.handle(happyAllauth);
    await auth.resendVerification('a@b.co');
    expect(server.last().headers['x-session-token']).toBe('fresh');
  });
});
