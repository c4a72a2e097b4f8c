import {
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import { lastKeyFor } from '@planwright/server';
import { expect } from 'vitest';

/** The password every test account signs up with. */
export const TEST_PASSWORD = 'a-sturdy-harbour-passphrase';

/** A verified, signed-in account, made through the SDK against a real server. */
export interface SdkAccount {
  client: PlanwrightClient;
  email: string;
  tokenStore: MemoryTokenStore;
}

/** Signs `email` up through the SDK and verifies it with the key from the server's outbox. */
export async function signUpWithSdk(
  server: { url: string; outboxDir: string },
  email: string,
): Promise<SdkAccount> {
  const tokenStore = new MemoryTokenStore();
  const client = createPlanwrightClient({ baseUrl: server.url, tokenStore });
  expect((await client.auth.signup({ email, password: TEST_PASSWORD, terms_agreement: true })).kind).toBe(
    'pending',
  );
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  expect((await client.auth.verifyEmail(key)).kind).toBe('authenticated');
  return { client, email, tokenStore };
}

/** What `promise` rejected with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The call failed with an `ApiError` (never an `AuthRequiredError`) of that status. */
export async function apiErrorOf(promise: Promise<unknown>, status: number): Promise<ApiError> {
  const error = await rejectionOf(promise);
  expect(ApiError.isInstance(error), String(error)).toBe(true);
  expect(AuthRequiredError.isInstance(error)).toBe(false);
  expect((error as ApiError).status, (error as ApiError).message).toBe(status);
  return error as ApiError;
}
