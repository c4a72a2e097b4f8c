import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allauth, createFakeServer, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
const signIn = () => fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

function server() {
  return createFakeServer().on('GET /_allauth/app/v1/config', allauth.config());
}

async function arrive(path = '/account/signin', fake = server()) {
  const app = renderApp({ path, server: fake });
  await screen.findByRole('heading', { name: 'Sign in to Planwright' });
  return app;
}

describe('sign-in page (spec 000 §2, §4 "Sign-in", §8; SPEC.md S1–S7)', () => {
  it('offers email, password, a Forgot password link and a Sign up link', async () => {
    await arrive();
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/account/password/reset',
    );
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/account/signup');
    expect(document.title).toBe('Sign in to Planwright · Planwright');
  });

  it('S8: an account with a second factor is asked for its code next; a wrong one is said, the right one signs in', async () => {
    let attempt = 0;
    const fake = server()
      .on('POST /_allauth/app/v1/auth/login', () =>
        json(
          {
            status: 401,
            data: { flows: [{ id: 'login' }, { id: 'mfa_authenticate', is_pending: true }] },
            meta: { is_authenticated: false, session_token: 'pending-token' },
          },
          401,
        ),
      )
      .on('POST /_allauth/app/v1/auth/2fa/authenticate', () => {
        attempt += 1;
        return attempt === 1
          ? json(
              {
                status: 400,
                errors: [{ message: 'Incorrect code.', code: 'incorrect_code', param: 'code' }],
              },
              400,
            )
          : allauth.authenticated('token-2');
      });
    const app = await arrive('/account/signin?next=%2Fdashboard%2Fprofile', fake);
    fill('Email', 'ada@example.com');
    fill('Password', 'violet-harbour');
    signIn();
    await screen.findByRole('heading', { name: 'Two-factor authentication' });
    fill('Code', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Incorrect code. Check the code in your app and try again.')).toBeTruthy();
    fill('Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Profile' });
    expect(app.location()).toBe('/dashboard/profile');
    const [first, second] = fake.calls('/_allauth/app/v1/auth/2fa/authenticate');
    expect(first?.body).toEqual({ code: '000000' });
    expect(second?.body).toEqual({ code: '123456' });
    expect(app.storage.data.get('sessionToken')).toBe('token-2');
  });

  it('S1: refuses empty fields with the spec texts and calls nobody', async () => {
    const fake = server();
    await arrive(undefined, fake);
    signIn();
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(fake.calls('/_allauth/app/v1/auth/login')).toEqual([]);
  });

  it('S3: signs in with the app client, stores the four values and lands on the remembered location', async () => {
    const fake = server().on(
      'POST /_allauth/app/v1/auth/login',
      allauth.authenticated('token-1', allauth.user({ avatar_url: 'https://img.example/ada.png' })),
    );
    const app = await arrive('/account/signin?next=%2Fdashboard%2Fprofile', fake);
    fill('Email', '  ada@example.com ');
    fill('Password', 'violet-harbour');
    signIn();
    expect(screen.getByRole('button', { name: 'Signing in…' }).hasAttribute('disabled')).toBe(true);
    await screen.findByRole('heading', { name: 'Profile' });
    expect(app.location()).toBe('/dashboard/profile');
    const [login] = fake.calls('/_allauth/app/v1/auth/login');
    expect(login?.body).toEqual({ email: 'ada@example.com', password: 'violet-harbour' });
    expect(Object.fromEntries(app.storage.data)).toEqual({
      sessionToken: 'token-1',
      userEmail: 'ada@example.com',
      userName: 'Ada Lovelace',
      avatarUrl: 'https://img.example/ada.png',
    });
  });

  it('S3: without a remembered location it lands on the dashboard; a foreign one is ignored', async () => {
    const fake = server().on('POST /_allauth/app/v1/auth/login', allauth.authenticated('token-1'));
    const app = await arrive('/account/signin?next=https%3A%2F%2Fevil.example%2F', fake);
    fill('Email', 'ada@example.com');
    fill('Password', 'violet-harbour');
    signIn();
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    expect(app.location()).toBe('/dashboard');
  });

  it('S4: an unverified address shows the verify text and the resend option, whose notice stays 5 seconds', async () => {
    const fake = server()
      .on('POST /_allauth/app/v1/auth/login', allauth.pending('pending-token'))
      .on('POST /api/v1/users/resend-verification/', json({ detail: 'sent' }));
    const app = await arrive(undefined, fake);
    fill('Email', 'ada@example.com');
    fill('Password', 'violet-harbour');
    signIn();
    const alert = await screen.findByText('Please verify your email address before signing in.');
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    // C3: the pending session is not kept.
    expect(app.tokenStore.getToken()).toBeNull();
    expect(app.storage.data.size).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(screen.getByRole('button', { name: 'Sending…' }).hasAttribute('disabled')).toBe(true);
    const notice = await screen.findByText('Verification email sent! Please check your inbox.');
    expect(notice.closest('[role="status"]')).toBeTruthy();
    expect(fake.calls('/api/v1/users/resend-verification/')[0]?.body).toEqual({ email: 'ada@example.com' });
    app.advance(4_999);
    expect(screen.queryByText('Verification email sent! Please check your inbox.')).toBeTruthy();
    app.advance(1);
    expect(screen.queryByText('Verification email sent! Please check your inbox.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Resend verification email' })).toBeTruthy();
  });

  it('S4: a failed resend says so', async () => {
    const fake = server()
      .on('POST /_allauth/app/v1/auth/login', allauth.pending())
      .on('POST /api/v1/users/resend-verification/', json({ detail: 'Too many requests.' }, 429));
    const app = await arrive(undefined, fake);
    fill('Email', 'ada@example.com');
    fill('Password', 'violet-harbour');
    signIn();
    fireEvent.click(await screen.findByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Failed to resend verification email. Please try again.')).toBeTruthy();
    expect(app.ports.logError).toHaveBeenCalledWith('Failed to resend verification email', expect.anything());
  });

  it("S5: a refused login shows the server's words, or the spec's when it has none", async () => {
    let errors = [
      {
        message: 'The email address and/or password you specified are not correct.',
        code: 'email_password_mismatch',
        param: 'password',
      },
    ];
    const fake = server().on('POST /_allauth/app/v1/auth/login', () => allauth.invalid(errors));
    await arrive(undefined, fake);
    fill('Email', 'ada@example.com');
    fill('Password', 'wrong-password');
    signIn();
    expect(
      await screen.findByText('The email address and/or password you specified are not correct.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).toBeNull();

    errors = [{ message: ' ', code: 'email_password_mismatch', param: 'password' }];
    signIn();
    expect(await screen.findByText('Login failed. Please check your credentials.')).toBeTruthy();
  });

  it('S5/S6: rate limits, a forbidden answer and no answer have their own words', async () => {
    let answer: () => Response | Promise<Response> = () =>
      json({ status: 429 }, 429, { 'retry-after': '60' });
    const fake = server().on('POST /_allauth/app/v1/auth/login', () => answer());
    await arrive(undefined, fake);
    fill('Email', 'ada@example.com');
    fill('Password', 'violet-harbour');
    signIn();
    expect(
      await screen.findByText('Too many sign-in attempts. Please wait a few minutes and try again.'),
    ).toBeTruthy();
    answer = () => json({ status: 403 }, 403);
    signIn();
    expect(await screen.findByText('Unable to initialize sign-in. Please try again.')).toBeTruthy();
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    signIn();
    expect(await screen.findByText('An unexpected error occurred. Please try again.')).toBeTruthy();
  });

  it('S7: someone already signed in goes straight on', async () => {
    const app = renderApp({
      path: '/account/signin?next=%2Fdashboard%2Fprofile',
      server: server().on('GET /api/v1/app/me/', json({ ...{} }, 500)),
      session: { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' },
    });
    await screen.findByRole('heading', { name: 'Profile' });
    expect(app.location()).toBe('/dashboard/profile');
  });

  it('G1: offers Google when the server does, and starts it as a real form POST with the CSRF token', async () => {
    const fake = createFakeServer()
      .on('GET /_allauth/app/v1/config', allauth.config(['google']))
      .on('GET /api/v1/apps/csrf/', json({ csrftoken: 'csrf-123' }));
    const app = await arrive('/account/signin?next=%2Fdashboard%2Fprofile', fake);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await screen.findByRole('button', { name: 'Redirecting to Google…' });
    expect(app.ports.submitForm).toHaveBeenCalledWith({
      method: 'POST',
      action: 'http://planwright.test/accounts/google/login/',
      fields: {
        csrfmiddlewaretoken: 'csrf-123',
        process: 'login',
        next: '/account/google/login/callback?next=%2Fdashboard%2Fprofile',
      },
    });
    expect(fake.calls('/api/v1/apps/csrf/')[0]?.credentials).toBe('include');
  });

  it('G1: says so when Google sign-in cannot start, and hides the button when the server has no Google', async () => {
    const fake = createFakeServer()
      .on('GET /_allauth/app/v1/config', allauth.config(['google']))
      .on('GET /api/v1/apps/csrf/', json({ detail: 'down' }, 503));
    await arrive(undefined, fake);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByText('Unable to initialize sign-in. Please try again.')).toBeTruthy();
    cleanup();

    await arrive(undefined, server());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
  });

  it('is reached from the public navbar', async () => {
    renderApp({ path: '/', server: server() });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('link', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Planwright' })).toBeTruthy();
    fireEvent.click(within(nav).getByRole('link', { name: 'Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
  });
});
