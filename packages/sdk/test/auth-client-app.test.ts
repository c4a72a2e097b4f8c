import type { ServerResponse } from 'node:http';
import {
  AbortedError,
  ApiError,
  type AuthClient,
  AuthRequiredError,
  createAuthClient,
  createHttpClient,
  MemoryTokenStore,
  NetworkError,
  ResponseValidationError,
  type SessionInfo,
} from '@planwright/sdk';
import { describe, expect, it, vi } from 'vitest';
import {
  ada,
  answer,
  authenticated,
  baseFlows,
  errors,
  happyAllauth,
  jsonBody,
  passwordMethod,
  rejectionOf,
  sessionGone,
  unauthenticated,
} from './support/allauth.js';
import { closedPort, reply, useRecordingServer } from './support/recording-server.js';

const server = useRecordingServer(happyAllauth);

function setup(options: { session?: SessionInfo; baseUrl?: string } = {}) {
  const tokenStore = new MemoryTokenStore(options.session);
  const onAuthRequired = vi.fn();
  const http = createHttpClient({ baseUrl: options.baseUrl ?? server.origin, tokenStore, onAuthRequired });
  const auth = createAuthClient({ http, tokenStore, client: 'app' });
  return { auth, tokenStore, onAuthRequired, http };
}

const signedIn: SessionInfo = {
  token: 'old-token',
  email: 'old@example.com',
  name: 'Old Name',
  avatarUrl: null,
};

const calls: Array<{
  name: string;
  run: (auth: AuthClient) => Promise<unknown>;
  method: string;
  path: string;
  body: unknown;
  headers?: Record<string, string>;
}> = [
  { name: 'config', run: (a) => a.config(), method: 'GET', path: 'config', body: undefined },
  {
    name: 'login',
    run: (a) => a.login({ email: 'ada@example.com', password: 'correct horse' }),
    method: 'POST',
    path: 'auth/login',
    body: { email: 'ada@example.com', password: 'correct horse' },
  },
  {
    name: 'signup',
    run: (a) => a.signup({ email: 'ada@example.com', password: 'correct horse', terms_agreement: true }),
    method: 'POST',
    path: 'auth/signup',
    body: { email: 'ada@example.com', password: 'correct horse', terms_agreement: true, phone_number_x: '' },
  },
  {
    name: 'signup with a captcha token',
    run: (a) =>
      a.signup({ email: 'a@b.co', password: 'pw', terms_agreement: false, turnstile_token: 'turnstile-1' }),
    method: 'POST',
    path: 'auth/signup',
    body: {
      email: 'a@b.co',
      password: 'pw',
      terms_agreement: false,
      phone_number_x: '',
      turnstile_token: 'turnstile-1',
    },
  },
  { name: 'session', run: (a) => a.session(), method: 'GET', path: 'auth/session', body: undefined },
  { name: 'logout', run: (a) => a.logout(), method: 'DELETE', path: 'auth/session', body: undefined },
  {
    name: 'getEmailVerification',
    run: (a) => a.getEmailVerification('verify-key-1'),
    method: 'GET',
    path: 'auth/email/verify',
    body: undefined,
    headers: { 'x-email-verification-key': 'verify-key-1' },
  },
  {
    name: 'verifyEmail',
    run: (a) => a.verifyEmail('verify-key-1'),
    method: 'POST',
    path: 'auth/email/verify',
    body: { key: 'verify-key-1' },
  },
  {
    name: 'requestPasswordReset',
    run: (a) => a.requestPasswordReset('ada@example.com'),
    method: 'POST',
    path: 'auth/password/request',
    body: { email: 'ada@example.com' },
  },
  {
    name: 'getPasswordReset',
    run: (a) => a.getPasswordReset('reset-key-1'),
    method: 'GET',
    path: 'auth/password/reset',
    body: undefined,
    headers: { 'x-password-reset-key': 'reset-key-1' },
  },
  {
    name: 'resetPassword',
    run: (a) => a.resetPassword({ key: 'reset-key-1', password: 'new secret 1' }),
    method: 'POST',
    path: 'auth/password/reset',
    body: { key: 'reset-key-1', password: 'new secret 1' },
  },
];

