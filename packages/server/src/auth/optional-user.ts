import type { FastifyRequest } from 'fastify';
import type { UserRecord } from '../storage/user-repository.js';
import { readCredentials } from './request-credentials.js';
import { requireUser } from './require-user.js';
import type { SessionService } from './session-service.js';

/**
 * The signed-in user of an `/api/v1/` request that anonymous visitors may also make, or `undefined`
 * when it carries no X-Session-Token. A token that is sent but no longer valid still answers 401, as
 * everywhere else: the client then knows to sign in again instead of seeing less than it should.
 */
export async function optionalUser(
  request: FastifyRequest,
  sessions: SessionService,
): Promise<UserRecord | undefined> {
  if (readCredentials(request, 'app').token === undefined) return undefined;
  return requireUser(request, sessions);
}
