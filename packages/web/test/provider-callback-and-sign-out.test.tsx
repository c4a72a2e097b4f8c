import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allauth, createFakeServer, type Handler, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

function server(session: Handler | Response) {
  return createFakeServer()
    .on('GET /_allauth/app/v1/config', allauth.config())
    .on('GET /_allauth/browser/v1/auth/session', session)
    .on('GET /api/v1/app/me/', json({ detail: 'nope' }, 500));
}

describe('third-party sign-in callback (spec 000 §4, §8; SPEC.md G2–G5)', () => {
  it('G2/G4: stores the token the session answer hands back and goes on to next', async () => {
    const google = allauth.user({
      display: 'Grace Hopper',
      email: 'grace@example.com',
      avatar_url: 'https://img.example/g.png',
    });
    const fake = server(allauth.authenticated('cookie-token', google));
    const app = renderApp({
      path: '/account/google/login/callback?next=%2Fdashboard%2Fprofile',
      server: fake,
    });
    await screen.findByRole('heading', { name: 'Profile' });
    expect(app.location()).toBe('/dashboard/profile');
    const [session] = fake.calls('/_allauth/browser/v1/auth/session');
    expect(session?.credentials).toBe('include');
    expect(session?.headers.has('x-session-token')).toBe(false);
    expect(Object.fromEntries(app.storage.data)).toEqual({
      sessionToken: 'cookie-token',
      userEmail: 'grace@example.com',
      userName: 'Grace Hopper',
      avatarUrl: 'https://img.example/g.png',
    });
  });

  it('G4: without next it goes to the dashboard; a foreign next is ignored', async () => {
    const app = renderApp({
      path: '/account/google/login/callback?next=%2F%2Fevil.example',
      server: server(allauth.authenticated('cookie-token')),
    });
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    expect(app.location()).toBe('/dashboard');
  });

  it('G2: a session that is not signed in is a failed sign-in, with a way back', async () => {
    const app = renderApp({
      path: '/account/google/login/callback',
      server: server(allauth.unauthenticated()),
    });
    expect(await screen.findByText('OAuth sign-in failed. Please try again.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe(
      '/account/signin',
    );
    expect(app.location()).toBe('/account/google/login/callback');
    expect(app.tokenStore.getToken()).toBeNull();
  });

  it('G5: a callback with ?error= fails at once, whatever session the browser has', async () => {
    const postMessage = vi.fn();
    const fake = server(allauth.authenticated('old-cookie-token'));
    const app = renderApp({
      path: '/account/google/login/callback?error=access_denied&next=%2Fdashboard',
      server: fake,
      ports: { opener: () => ({ postMessage }) },
    });
    await vi.waitFor(() => expect(app.ports.closeWindow).toHaveBeenCalled());
    expect(postMessage).toHaveBeenCalledWith(
      {
        type: 'planwright:provider-sign-in',
        status: 'error',
        message: 'OAuth sign-in failed. Please try again.',
      },
      'http://planwright.test',
    );
    expect(fake.calls('/_allauth/browser/v1/auth/session')).toEqual([]);
    expect(app.tokenStore.getToken()).toBeNull();
    cleanup();

    renderApp({ path: '/account/google/login/callback?error=expired_state', server: fake });
    expect(await screen.findByText('OAuth sign-in failed. Please try again.')).toBeTruthy();
    expect(fake.calls('/_allauth/browser/v1/auth/session')).toEqual([]);
  });

  it('G3: no answer is the unexpected-callback text', async () => {
    renderApp({
      path: '/account/google/login/callback',
      server: server(() => json({ detail: 'boom' }, 502)),
    });
    expect(await screen.findByText('Unexpected error during OAuth callback. Please try again.')).toBeTruthy();
  });

  it('G4: in a popup it reports to the opener (same origin) and closes, on success and on failure', async () => {
    const postMessage = vi.fn();
    const app = renderApp({
      path: '/account/google/login/callback?next=%2Fdashboard%2Fprofile',
      server: server(allauth.authenticated('cookie-token')),
      ports: { opener: () => ({ postMessage }) },
    });
    await vi.waitFor(() => expect(app.ports.closeWindow).toHaveBeenCalled());
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'planwright:provider-sign-in', status: 'success' },
      'http://planwright.test',
    );
    expect(app.location()).toBe('/account/google/login/callback?next=%2Fdashboard%2Fprofile');
    expect(app.storage.data.get('sessionToken')).toBe('cookie-token');
    cleanup();

    const failed = vi.fn();
    const popup = renderApp({
      path: '/account/google/login/callback',
      server: server(allauth.unauthenticated()),
      ports: { opener: () => ({ postMessage: failed }) },
    });
    await vi.waitFor(() => expect(popup.ports.closeWindow).toHaveBeenCalled());
    expect(failed).toHaveBeenCalledWith(
      {
        type: 'planwright:provider-sign-in',
        status: 'error',
        message: 'OAuth sign-in failed. Please try again.',
      },
      'http://planwright.test',
    );
  });
});

describe('sign-out (spec 000 §4 "Sign-out"; SPEC.md O1)', () => {
  function signOutServer(appAnswer: Handler | Response = allauth.unauthenticated()) {
    return createFakeServer()
      .on('GET /_allauth/app/v1/config', allauth.config())
      .on('DELETE /_allauth/app/v1/auth/session', appAnswer)
      .on('GET /api/v1/apps/csrf/', json({ csrftoken: 'csrf-1' }))
      .on('DELETE /_allauth/browser/v1/auth/session', allauth.unauthenticated());
  }

  it('O1: deletes both kinds of server session, clears the four stored values and the drafts, and goes to /', async () => {
    const fake = signOutServer();
    const app = renderApp({
      path: '/account/signout',
      server: fake,
      session: {
        token: 'token-1',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        avatarUrl: 'https://img.example/a.png',
      },
    });
    app.storage.data.set('emailVerificationBannerDismissed', '1');
    app.storage.data.set('planwright:draft:document:d-1', '{"v":1}');
    app.queryClient.setQueryData(['account', 'me'], { email: 'ada@example.com' });
    await screen.findByRole('heading', { name: 'For Founders' });
    expect(app.location()).toBe('/');
    const [appLogout] = fake.calls('/_allauth/app/v1/auth/session', 'DELETE');
    expect(appLogout?.headers.get('x-session-token')).toBe('token-1');
    const [browserLogout] = fake.calls('/_allauth/browser/v1/auth/session', 'DELETE');
    expect(browserLogout?.headers.get('x-csrftoken')).toBe('csrf-1');
    expect(browserLogout?.credentials).toBe('include');
    expect(Object.fromEntries(app.storage.data)).toEqual({ emailVerificationBannerDismissed: '1' });
    expect(app.queryClient.getQueryData(['account', 'me'])).toBeUndefined();
  });

  it('O1: signs out locally even when the server cannot be reached', async () => {
    const app = renderApp({
      path: '/account/signout',
      server: signOutServer(() => Promise.reject(new TypeError('offline'))),
      session: { token: 'token-1', email: 'ada@example.com' },
    });
    await screen.findByRole('heading', { name: 'For Founders' });
    expect(app.storage.data.size).toBe(0);
  });
});