describe('A1 A3 A5 requests of the app client', () => {
  it.each(calls)(
    'A1 A5: $name sends $method /_allauth/app/v1/$path with its body and headers',
    async (call) => {
      await call.run(setup().auth);
      const request = server.last();
      expect(request.method).toBe(call.method);
      expect(request.url).toBe(`/_allauth/app/v1/${call.path}`);
      expect(jsonBody(request)).toEqual(call.body);
      if (call.body !== undefined) expect(request.headers['content-type']).toBe('application/json');
      for (const [name, value] of Object.entries(call.headers ?? {}))
        expect(request.headers[name]).toBe(value);
      expect(request.headers['x-csrftoken']).toBeUndefined();
    },
  );

  it('A1: keeps the base URL prefix', async () => {
    answer(server, 200, authenticated());
    await setup({ baseUrl: `${server.origin}/planwright/` }).auth.session();
    expect(server.last().url).toBe('/planwright/_allauth/app/v1/auth/session');
  });

  it.each(calls.filter((call) => call.name !== 'config'))(
    'A3: $name sends the stored token as X-Session-Token',
    async (call) => {
      await call.run(setup({ session: signedIn }).auth);
      expect(server.last().headers['x-session-token']).toBe('old-token');
    },
  );

  it('A3: sends no X-Session-Token when none is stored', async () => {
    await setup().auth.login({ email: 'ada@example.com', password: 'pw' });
    expect(server.last().headers['x-session-token']).toBeUndefined();
  });
});

describe('A2 outcomes stay outside the request helper auth handling', () => {
  it('A2: a 401 answer is a result: no AuthRequiredError, no hook, the store keeps its token', async () => {
    answer(server, 401, unauthenticated());
    const { auth, tokenStore, onAuthRequired } = setup({ session: signedIn });
    await expect(auth.session()).resolves.toEqual({ kind: 'unauthenticated', flows: baseFlows });
    expect(onAuthRequired).not.toHaveBeenCalled();
    expect(tokenStore.getToken()).toBe('old-token');
  });

  it('A2: a 403 answer is a result: no AuthRequiredError, no hook, the store keeps its token', async () => {
    answer(server, 403, { status: 403, errors: [{ message: 'Sign-up is closed.', code: 'signup_closed' }] });
    const { auth, tokenStore, onAuthRequired } = setup({ session: signedIn });
    await expect(auth.signup({ email: 'a@b.co', password: 'p', terms_agreement: true })).resolves.toEqual({
      kind: 'forbidden',
      errors: [{ message: 'Sign-up is closed.', code: 'signup_closed' }],
    });
    expect(onAuthRequired).not.toHaveBeenCalled();
    expect(tokenStore.getToken()).toBe('old-token');
  });

  it('A2: a sign-up answered 401 pending leaves the store with the pending token, not cleared', async () => {
    const { auth, tokenStore, onAuthRequired } = setup();
    const result = await auth.signup({ email: 'new@example.com', password: 'pw', terms_agreement: true });
    expect(result).toEqual({ kind: 'pending', flow: 'verify_email', sessionToken: 'pending-token' });
    expect(tokenStore.getToken()).toBe('pending-token');
    expect(onAuthRequired).not.toHaveBeenCalled();
  });
});

