import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { HttpError } from '../http/http-error.js';
import type { SessionRecord } from '../storage/session-repository.js';
import type { UserRecord } from '../storage/user-repository.js';
import { readCredentials } from './request-credentials.js';
import type { SessionService } from './session-service.js';

/** What a read-only personal access token may call (docs/auth.md "Personal access tokens"). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

// The user (and session) an `onRequest` hook already found, so the handler's own `requireUser` costs nothing more.
const signedIn = new WeakMap<FastifyRequest, { user: UserRecord; session: SessionRecord }>();

/**
 * The signed-in user of an `/api/v1/` request, from its X-Session-Token. Anything else answers 401,
 * which the SDK turns into "sign in again" (token cleared, `onAuthRequired`).
 */
export async function requireUser(request: FastifyRequest, sessions: SessionService): Promise<UserRecord> {
  const known = signedIn.get(request);
  if (known) return known.user;
  const lookup = await sessions.lookup(readCredentials(request, 'app'), { anyClient: true });
  if (lookup.kind === 'live' && lookup.session.authenticated && lookup.user) {
    if (lookup.session.scope === 'read' && !SAFE_METHODS.has(request.method)) {
      // Refused like a viewer's change (404 `not_permitted`): a 401 or 403 would sign the client out.
      throw new HttpError(
        404,
        'not_permitted',
        'This personal access token is read-only: make a read-write token to change anything.',
      );
    }
    signedIn.set(request, { user: lookup.user, session: lookup.session });
    return lookup.user;
  }
  throw new HttpError(
    401,
    'not_authenticated',
    lookup.kind === 'gone'
      ? 'Your session has expired. Please sign in again.'
      : 'Authentication credentials were not provided.',
  );
}

/**
 * The signed-in user of an `/api/v1/` request for a sensitive action (deleting a plan shared with others): the
 * sign-in must be from the last 5 minutes, or renewed by `auth/reauthenticate` (or a two-factor code). Otherwise
 * `428 {code: "reauthentication_required"}`: a 401 or 403 would sign the client out (docs/auth.md).
 */
export async function requireRecentUser(
  request: FastifyRequest,
  sessions: SessionService,
  why: string,
): Promise<UserRecord> {
  const user = await requireUser(request, sessions);
  const session = signedIn.get(request)?.session;
  if (!session || !sessions.recentlyAuthenticated(session)) {
    throw new HttpError(428, 'reauthentication_required', why);
  }
  return user;
}

/**
 * An `onRequest` hook for routes that take large bodies: the session is checked before the body is
 * read or parsed, so an anonymous 5 MB body costs a header lookup, not a JSON parse (issue 20 §10).
 */
export function signedInFirst(sessions: SessionService): onRequestAsyncHookHandler {
  return async (request) => {
    try {
      await requireUser(request, sessions);
    } catch (error) {
      throw closingUnreadBody(error);
    }
  };
}

/**
 * A refusal answered before the body was read, with `Connection: close`: otherwise Node would read
 * the unread body off the socket to keep the connection (5 MB each, for nothing).
 */
export function closingUnreadBody(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error;
  return new HttpError(error.statusCode, error.code, error.message, error.errors, {
    ...error.headers,
    connection: 'close',
  });
}
