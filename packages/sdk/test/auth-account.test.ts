import type { ServerResponse } from 'node:http';
import {
  ApiError,
  AuthRequiredError,
  createAuthClient,
  createHttpClient,
  createPlanwrightClient,
  currentUserSchema,
  MemoryTokenStore,
  ResponseValidationError,
  type SessionInfo,
} from '@planwright/sdk';
import { describe, expect, it, vi } from 'vitest';
import { answer, configData, happyAllauth, jsonBody, profile, rejectionOf } from './support/allauth.js';
import { reply, useRecordingServer } from './support/recording-server.js';

const server = useRecordingServer(happyAllauth);

const signedIn: SessionInfo = { token: 'tok', email: 'old@example.com', name: 'Old', avatarUrl: null };

function setup(session?: SessionInfo) {
  const tokenStore = new MemoryTokenStore(session);
  const onAuthRequired = vi.fn();
  const http = createHttpClient({ baseUrl: server.origin, tokenStore, onAuthRequired });
  return { auth: createAuthClient({ http, tokenStore }), tokenStore, onAuthRequired };
}

describe('A12 current user', () => {
  it('A12: me() is GET /api/v1/app/me/ with the session token, and returns the profile', async () => {
    const { auth } = setup(signedIn);
    await expect(auth.me()).resolves.toEqual(profile);
    expect(server.last()).toMatchObject({ method: 'GET', url: '/api/v1/app/me/' });
    expect(server.last().headers['x-session-token']).toBe('tok');
  });

  it('A10 A12: me() refreshes the stored e-mail, name and avatar and keeps the token', async () => {
    const { auth, tokenStore } = setup(signedIn);
    await auth.me();
    expect(tokenStore.getSnapshot()).toEqual({
      token: 'tok',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      avatarUrl: 'https://img.example/ada.png',
    });
  });

  it('A10 A12: a new sign-in while me() was in flight is not overwritten with the old answer', async () => {
    let pending: ServerResponse | undefined;
    server.handle((_request, response) => {
      pending = response;
    });
    const { auth, tokenStore } = setup(signedIn);
    const call = auth.me();
    await server.nextRequest();
    tokenStore.setSession({ token: 'other', email: 'grace@example.com', name: 'Grace Hopper' });
    if (!pending) throw new Error('no request');
    reply(pending, 200, profile);
    await call;
    expect(tokenStore.getSnapshot()).toMatchObject({ token: 'other', name: 'Grace Hopper' });
  });

  it('A12: a profile with null language, timezone and avatar parses; a wrong shape is a ResponseValidationError', async () => {
    answer(server, 200, { ...profile, language: null, timezone: null, avatar_url: null });
    const { auth } = setup(signedIn);
    await expect(auth.me()).resolves.toMatchObject({ language: null, timezone: null, avatar_url: null });
    answer(server, 200, { ...profile, has_verified_email: 'no' });
    expect(ResponseValidationError.isInstance(await rejectionOf(auth.me()))).toBe(true);
  });

  it('A12: a 401 from me() is an AuthRequiredError that clears the store and runs the hook (H8)', async () => {
    answer(server, 401, { detail: 'Authentication credentials were not provided.' });
    const { auth, tokenStore, onAuthRequired } = setup(signedIn);
    expect(AuthRequiredError.isInstance(await rejectionOf(auth.me()))).toBe(true);
    expect(tokenStore.getToken()).toBeNull();
    expect(onAuthRequired).toHaveBeenCalledTimes(1);
  });

  it('A12: updateMe() is PATCH /api/v1/app/me/ with the fields given', async () => {
    const { auth } = setup(signedIn);
    const update = {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      language: null,
      timezone: 'UTC',
    };
    await expect(auth.updateMe(update)).resolves.toEqual({ user: profile, email_verification_sent: false });
    expect(server.last()).toMatchObject({ method: 'PATCH', url: '/api/v1/app/me/' });
    expect(jsonBody(server.last())).toEqual(update);
  });

  it('A10 A12: updateMe() refreshes the stored details from the saved profile', async () => {
    answer(server, 200, {
      user: { ...profile, email: 'new@example.com', get_display_name: 'Countess Ada', avatar_url: null },
      email_verification_sent: true,
    });
    const { auth, tokenStore } = setup(signedIn);
    await expect(auth.updateMe({ email: 'new@example.com' })).resolves.toMatchObject({
      email_verification_sent: true,
    });
    expect(tokenStore.getSnapshot()).toEqual({
      token: 'tok',
      email: 'new@example.com',
      name: 'Countess Ada',
      avatarUrl: null,
    });
  });

  it('A12: updateMe() answered without email_verification_sent is a ResponseValidationError', async () => {
    answer(server, 200, { user: profile });
    expect(ResponseValidationError.isInstance(await rejectionOf(setup(signedIn).auth.updateMe({})))).toBe(
      true,
    );
  });

  it('A12: resendVerification() posts the address; the app client sends no CSRF header', async () => {
    const { auth } = setup();
    await expect(auth.resendVerification('ada@example.com')).resolves.toBeUndefined();
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/users/resend-verification/' });
    expect(jsonBody(server.last())).toEqual({ email: 'ada@example.com' });
    expect(server.last().headers['x-csrftoken']).toBeUndefined();
    expect(server.last().headers['x-session-token']).toBeUndefined();
  });

  it.each([
    [202, undefined],
    [204, undefined],
    [200, 'sent'],
  ])('A12: resendVerification() treats %s as success whatever the body', async (status, body) => {
    answer(server, status, body);
    await expect(setup().auth.resendVerification('a@b.co')).resolves.toBeUndefined();
  });

  it('A12: a rate-limited resend is a retryable ApiError', async () => {
    answer(server, 429, { detail: 'Slow down.' });
    const error = await rejectionOf(setup().auth.resendVerification('a@b.co'));
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, isRetryable: true, detail: 'Slow down.' });
  });

  it('A12: currentUserSchema rejects a record without has_verified_email (the banner needs it)', () => {
    const { has_verified_email: _dropped, ...rest } = profile;
    expect(currentUserSchema.safeParse(rest).success).toBe(false);
  });
});