describe('A6 outcomes', () => {
  it('A6: 200 authenticated gives the user, the methods and the new token', async () => {
    const result = await setup().auth.login({ email: 'ada@example.com', password: 'pw' });
    expect(result).toEqual({
      kind: 'authenticated',
      user: ada,
      methods: [passwordMethod],
      sessionToken: 'new-token',
    });
  });

  it('A6: 200 authenticated without meta.session_token has no sessionToken key', async () => {
    const result = await setup().auth.session();
    expect(result).toEqual({ kind: 'authenticated', user: ada, methods: [passwordMethod] });
    expect(result).not.toHaveProperty('sessionToken');
  });

  it('A6: a social method is kept as sent', async () => {
    const social = { method: 'socialaccount', at: 1_767_225_601, provider: 'google' };
    answer(server, 200, { ...authenticated(), data: { user: ada, methods: [social] } });
    expect(await setup().auth.session()).toMatchObject({ kind: 'authenticated', methods: [social] });
  });

  it('A6: 401 with a pending verify_email flow is pending (login of an unverified address)', async () => {
    answer(server, 401, unauthenticated({ pending: true, token: 'pending-login' }));
    expect(await setup().auth.login({ email: 'new@example.com', password: 'pw' })).toEqual({
      kind: 'pending',
      flow: 'verify_email',
      sessionToken: 'pending-login',
    });
  });

  it('A6: 401 without a pending flow is unauthenticated with the flows', async () => {
    answer(server, 401, unauthenticated());
    expect(await setup().auth.resetPassword({ key: 'k', password: 'new secret' })).toEqual({
      kind: 'unauthenticated',
      flows: baseFlows,
    });
  });

  it('A6: a verify_email flow that is not pending does not make the answer pending', async () => {
    answer(server, 401, { ...unauthenticated(), data: { flows: [{ id: 'verify_email' }] } });
    expect(await setup().auth.session()).toMatchObject({ kind: 'unauthenticated' });
  });

  it('A6: 400 files errors by param, and errors without one as form errors', async () => {
    answer(
      server,
      400,
      errors(
        { message: 'Enter a valid email address.', code: 'invalid_email', param: 'email' },
        { message: 'This password is too short.', code: 'password_too_short', param: 'password' },
        { message: 'This password is too common.', code: 'password_too_common', param: 'password' },
        { message: 'Too many failed login attempts.', code: 'too_many_login_attempts' },
      ),
    );
    expect(await setup().auth.signup({ email: 'x', password: 'short', terms_agreement: true })).toEqual({
      kind: 'invalid',
      fieldErrors: {
        email: [{ code: 'invalid_email', message: 'Enter a valid email address.' }],
        password: [
          { code: 'password_too_short', message: 'This password is too short.' },
          { code: 'password_too_common', message: 'This password is too common.' },
        ],
      },
      formErrors: [{ code: 'too_many_login_attempts', message: 'Too many failed login attempts.' }],
    });
  });

  it('A6: 403 without a JSON body is forbidden with no errors', async () => {
    answer(server, 403, '<h1>CSRF verification failed</h1>', { 'content-type': 'text/html' });
    expect(await setup().auth.logout()).toEqual({ kind: 'forbidden', errors: [] });
  });

  it('A6: 409 is conflict', async () => {
    answer(server, 409, { status: 409 });
    expect(await setup().auth.login({ email: 'a@b.co', password: 'p' })).toEqual({ kind: 'conflict' });
  });

  it('A6: 410 is session_gone', async () => {
    answer(server, 410, sessionGone);
    expect(await setup({ session: signedIn }).auth.session()).toEqual({ kind: 'session_gone' });
  });

  it('A6: 429 is rate_limited with Retry-After in seconds', async () => {
    answer(server, 429, { status: 429 }, { 'retry-after': '17' });
    expect(await setup().auth.requestPasswordReset('a@b.co')).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 17,
    });
  });

  it.each([
    ['0', 0],
    [' 120 ', 120],
    ['1.5', undefined],
    ['-5', undefined],
    ['1e3', undefined],
  ])('A6: Retry-After %j gives retryAfterSeconds %s', async (header, seconds) => {
    answer(server, 429, { status: 429 }, { 'retry-after': header });
    const result = await setup().auth.session();
    expect(result).toEqual(
      seconds === undefined ? { kind: 'rate_limited' } : { kind: 'rate_limited', retryAfterSeconds: seconds },
    );
  });

  it('A6: 429 with no usable Retry-After has no retryAfterSeconds', async () => {
    answer(server, 429, { status: 429 }, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' });
    expect(await setup().auth.login({ email: 'a@b.co', password: 'p' })).toEqual({ kind: 'rate_limited' });
    answer(server, 429, 'slow down', { 'content-type': 'text/plain' });
    expect(await setup().auth.signup({ email: 'a@b.co', password: 'p', terms_agreement: true })).toEqual({
      kind: 'rate_limited',
    });
  });

  it('A6: 200 {status: 200} is ok', async () => {
    expect(await setup().auth.requestPasswordReset('nobody@example.com')).toEqual({ kind: 'ok' });
  });

  it('A6: the key GETs give valid_key with what the key belongs to', async () => {
    const { auth } = setup();
    expect(await auth.getEmailVerification('k')).toEqual({
      kind: 'valid_key',
      email: ada.email,
      user: ada,
      isAuthenticating: true,
    });
    expect(await auth.getPasswordReset('k')).toEqual({ kind: 'valid_key', user: ada });
  });

  it('A6: a refused key is invalid on param key', async () => {
    answer(server, 400, errors({ message: 'Invalid or expired key.', code: 'invalid', param: 'key' }));
    expect(await setup().auth.verifyEmail('used')).toEqual({
      kind: 'invalid',
      fieldErrors: { key: [{ code: 'invalid', message: 'Invalid or expired key.' }] },
      formErrors: [],
    });
  });

  it('A6: verification outside the waiting session is unauthenticated (verified, not signed in)', async () => {
    answer(server, 401, unauthenticated());
    expect(await setup().auth.verifyEmail('k')).toMatchObject({ kind: 'unauthenticated' });
  });
});

