import { callServer } from '../server/call-server.js';
import type { ServerSession } from '../session/server-session.js';
import { alreadySignedInError } from './login-outcome.js';
import { isPersonalToken } from './personal-token.js';

/**
 * Before a sign-in asks for anything: is the server there, and is this computer already signed in to it? A
 * session token is asked about with `GET auth/session`; a personal access token with `GET app/me/`, since the
 * allauth endpoints answer 410 for one (and the SDK would forget it). A stored token that signs nobody in is
 * dropped.
 *
 * @throws LoginError (`already_signed_in`) when the stored token still works; ServerUnreachableError.
 */
export async function refuseWhenSignedIn({ server, store }: ServerSession): Promise<void> {
  const sdk = await import('@planwright/sdk');
  if (isPersonalToken(store.getToken())) {
    let email: string;
    try {
      email = (await callServer(server.url, (client) => client.auth.me(), { tokenStore: store })).email;
    } catch (error) {
      // A 401 proves it dead, and the SDK has forgotten it already.
      if (sdk.AuthRequiredError.isInstance(error)) return;
      throw error;
    }
    throw alreadySignedInError(server.url, `${email} with a personal access token`);
  }
  const current = await callServer(server.url, (client) => client.auth.session(), { tokenStore: store });
  if (current.kind === 'authenticated') throw alreadySignedInError(server.url, current.user.email);
  // `session_gone` has cleared it already.
  if (current.kind === 'unauthenticated' || current.kind === 'pending') store.clear();
}
