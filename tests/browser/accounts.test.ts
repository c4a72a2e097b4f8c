import { lastKeyFor, readOutbox } from '@planwright/server';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALLAUTH_PROTOCOL_ANSWERS, useBrowserHarness } from '../support/browser.js';

const harness = useBrowserHarness({}, { colorScheme: 'light' });

/** Account pages, with Playwright's clock so tests jump over the 3-second redirects and 5-second notices. */
const openPage = (options: BrowserContextOptions = {}): Promise<Page> =>
  harness.openPage(options, { expected: [ALLAUTH_PROTOCOL_ANSWERS], installClock: true });

const PASSWORD = 'violet-harbour-lantern-42';
const SESSION_KEYS = ['sessionToken', 'userEmail', 'userName', 'avatarUrl'] as const;

function storedSession(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((key) => [key, localStorage.getItem(key)])),
    [...SESSION_KEYS],
  );
}

async function pathOf(page: Page): Promise<string> {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** The newest link to `prefix` e-mailed to `to`, waiting for the mail to be written. */
async function linkFromOutbox(to: string, prefix: string): Promise<string> {
  let key: string | undefined;
  await expect
    .poll(async () => {
      key = await lastKeyFor(harness.server.outboxDir, to, prefix).catch(() => undefined);
      return key;
    })
    .toBeDefined();
  return `${harness.server.url}${prefix}${encodeURIComponent(key ?? '')}`;
}

/** How many messages went to `to`. */
async function mailsTo(to: string): Promise<number> {
  return (await readOutbox(harness.server.outboxDir)).filter((mail) => mail.to === to).length;
}

async function api(path: string, body: unknown): Promise<Response> {
  return fetch(`${harness.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** An account with a verified address, made through the app client (the UI flow is tested on its own). */
async function verifiedAccount(email: string): Promise<void> {
  const signup = await api('/_allauth/app/v1/auth/signup', {
    email,
    password: PASSWORD,
    terms_agreement: true,
    phone_number_x: '',
  });
  expect(signup.status).toBe(401);
  const link = await linkFromOutbox(email, '/account/verify-email/');
  const key = decodeURIComponent(new URL(link).pathname.split('/').pop() ?? '');
  const verify = await api('/_allauth/app/v1/auth/email/verify', { key });
  expect([200, 401]).toContain(verify.status);
}

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('accounts in Chromium against the real server', () => {
  it('signs up, verifies the address from the e-mail, signs in back to the remembered page, edits the profile and signs out', async () => {
    const email = 'ada.lovelace@example.com';
    const page = await openPage();

    await page.goto(`${harness.server.url}/account/signup`);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('You must agree to the Terms and Conditions').waitFor();

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(`${PASSWORD}!`);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Passwords do not match').waitFor();

    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText(`We sent a verification link to ${email}.`).waitFor();
    // The pending session is not kept: the guard must not take an unverified sign-up for a signed-in user.
    expect((await storedSession(page)).sessionToken).toBeNull();

    // Signing in before verifying offers the resend, whose notice goes after 5 seconds.
    await page.goto(`${harness.server.url}/account/signin`);
    await signIn(page, email);
    await page.getByText('Please verify your email address before signing in.').waitFor();
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    const notice = page.getByText('Verification email sent! Please check your inbox.');
    await notice.waitFor();
    await page.clock.fastForward(5_000);
    await notice.waitFor({ state: 'detached' });
    expect((await storedSession(page)).sessionToken).toBeNull();

    await page.goto(await linkFromOutbox(email, '/account/verify-email/'));
    await page.getByRole('heading', { name: 'Email verified' }).waitFor();
    await page.clock.fastForward(3_000);
    await page.waitForURL(`${harness.server.url}/account/signin`);

    // The guard sends a signed-out visitor to sign-in and remembers where they were going.
    await page.goto(`${harness.server.url}/dashboard/profile`);
    await page.waitForURL(`${harness.server.url}/account/signin?next=%2Fdashboard%2Fprofile`);
    await signIn(page, email);
    await page.waitForURL(`${harness.server.url}/dashboard/profile`);
    const stored = await storedSession(page);
    expect(stored).toEqual({
      sessionToken: expect.any(String),
      userEmail: email,
      userName: null,
      avatarUrl: null,
    });

    const accountMenu = page.getByRole('button', { name: /^Account menu/ });
    const initials = async () => (await accountMenu.locator('[aria-hidden="true"]').textContent())?.trim();
    // The initials are what shows; the button's name (screen-reader text) says whose menu it is.
    expect(await initials()).toBe('AL');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await breadcrumb.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    await breadcrumb.getByText('Profile').waitFor();

    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Your profile has been saved.').waitFor();
    expect((await storedSession(page)).userName).toBe('Grace Hopper');
    await expect.poll(initials).toBe('GH');

    await page.reload();
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Grace');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Hopper');
    expect(await page.getByLabel('Language').inputValue()).toBe('de');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');

    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Welcome, Grace Hopper' }).waitFor();

    await accountMenu.click();
    await page.getByRole('link', { name: 'Sign Out' }).click();
    await page.waitForURL(`${harness.server.url}/`);
    await page.getByRole('heading', { name: 'For Founders' }).waitFor();
    expect(await storedSession(page)).toEqual({
      sessionToken: null,
      userEmail: null,
      userName: null,
      avatarUrl: null,
    });
    // The server session is gone too.
    const me = await fetch(`${harness.server.url}/api/v1/app/me/`, {
      headers: { 'X-Session-Token': stored.sessionToken ?? '' },
    });
    expect(me.status).toBe(401);
  });

  it('resets a forgotten password from the e-mailed link, after which the new password signs in', async () => {
    const email = 'grace.hopper@example.com';
    await verifiedAccount(email);
    const page = await openPage();

    await page.goto(`${harness.server.url}/account/signin`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const sameResult = `If an account exists for ${email}, we have sent it a link to reset the password.`;
    await page.getByText(sameResult, { exact: false }).waitFor();

    // An address without an account gets the very same result.
    await page.goto(`${harness.server.url}/account/password/reset`);
    await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByText(
        'If an account exists for nobody@example.com, we have sent it a link to reset the password.',
        {
          exact: false,
        },
      )
      .waitFor();

    const link = await linkFromOutbox(email, '/account/password/reset/key/');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    const newPassword = 'amber-meadow-compass-77';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill('something else');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.clock.fastForward(3_000);
    await page.waitForURL(`${harness.server.url}/account/signin`);

    await signIn(page, email);
    // The old password no longer works: the server's words are shown as they are.
    await page.getByText('The email address and/or password you specified are not correct.').waitFor();
    expect(await pathOf(page)).toBe('/account/signin');
    await signIn(page, email, newPassword);
    await page.waitForURL(`${harness.server.url}/dashboard`);
    await page.getByRole('heading', { name: `Welcome, ${email}` }).waitFor();

    // The link was single-use.
    await page.goto(link);
    await page.getByText('This reset link has expired or is invalid.').waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).waitFor();
  });

  it('a changed address keeps the account verified (no banner) until its link is opened, which makes it the address', async () => {
    const email = 'katherine.johnson@example.com';
    const changed = 'k.johnson@example.org';
    await verifiedAccount(email);
    const page = await openPage({ colorScheme: 'dark' });

    await page.goto(`${harness.server.url}/account/signin?next=%2Fdashboard%2Fprofile`);
    await signIn(page, email);
    await page.waitForURL(`${harness.server.url}/dashboard/profile`);
    const banner = page.getByRole('region', { name: 'Email verification' });
    await page.getByLabel('First name').waitFor();
    expect(await banner.count()).toBe(0);

    // The new address is asked to confirm itself; the account keeps its verified one meanwhile (docs/auth.md).
    await page.getByLabel('Email', { exact: true }).fill(changed);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('main')
      .getByText(`We sent a verification link to ${changed}.`, { exact: false })
      .waitFor();
    expect(await banner.count()).toBe(0);
    expect((await storedSession(page)).userEmail).toBe(email);
    await expect.poll(() => mailsTo(changed)).toBe(1);

    // Opening the link makes it the account's address; the old one is told.
    await page.goto(await linkFromOutbox(changed, '/account/verify-email/'));
    await page.getByRole('heading', { name: 'Email verified' }).waitFor();
    await page.goto(`${harness.server.url}/dashboard/profile`);
    await page.getByLabel('First name').waitFor();
    await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue()).toBe(changed);
    expect(await banner.count()).toBe(0);
    await expect.poll(() => mailsTo(email)).toBeGreaterThan(1);
  });
});