describe('A7 validation of answers', () => {
  const malformed: Array<[string, number, unknown]> = [
    ['a user without email', 200, authenticated('t', { ...ada, email: undefined })],
    ['a status field that differs from the HTTP status', 200, { ...authenticated('t'), status: 201 }],
    ['is_authenticated false on a 200', 200, { ...authenticated('t'), meta: { is_authenticated: false } }],
    ['an empty session token', 200, authenticated('')],
    ['a bare object', 200, {}],
    ['a 401 without flows', 401, { status: 401, data: {}, meta: { is_authenticated: false } }],
    ['a 400 whose errors are not a list', 400, { status: 400, errors: 'bad' }],
    ['a 400 error without code', 400, errors({ message: 'x' } as never)],
    ['a 410 without data', 410, { status: 410 }],
  ];

  it.each(malformed)('A7: %s is a ResponseValidationError', async (_name, status, body) => {
    answer(server, status, body);
    const error = await rejectionOf(setup().auth.login({ email: 'a@b.co', password: 'p' }));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status,
      method: 'POST',
      url: `${server.origin}/_allauth/app/v1/auth/login`,
    });
    expect((error as ResponseValidationError).issues.length).toBeGreaterThan(0);
  });

  it('A7: the issues point into the body', async () => {
    answer(server, 200, authenticated('t', { ...ada, has_verified_email: 'yes' }));
    const error = (await rejectionOf(setup().auth.session())) as ResponseValidationError;
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['data.user.has_verified_email']);
  });

  it('A7: a JSON content type with a body that is not JSON is a ResponseValidationError', async () => {
    answer(server, 200, '{"status": 200,', { 'content-type': 'application/json' });
    expect(ResponseValidationError.isInstance(await rejectionOf(setup().auth.session()))).toBe(true);
  });

  it('A7: an HTML page (a misrouted call) is a ResponseValidationError, not a result', async () => {
    answer(server, 200, '<!doctype html><title>Planwright</title>', { 'content-type': 'text/html' });
    expect(ResponseValidationError.isInstance(await rejectionOf(setup().auth.session()))).toBe(true);
  });

  it('A7: unknown keys are ignored and a missing avatar_url is null', async () => {
    const { avatar_url: _dropped, ...withoutAvatar } = ada;
    answer(server, 200, {
      ...authenticated(),
      extra: 1,
      data: { user: { ...withoutAvatar, username: 'ada' }, methods: [] },
    });
    expect(await setup().auth.session()).toEqual({
      kind: 'authenticated',
      user: { ...withoutAvatar, avatar_url: null },
      methods: [],
    });
  });

  it('A7: another status (404) is an ApiError with the status and data', async () => {
    answer(server, 404, { detail: 'Not found.', code: 'not_found' });
    const error = await rejectionOf(setup().auth.session());
    expect(ApiError.isInstance(error) && !AuthRequiredError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, serverCode: 'not_found', isRetryable: false });
  });

  it('A7: a 5xx is a retryable ApiError', async () => {
    answer(server, 503, 'down for maintenance', { 'content-type': 'text/plain' });
    const error = await rejectionOf(setup().auth.login({ email: 'a@b.co', password: 'p' }));
    expect(error).toMatchObject({ status: 503, message: 'down for maintenance', isRetryable: true });
    expect(ApiError.isInstance(error)).toBe(true);
  });

  it('A7: a refused connection is a NetworkError', async () => {
    const port = await closedPort();
    const error = await rejectionOf(setup({ baseUrl: `http://127.0.0.1:${port}` }).auth.session());
    expect(NetworkError.isInstance(error)).toBe(true);
  });

  it('A7: an aborted call is an AbortedError', async () => {
    server.handle(() => {}); // never answers
    const controller = new AbortController();
    const call = setup().auth.session({ signal: controller.signal });
    await server.nextRequest();
    controller.abort();
    expect(AbortedError.isInstance(await rejectionOf(call))).toBe(true);
  });
});

