import type { SessionRecord } from '../storage/session-repository.js';
import type { UserRecord } from '../storage/user-repository.js';

/** One allauth input error; `param` is absent for errors about the request as a whole. */
export interface AllauthError {
  message: string;
  code: string;
  param?: string;
}

/** The user object of every authenticated answer (docs/auth.md). */
export function userPayload(user: UserRecord) {
  return {
    id: user.id,
    display: displayName(user),
    email: user.email,
    has_usable_password: user.passwordHash !== null,
    has_verified_email: user.emailVerified,
    avatar_url: user.avatarUrl,
  };
}

/** "First Last", else the e-mail address: what the web shows as the user's name. */
export function displayName(user: Pick<UserRecord, 'firstName' | 'lastName' | 'email'>): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

export function authenticatedBody(user: UserRecord, session: SessionRecord, token?: string) {
  const at = (session.methodAt ?? session.createdAt).getTime() / 1000;
  const method =
    session.method === 'socialaccount'
      ? { method: 'socialaccount', at, provider: session.provider ?? '' }
      : { method: 'password', at, email: user.email };
  return {
    status: 200,
    data: { user: userPayload(user), methods: [method] },
    meta: { is_authenticated: true, ...(token ? { session_token: token } : {}) },
  };
}

/** The flows an unauthenticated client may take next, with a pending one when its session waits. */
export function flowsFor(session: SessionRecord | undefined, providers: string[]) {
  return [
    { id: 'login' },
    { id: 'signup' },
    ...(providers.length > 0 ? [{ id: 'provider_redirect', providers }] : []),
    ...(session?.pendingFlow === 'verify_email' ? [{ id: 'verify_email', is_pending: true }] : []),
    ...(session?.pendingFlow === 'mfa_authenticate' ? [{ id: 'mfa_authenticate', is_pending: true }] : []),
  ];
}

export function unauthenticatedBody(
  session: SessionRecord | undefined,
  providers: string[],
  token?: string,
  status: 401 | 410 = 401,
) {
  return {
    status,
    data: { flows: flowsFor(session, providers) },
    meta: { is_authenticated: false, ...(token ? { session_token: token } : {}) },
  };
}

export function errorsBody(errors: AllauthError[]) {
  return { status: 400, errors };
}
