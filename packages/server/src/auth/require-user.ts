import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.js';
import type { UserRecord } from '../storage/user-repository.js';
import { readCredentials } from './request-credentials.js';
import type { SessionService } from './session-service.js';

/**
 * The signed-in user of an `/api/v1/` request, from its X-Session-Token. Anything else answers 401,
 * which the SDK turns into "sign in again" (token cleared, `onAuthRequired`).
 */
export async function requireUser(request: FastifyRequest, sessions: SessionService): Promise<UserRecord> {
  const lookup = await sessions.lookup(readCredentials(request, 'app'), { anyClient: true });
  if (lookup.kind === 'live' && lookup.session.authenticated && lookup.user) return lookup.user;
  throw new HttpError(
    401,
    'not_authenticated',
    lookup.kind === 'gone'
      ? 'Your session has expired. Please sign in again.'
      : 'Authentication credentials were not provided.',
  );
}