describe('A8 answers per call', () => {
  it('A8: an outcome the call does not have is a ResponseValidationError naming it', async () => {
    answer(server, 409, { status: 409 });
    const error = await rejectionOf(setup().auth.session());
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `Unexpected response from GET ${server.origin}/_allauth/app/v1/auth/session: 409 (conflict) is not an answer to this call`,
    );
  });

  it('A8: a sign-up answered authenticated is accepted (a server without mandatory verification)', async () => {
    answer(server, 200, authenticated('signed-up'));
    expect(
      await setup().auth.signup({ email: 'a@b.co', password: 'p', terms_agreement: true }),
    ).toMatchObject({
      kind: 'authenticated',
      sessionToken: 'signed-up',
    });
  });

  it('A8: a password-reset request answered 401 is not one of its outcomes', async () => {
    answer(server, 401, unauthenticated());
    expect(
      ResponseValidationError.isInstance(await rejectionOf(setup().auth.requestPasswordReset('a@b.co'))),
    ).toBe(true);
  });

  it('A8: the interruptions (429, 403, 410) are outcomes of every call', async () => {
    const { auth } = setup();
    for (const [status, body, kind] of [
      [429, { status: 429 }, 'rate_limited'],
      [403, { status: 403 }, 'forbidden'],
      [410, sessionGone, 'session_gone'],
    ] as const) {
      answer(server, status, body);
      for (const call of calls.filter((c) => c.name !== 'config')) {
        await expect(call.run(auth), `${call.name} answered ${status}`).resolves.toMatchObject({ kind });
      }
    }
  });
});

describe('A9 A10 storing the session', () => {
  it('A9: a login stores the new token with the e-mail, display name and avatar', async () => {
    const { auth, tokenStore } = setup({ session: signedIn });
    await auth.login({ email: 'ADA@example.com', password: 'pw' });
    expect(tokenStore.getSnapshot()).toEqual({
      token: 'new-token',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      avatarUrl: 'https://img.example/ada.png',
    });
  });

  it('A9: a display name that is only the e-mail (or blank) is not stored as the name', async () => {
    const { auth, tokenStore } = setup();
    answer(server, 200, authenticated('t1', { ...ada, display: ada.email, avatar_url: null }));
    await auth.login({ email: ada.email, password: 'pw' });
    expect(tokenStore.getSnapshot()).toEqual({ token: 't1', email: ada.email, name: null, avatarUrl: null });
    answer(server, 200, authenticated('t2', { ...ada, display: '  ' }));
    await auth.login({ email: ada.email, password: 'pw' });
    expect(tokenStore.getSnapshot().name).toBeNull();
  });

  it('A9: a pending sign-up stores its token with the address typed', async () => {
    const { auth, tokenStore } = setup();
    await auth.signup({ email: 'new@example.com', password: 'pw', terms_agreement: true });
    expect(tokenStore.getSnapshot()).toEqual({
      token: 'pending-token',
      email: 'new@example.com',
      name: null,
      avatarUrl: null,
    });
  });

  it('A9: the pending token is what completes the sign-in when the link is verified', async () => {
    const { auth, tokenStore } = setup();
    await auth.signup({ email: 'ada@example.com', password: 'pw', terms_agreement: true });
    const result = await auth.verifyEmail('verify-key-1');
    expect(server.last().headers['x-session-token']).toBe('pending-token');
    expect(result).toMatchObject({ kind: 'authenticated', sessionToken: 'verified-token' });
    expect(tokenStore.getSnapshot()).toMatchObject({ token: 'verified-token', name: 'Ada Lovelace' });
  });

  it('A9: a pending answer without a token changes nothing', async () => {
    answer(server, 401, unauthenticated({ pending: true }));
    const { auth, tokenStore } = setup({ session: signedIn });
    expect(await auth.session()).toEqual({ kind: 'pending', flow: 'verify_email' });
    expect(tokenStore.getSnapshot()).toEqual(signedIn);
  });

  it("A9: an unauthenticated answer's token is reported but not stored", async () => {
    answer(server, 401, unauthenticated({ token: 'anonymous-token' }));
    const { auth, tokenStore } = setup();
    expect(await auth.resetPassword({ key: 'k', password: 'new secret' })).toEqual({
      kind: 'unauthenticated',
      flows: baseFlows,
      sessionToken: 'anonymous-token',
    });
    expect(tokenStore.getToken()).toBeNull();
  });

  it('A10: an authenticated answer without a token refreshes the stored details and keeps the token', async () => {
    const { auth, tokenStore } = setup({ session: signedIn });
    await auth.session();
    expect(tokenStore.getSnapshot()).toEqual({
      token: 'old-token',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      avatarUrl: 'https://img.example/ada.png',
    });
  });

  it('A10: an authenticated answer without a token stores nothing when nothing was stored', async () => {
    const { auth, tokenStore } = setup();
    await auth.session();
    expect(tokenStore.getToken()).toBeNull();
  });

  it('A10: a sign-out while the call was in flight wins over the refresh', async () => {
    let pending: ServerResponse | undefined;
    server.handle((_request, response) => {
      pending = response;
    });
    const { auth, tokenStore } = setup({ session: signedIn });
    const call = auth.session();
    await server.nextRequest();
    tokenStore.clear();
    if (!pending) throw new Error('no request');
    reply(pending, 200, authenticated());
    await call;
    expect(tokenStore.getToken()).toBeNull();
  });
});

