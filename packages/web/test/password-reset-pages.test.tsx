import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allauth, createFakeServer, type Handler, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

describe('password reset request page (spec 000 §4; SPEC.md P1–P2)', () => {
  const SAME =
    'If an account exists for ada@example.com, we have sent it a link to reset the password. The link is valid for 24 hours.';

  it.each<[string, Handler]>([
    ['a sent link', () => allauth.ok()],
    [
      'a refused address',
      () => allauth.invalid([{ message: 'Enter a valid email address.', code: 'invalid', param: 'email' }]),
    ],
    ['a rate limit', () => json({ status: 429 }, 429)],
    ['a server error', () => json({ detail: 'boom' }, 500)],
    ['no answer', () => Promise.reject(new TypeError('offline'))],
  ])('P2: shows the same result after %s', async (_name, answer) => {
    const fake = createFakeServer().on('POST /_allauth/app/v1/auth/password/request', answer);
    renderApp({ path: '/account/password/reset', server: fake });
    await screen.findByRole('heading', { name: 'Reset your password' });
    fill('Email', ' ada@example.com ');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(SAME)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(fake.calls('/_allauth/app/v1/auth/password/request')[0]?.body).toEqual({
      email: 'ada@example.com',
    });
  });

  it('P1: checks the address first', async () => {
    const fake = createFakeServer();
    renderApp({ path: '/account/password/reset', server: fake });
    await screen.findByRole('heading', { name: 'Reset your password' });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    fill('Email', 'nope');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(fake.requests).toEqual([]);
  });
});

describe('new-password page (spec 000 §4 "Password reset with key", §8 "Reset"; SPEC.md K1–K6)', () => {
  function server(
    reset: Handler | Response,
    check: Handler | Response = json({ status: 200, data: { user: allauth.user() } }),
  ) {
    return createFakeServer()
      .on('GET /_allauth/app/v1/config', allauth.config())
      .on('GET /_allauth/app/v1/auth/password/reset', check)
      .on('POST /_allauth/app/v1/auth/password/reset', reset);
  }

  async function arrive(fake: ReturnType<typeof server>, key = 'reset-key') {
    const app = renderApp({ path: `/account/password/reset/key/${key}`, server: fake });
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await screen.findByLabelText('New password');
    return app;
  }

  it('K2/K4: checks the key, sets the password and goes to sign-in after 3 seconds', async () => {
    const fake = server(allauth.unauthenticated());
    const app = await arrive(fake);
    expect(
      fake.calls('/_allauth/app/v1/auth/password/reset', 'GET')[0]?.headers.get('x-password-reset-key'),
    ).toBe('reset-key');
    fill('New password', 'amber-meadow-77');
    fill('Confirm new password', 'amber-meadow-77');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeTruthy();
    expect(fake.calls('/_allauth/app/v1/auth/password/reset', 'POST')[0]?.body).toEqual({
      key: 'reset-key',
      password: 'amber-meadow-77',
    });
    app.advance(2_999);
    expect(app.location()).toBe('/account/password/reset/key/reset-key');
    app.advance(1);
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
  });

  it('K3: validates the new password with the spec texts', async () => {
    const fake = server(allauth.unauthenticated());
    await arrive(fake);
    fill('New password', 'short');
    fill('Confirm new password', 'shorter');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fake.calls('/_allauth/app/v1/auth/password/reset', 'POST')).toEqual([]);
  });

  it('K2: a refused key is expired on arrival, with a way to ask for a new one', async () => {
    const fake = server(
      allauth.unauthenticated(),
      allauth.invalid([{ message: 'Bad.', code: 'token_invalid', param: 'key' }]),
    );
    renderApp({ path: '/account/password/reset/key/old', server: fake });
    expect(await screen.findByText('This reset link has expired or is invalid.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe(
      '/account/password/reset',
    );
  });

  it('K5: a key refused on submission is expired too', async () => {
    const fake = server(allauth.invalid([{ message: 'Bad.', code: 'token_invalid', param: 'key' }]));
    await arrive(fake);
    fill('New password', 'amber-meadow-77');
    fill('Confirm new password', 'amber-meadow-77');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This reset link has expired or is invalid.')).toBeTruthy();
  });

  it('K6: a refused password stands by the field; anything else is the spec text', async () => {
    let answer: Handler = () =>
      allauth.invalid([{ message: 'Too common.', code: 'password_too_common', param: 'password' }]);
    const fake = server((request) => answer(request));
    await arrive(fake);
    fill('New password', 'password123');
    fill('Confirm new password', 'password123');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This password is too common')).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');

    answer = () => json({ detail: 'boom' }, 500);
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password reset failed. Please try again.')).toBeTruthy();
  });

  it('K1: a blank key is an invalid reset link without a call', async () => {
    const fake = server(allauth.unauthenticated());
    renderApp({ path: '/account/password/reset/key/%20', server: fake });
    expect(await screen.findByText('Invalid reset link')).toBeTruthy();
    expect(fake.requests.filter((request) => request.path.includes('password'))).toEqual([]);
  });
});
