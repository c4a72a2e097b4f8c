import { SessionService } from '../../src/auth/session-service.js';
import type { UserRecord } from '../../src/storage/user-repository.js';
import type { TestApp } from './test-app.js';

/** A user with a live app session, straight from storage: tests of the workspace API need no sign-up flow. */
export interface SignedInUser {
  user: UserRecord;
  token: string;
  headers: { 'x-session-token': string };
}

/**
 * Creates a verified account and a session for it. `now` must be the clock the app was built with,
 * so the session is neither idle nor expired when the app looks at it.
 */
export async function createSignedInUser(
  t: Pick<TestApp, 'storage' | 'config'>,
  input: { email: string; firstName?: string; lastName?: string },
  now: () => Date = () => new Date(),
  /** `browser` makes the session of the allauth browser client (its token is the `sessionid` cookie). */
  client: 'app' | 'browser' = 'app',
): Promise<SignedInUser> {
  const created = await t.storage.users.create({
    email: input.email,
    passwordHash: null,
    emailVerified: true,
    createdAt: now(),
  });
  const user =
    (await t.storage.users.update(created.id, {
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
    })) ?? created;
  const sessions = new SessionService(t.storage, t.config.sessions, now);
  const { token } = await sessions.issue(
    { client, token: undefined, ip: '127.0.0.1', userAgent: 'vitest' },
    { user, authenticated: true, method: 'password' },
  );
  return { user, token, headers: { 'x-session-token': token } };
}
