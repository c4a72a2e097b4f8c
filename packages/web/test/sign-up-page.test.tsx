import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allauth, createFakeServer, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
const terms = () => screen.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' });

function server() {
  return createFakeServer().on('GET /_allauth/app/v1/config', allauth.config());
}

async function arrive(fake = server()) {
  const app = renderApp({ path: '/account/signup', server: fake });
  await screen.findByRole('heading', { name: 'Create your account' });
  return app;
}

function fillValid(email = 'ada@example.com') {
  fill('Email', email);
  fill('Password', 'violet-harbour-42');
  fill('Confirm password', 'violet-harbour-42');
  fireEvent.click(terms());
}

describe('sign-up page (spec 000 §2, §4 "Sign-up", §5, §8; SPEC.md U1–U5)', () => {
  it('has email, password, confirmation and a terms checkbox linking to /web/terms', async () => {
    await arrive();
    const link = screen.getByRole('link', { name: 'Terms and Conditions' });
    expect(link.getAttribute('href')).toBe('/web/terms');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByLabelText('Confirm password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/signin');
  });

  it('links the terms where the server says they live (TERMS_URL)', async () => {
    const fake = server().on(
      'GET /api/v1/website/config/',
      json({
        company: { name: 'Example Ltd', email: 'legal@example.com', configured: true },
        legal: { terms_url: 'https://example.com/terms', privacy_url: null },
        pricing: { payment_table: false, plans: [] },
      }),
    );
    await arrive(fake);
    const link = screen.getByRole('link', { name: 'Terms and Conditions' });
    await vi.waitFor(() => expect(link.getAttribute('href')).toBe('https://example.com/terms'));
  });

  it('U1: validates on the client with the spec texts and sends nothing', async () => {
    const fake = server();
    await arrive(fake);
    submit();
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('You must agree to the Terms and Conditions')).toBeTruthy();
    expect(terms().getAttribute('aria-invalid')).toBe('true');

    fill('Email', 'ada-at-example');
    fill('Password', 'short');
    fill('Confirm password', 'other');
    submit();
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(fake.calls('/_allauth/app/v1/auth/signup')).toEqual([]);
  });

  it('U3: a pending verification (401) shows Check your email naming the address, and keeps no session', async () => {
    const fake = server().on('POST /_allauth/app/v1/auth/signup', allauth.pending('pending-token'));
    const app = await arrive(fake);
    fillValid(' ada@example.com ');
    submit();
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(
      screen.getByText(
        'We sent a verification link to ada@example.com. Open it to activate your account, then sign in.',
      ),
    ).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Check your email' }));
    expect(fake.calls('/_allauth/app/v1/auth/signup')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'violet-harbour-42',
      terms_agreement: true,
      phone_number_x: '',
    });
    expect(app.tokenStore.getToken()).toBeNull();
    expect(app.storage.data.size).toBe(0);
  });

  it('U4: server refusals go to their fields, the rest above the form', async () => {
    const fake = server().on(
      'POST /_allauth/app/v1/auth/signup',
      allauth.invalid([
        { message: 'This password is too common.', code: 'password_too_common', param: 'password' },
        { message: 'Enter a valid email address.', code: 'invalid_email', param: 'email' },
        { message: 'Something else went wrong.', code: 'weird' },
      ]),
    );
    await arrive(fake);
    fillValid();
    submit();
    expect(await screen.findByText('This password is too common')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Something else went wrong.');
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
  });

  it('U4: captcha errors are shown; a refusal without words gets the spec text', async () => {
    let errors: Array<{ message: string; code: string; param?: string }> = [
      { message: 'x', code: 'invalid_captcha', param: 'turnstile_token' },
    ];
    const fake = server().on('POST /_allauth/app/v1/auth/signup', () => allauth.invalid(errors));
    await arrive(fake);
    fillValid();
    submit();
    expect(await screen.findByText('Captcha verification failed. Please try again')).toBeTruthy();
    errors = [];
    submit();
    expect(
      await screen.findByText('Sign up failed. Please check your information and try again.'),
    ).toBeTruthy();
  });

  it('U5: no answer is a failed sign-up', async () => {
    const fake = server().on('POST /_allauth/app/v1/auth/signup', () => json({ detail: 'boom' }, 500));
    await arrive(fake);
    fillValid();
    submit();
    expect(
      await screen.findByText('Sign up failed. Please check your information and try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Up' }).hasAttribute('disabled')).toBe(false);
  });

  it('U3: an authenticated answer signs in and goes to the dashboard', async () => {
    const fake = server().on('POST /_allauth/app/v1/auth/signup', allauth.authenticated('token-9'));
    const app = await arrive(fake);
    fillValid();
    submit();
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    expect(app.location()).toBe('/dashboard');
    expect(app.storage.data.get('sessionToken')).toBe('token-9');
  });
});
