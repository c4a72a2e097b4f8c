import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Without an OpenID Connect client configured, Google sign-in is absent and says so; it never errors. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://plans.example.com' });
});
afterAll(async () => {
  await t?.close();
});

const CSRF = 'c'.repeat(43);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${CSRF}`, ...headers },
    payload: form(fields),
  });
}

describe('Google sign-in when no provider is configured', () => {
  it('lists no provider in GET config or the flows', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/_allauth/browser/v1/config' });
    expect(config.json().data.socialaccount).toBeUndefined();
    const session = await t.app.inject({ method: 'GET', url: '/_allauth/browser/v1/auth/session' });
    expect(session.json().data.flows).toEqual([{ id: 'login' }, { id: 'signup' }]);
  });

  it('redirects the form POST and the callback to the web page with error=not_configured', async () => {
    const start = await post('/accounts/google/login/', {
      csrfmiddlewaretoken: CSRF,
      process: 'login',
      next: '/x',
    });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe(
      'https://plans.example.com/account/google/login/callback?error=not_configured',
    );
    const callback = await t.app.inject({
      method: 'GET',
      url: '/accounts/google/login/callback/?code=a&state=b',
    });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe(
      'https://plans.example.com/account/google/login/callback?error=not_configured',
    );
  });

  it('has no HEAD callback (it would use a state up)', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/accounts/google/login/callback/?state=x' });
    expect(head.statusCode).toBe(404);
  });

  it('answers provider/redirect with 400 unknown provider', async () => {
    const res = await post('/_allauth/browser/v1/auth/provider/redirect', {
      provider: 'google',
      callback_url: '/account/google/login/callback',
      process: 'login',
      csrfmiddlewaretoken: CSRF,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      errors: [{ message: 'Unknown provider.', code: 'invalid', param: 'provider' }],
    });
  });

  it('checks CSRF first (field or X-CSRFToken header), then the form', async () => {
    expect((await post('/accounts/google/login/', { process: 'login' })).statusCode).toBe(403);
    expect(
      (await post('/accounts/google/login/', { process: 'login' }, { 'x-csrftoken': CSRF })).statusCode,
    ).toBe(302);
    const connect = await post('/accounts/google/login/', { csrfmiddlewaretoken: CSRF, process: 'connect' });
    expect(connect.statusCode).toBe(400);
    expect(connect.json().errors[0]).toMatchObject({ param: 'process', code: 'invalid' });
  });
});
