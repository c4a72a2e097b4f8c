import type { PlanwrightClient } from '@planwright/sdk';
import type { CliIo } from '../cli-io.js';
import type { ResolvedServerUrl } from '../config/server-url.js';
import { CliErrorCode, NotSignedInError } from '../errors/cli-error.js';
import { callServer } from '../server/call-server.js';
import { openServerSession } from './server-session.js';

/** The server a signed-in command talks to, and a way to call it with the stored session. */
export interface SignedInSession {
  readonly server: ResolvedServerUrl;
  /**
   * Runs `call` with a client signed in as the stored session, and waits until what it changed in the
   * session (`auth.me()` refreshes the stored e-mail and name) is in `session.json`. A 401 or 403 means
   * the session is dead: its token is removed from `session.json` and the call throws `NotSignedInError`
   * (`session_expired`, exit 3).
   *
   * @throws SessionFileError when `session.json` could not be written.
   */
  call<T>(call: (client: PlanwrightClient) => Promise<T>): Promise<T>;
}

/**
 * Opens the session of the server `--server` (or the environment, or the config) points at, for
 * commands that need a signed-in user.
 *
 * @throws NotSignedInError (`not_signed_in`) when no token is stored for that server; nothing is sent then.
 */
export async function openSignedInSession(
  io: CliIo,
  serverFlag: string | undefined,
): Promise<SignedInSession> {
  const [{ server, store }, sdk] = await Promise.all([
    openServerSession(io, serverFlag),
    import('@planwright/sdk'),
  ]);
  if (store.getToken() === null) {
    throw new NotSignedInError(CliErrorCode.notSignedIn, server.url, `not signed in to ${server.url}`);
  }
  return {
    server,
    async call(call) {
      try {
        const answer = await callServer(server.url, call, { tokenStore: store });
        await store.flush();
        return answer;
      } catch (error) {
        if (!sdk.AuthRequiredError.isInstance(error)) throw error;
        // The SDK has cleared the token (a 401 or 403 proves it dead); the file follows.
        await store.flush();
        throw new NotSignedInError(
          CliErrorCode.sessionExpired,
          server.url,
          `not signed in to ${server.url}: the session has expired or was ended, so its token was removed from this computer`,
          { suggestion: 'Run `planwright login` to sign in again.', cause: error },
        );
      }
    },
  };
}
