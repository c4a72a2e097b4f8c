import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allauth, createFakeServer, type Handler, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

function server(verify: Handler | Response) {
  return createFakeServer()
    .on('GET /_allauth/app/v1/config', allauth.config())
    .on('GET /api/v1/apps/csrf/', json({ csrftoken: 'csrf-123' }))
    .on('POST /_allauth/browser/v1/auth/email/verify', verify)
    .on('POST /api/v1/users/resend-verification/', json({ detail: 'ok' }));
}

describe('e-mail verification page (spec 000 §4 "Email verification", §8; SPEC.md V1–V5)', () => {
  it('V2: verifies with the browser client (CSRF cookie first), then goes to sign-in after 3 seconds', async () => {
    const fake = server(allauth.unauthenticated());
    const app = renderApp({ path: '/account/verify-email/key%2Babc', server: fake });
    expect(await screen.findByText('Verifying your email…', { selector: 'span' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Email verified' })).toBeTruthy();
    expect(
      screen.getByText('Thank you! Your email address is verified. Taking you to sign in…'),
    ).toBeTruthy();

    const order = fake.requests.map((request) => request.path);
    expect(order.indexOf('/api/v1/apps/csrf/')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('/api/v1/apps/csrf/')).toBeLessThan(
      order.indexOf('/_allauth/browser/v1/auth/email/verify'),
    );
    const [verify] = fake.calls('/_allauth/browser/v1/auth/email/verify');
    expect(verify?.body).toEqual({ key: 'key+abc' });
    expect(verify?.headers.get('x-csrftoken')).toBe('csrf-123');
    expect(verify?.headers.has('x-session-token')).toBe(false);
    expect(verify?.credentials).toBe('include');

    app.advance(2_999);
    expect(app.location()).toBe('/account/verify-email/key%2Babc');
    app.advance(1);
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
    expect(app.location()).toBe('/account/signin');
    expect(fake.calls('/_allauth/browser/v1/auth/email/verify')).toHaveLength(1);
  });

  it('V2: a browser session waiting for this link is signed in and goes to the dashboard', async () => {
    const app = renderApp({
      path: '/account/verify-email/abc',
      server: server(allauth.authenticated('cookie-token')),
    });
    expect(
      await screen.findByText('Thank you! Your email address is verified. Taking you to your dashboard…'),
    ).toBeTruthy();
    expect(app.storage.data.get('sessionToken')).toBe('cookie-token');
    app.advance(3_000);
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
  });

  it('V3: already verified says so, hides the resend form and goes to sign-in after 3 seconds', async () => {
    const app = renderApp({
      path: '/account/verify-email/used',
      server: server(
        allauth.invalid([{ message: 'Already verified.', code: 'already_verified', param: 'key' }]),
      ),
    });
    expect(
      await screen.findByText('This email has already been verified. You can sign in now.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).toBeNull();
    app.advance(3_000);
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
  });

  it('V4: an invalid or expired link shows the spec text and the resend form, and stays', async () => {
    const fake = server(allauth.invalid([{ message: 'Invalid.', code: 'invalid', param: 'key' }]));
    const app = renderApp({ path: '/account/verify-email/bad', server: fake });
    expect(await screen.findByText('This verification link is invalid or has expired.')).toBeTruthy();
    app.advance(10_000);
    expect(app.location()).toBe('/account/verify-email/bad');

    fireEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(
      await screen.findByText(
        'If this address needs verifying, a new link is on its way. Please check your inbox.',
      ),
    ).toBeTruthy();
    expect(fake.calls('/api/v1/users/resend-verification/')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('V4: a failed resend has the spec text', async () => {
    const fake = server(allauth.invalid([{ message: 'Invalid.', code: 'invalid', param: 'key' }])).on(
      'POST /api/v1/users/resend-verification/',
      json({ detail: 'slow down' }, 429),
    );
    renderApp({ path: '/account/verify-email/bad', server: fake });
    await screen.findByText('This verification link is invalid or has expired.');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Failed to resend verification email. Please try again.')).toBeTruthy();
  });

  it('F2: mounted twice (React development mode), it still verifies once and redirects once', async () => {
    const fake = server(allauth.unauthenticated());
    const app = renderApp({ path: '/account/verify-email/abc', server: fake, strict: true });
    await screen.findByRole('heading', { name: 'Email verified' });
    expect(fake.calls('/_allauth/browser/v1/auth/email/verify')).toHaveLength(1);
    app.advance(3_000);
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
    expect(app.router.state.historyAction).toBe('REPLACE');
    expect(app.clock.pending).toBe(0);
  });

  it('V1: a blank key is an invalid link without a call', async () => {
    const fake = server(allauth.unauthenticated());
    renderApp({ path: '/account/verify-email/%20', server: fake });
    expect(await screen.findByText('Invalid verification link')).toBeTruthy();
    expect(fake.calls('/_allauth/browser/v1/auth/email/verify')).toEqual([]);
  });

  it('V5: no answer is an unexpected error; leaving the page cancels the redirect', async () => {
    renderApp({
      path: '/account/verify-email/abc',
      server: server(() => Promise.reject(new TypeError('offline'))),
    });
    expect(await screen.findByText('An unexpected error occurred. Please try again.')).toBeTruthy();
    cleanup();

    const app = renderApp({ path: '/account/verify-email/abc', server: server(allauth.unauthenticated()) });
    await screen.findByRole('heading', { name: 'Email verified' });
    await app.router.navigate('/about');
    await screen.findByRole('heading', { name: 'About Planwright' });
    app.advance(3_000);
    expect(app.location()).toBe('/about');
  });
});