describe('A11 clearing the session', () => {
  it('A11: logout deletes the server session and clears the store', async () => {
    const { auth, tokenStore } = setup({ session: signedIn });
    expect(await auth.logout()).toEqual({ kind: 'unauthenticated', flows: baseFlows });
    expect(server.last().headers['x-session-token']).toBe('old-token');
    expect(tokenStore.getSnapshot()).toEqual({ token: null, email: null, name: null, avatarUrl: null });
  });

  it.each([
    ['403', 403, { status: 403 }],
    ['410', 410, sessionGone],
    ['429', 429, { status: 429 }],
  ])('A11: logout answered %s still clears the store', async (_name, status, body) => {
    answer(server, status, body);
    const { auth, tokenStore } = setup({ session: signedIn });
    await auth.logout();
    expect(tokenStore.getToken()).toBeNull();
  });

  it('A11: logout clears the store when the server fails, and still throws', async () => {
    answer(server, 500, { detail: 'boom' });
    const { auth, tokenStore } = setup({ session: signedIn });
    expect(ApiError.isInstance(await rejectionOf(auth.logout()))).toBe(true);
    expect(tokenStore.getToken()).toBeNull();
  });

  it('A11: logout clears the store when the answer is malformed (200 is not its outcome)', async () => {
    answer(server, 200, { status: 200 });
    const { auth, tokenStore } = setup({ session: signedIn });
    expect(ResponseValidationError.isInstance(await rejectionOf(auth.logout()))).toBe(true);
    expect(tokenStore.getToken()).toBeNull();
  });

  it('A11: logout clears the store when the server cannot be reached', async () => {
    const port = await closedPort();
    const { auth, tokenStore } = setup({ session: signedIn, baseUrl: `http://127.0.0.1:${port}` });
    expect(NetworkError.isInstance(await rejectionOf(auth.logout()))).toBe(true);
    expect(tokenStore.getToken()).toBeNull();
  });

  it('A11: session_gone from session() or any other call clears the store', async () => {
    answer(server, 410, sessionGone);
    for (const run of [
      (a: AuthClient) => a.session(),
      (a: AuthClient) => a.login({ email: 'a@b.co', password: 'p' }),
      (a: AuthClient) => a.verifyEmail('k'),
    ]) {
      const { auth, tokenStore } = setup({ session: signedIn });
      expect(await run(auth)).toEqual({ kind: 'session_gone' });
      expect(tokenStore.getToken()).toBeNull();
    }
  });

  it.each([
    ['401 not authenticated', 401, unauthenticated()],
    ['401 pending', 401, unauthenticated({ pending: true })],
    ['403 forbidden', 403, { status: 403 }],
    ['400 invalid', 400, errors({ message: 'Wrong.', code: 'email_password_mismatch', param: 'password' })],
    ['409 conflict', 409, { status: 409 }],
    ['429 rate limited', 429, { status: 429 }],
  ])('A11: %s does not clear the store', async (_name, status, body) => {
    answer(server, status, body);
    const { auth, tokenStore } = setup({ session: signedIn });
    await auth.login({ email: 'a@b.co', password: 'p' }).catch(() => undefined);
    await auth.session().catch(() => undefined);
    expect(tokenStore.getSnapshot()).toEqual(signedIn);
  });
});
