import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticatedBody, unauthenticatedBody } from '../auth/allauth-responses.js';
import { readCredentials } from '../auth/request-credentials.js';
import type { AuthClient, SessionService } from '../auth/session-service.js';
import type { SessionRecord } from '../storage/session-repository.js';
import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';

/** A signed-in allauth session and its user. */
export interface SignedIn {
  session: SessionRecord;
  user: UserRecord;
}

/**
 * What the account's allauth routes (sessions, password, tokens, e-mail addresses, two-factor) check first, for one
 * client: `signedIn` answers the session or sends allauth's 401 (410 for a dead token); `recent` answers whether a
 * sensitive action may go on, or sends allauth's 401 asking to reauthenticate (docs/auth.md).
 */
export function allauthGuards(
  deps: { sessions: SessionService; storage: Pick<Storage, 'authenticators'>; providers: string[] },
  client: AuthClient,
) {
  const { sessions, storage, providers } = deps;

  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
    // The app client's header may carry a browser sign-in's token too (the web app keeps the one a Google sign-in
    // gave its cookie, as for `/api/v1/`): a header cannot be planted by another site. A personal access token is
    // no sign-in: these calls refuse it like a dead token.
    const lookup = await sessions.lookup(readCredentials(request, client), { anyClient: client === 'app' });
    const token = lookup.kind === 'live' && lookup.session.client === 'token';
    if (!token && lookup.kind === 'live' && lookup.session.authenticated && lookup.user) {
      return { session: lookup.session, user: lookup.user };
    }
    if (lookup.kind === 'gone' || token) {
      void reply.status(410).send(unauthenticatedBody(undefined, providers, undefined, 410));
    } else {
      void reply
        .status(401)
        .send(unauthenticatedBody(lookup.kind === 'live' ? lookup.session : undefined, providers));
    }
    return undefined;
  }

  async function recent(reply: FastifyReply, signed: SignedIn): Promise<boolean> {
    if (sessions.recentlyAuthenticated(signed.session)) return true;
    const { user } = signed;
    const body = authenticatedBody(user, signed.session);
    void reply.status(401).send({
      status: 401,
      data: {
        user: body.data.user,
        methods: body.data.methods,
        // Without a password (or a second factor) the way back is to sign in again (with Google).
        flows: [
          ...(user.passwordHash !== null ? [{ id: 'reauthenticate' }] : []),
          ...((await storage.authenticators.hasActiveTotp(user.id)) ? [{ id: 'mfa_reauthenticate' }] : []),
        ],
      },
      meta: { is_authenticated: true },
    });
    return false;
  }

  return { signedIn, recent };
}
