import { lastKeyFor } from '@planwright/server';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

/** The password every browser-test account uses. */
export const TEST_PASSWORD = 'violet-harbour-lantern-42';

/** The newest link to `prefix` e-mailed to `to`, waiting for the mail to be written. */
export async function linkFromOutbox(server: TestServer, to: string, prefix: string): Promise<string> {
  let key: string | undefined;
  await expect
    .poll(async () => {
      key = await lastKeyFor(server.outboxDir, to, prefix).catch(() => undefined);
      return key;
    })
    .toBeDefined();
  return `${server.url}${prefix}${encodeURIComponent(key ?? '')}`;
}

async function post(server: TestServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * An account with a verified address, made as the accounts test makes it: sign-up through the app client,
 * then the key of the verification e-mail from the outbox.
 */
export async function verifiedAccount(server: TestServer, email: string): Promise<void> {
  const signup = await post(server, '/_allauth/app/v1/auth/signup', {
    email,
    password: TEST_PASSWORD,
    terms_agreement: true,
    phone_number_x: '',
  });
  expect(signup.status).toBe(401);
  const link = await linkFromOutbox(server, email, '/account/verify-email/');
  const key = decodeURIComponent(new URL(link).pathname.split('/').pop() ?? '');
  const verify = await post(server, '/_allauth/app/v1/auth/email/verify', { key });
  expect([200, 401]).toContain(verify.status);
}

/** Fills the sign-in form of the page that is open and submits it. */
export async function signIn(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}