describe('A14 config', () => {
  it('A14: config() resolves to data of GET config, without the session token', async () => {
    const { auth } = setup(signedIn);
    await expect(auth.config()).resolves.toEqual(configData);
    expect(server.last()).toMatchObject({ method: 'GET', url: '/_allauth/app/v1/config' });
    expect(server.last().headers['x-session-token']).toBeUndefined();
  });

  it('A14: a config without providers parses; a wrong one is a ResponseValidationError', async () => {
    const { socialaccount: _dropped, ...withoutProviders } = configData;
    answer(server, 200, { status: 200, data: withoutProviders });
    const { auth } = setup();
    await expect(auth.config()).resolves.toEqual(withoutProviders);
    answer(server, 200, { status: 200, data: { account: {} } });
    expect(ResponseValidationError.isInstance(await rejectionOf(auth.config()))).toBe(true);
  });

  it('A14: a failed config is an ApiError, never an AuthRequiredError, and keeps the store', async () => {
    answer(server, 403, { status: 403 });
    const { auth, tokenStore, onAuthRequired } = setup(signedIn);
    const error = await rejectionOf(auth.config());
    expect(ApiError.isInstance(error) && !AuthRequiredError.isInstance(error)).toBe(true);
    expect(tokenStore.getToken()).toBe('tok');
    expect(onAuthRequired).not.toHaveBeenCalled();
  });
});

describe('createPlanwrightClient wiring', () => {
  it('A9: a login through client.auth signs in every product call of client.http', async () => {
    const client = createPlanwrightClient({ baseUrl: server.origin });
    expect(client.auth.client).toBe('app');
    await client.auth.login({ email: 'ada@example.com', password: 'pw' });
    await client.http.get('documents/').catch(() => undefined);
    expect(server.last().headers['x-session-token']).toBe('new-token');
    expect(client.tokenStore.getSnapshot().email).toBe('ada@example.com');
  });

  it('A3 A4: authClient and getCsrfToken reach the auth client', async () => {
    const client = createPlanwrightClient({
      baseUrl: server.origin,
      authClient: 'browser',
      getCsrfToken: () => 'from-option',
    });
    await client.auth.logout();
    expect(server.last()).toMatchObject({ method: 'DELETE', url: '/_allauth/browser/v1/auth/session' });
    expect(server.last().headers['x-csrftoken']).toBe('from-option');
  });
});
