import type { PlanwrightClient } from '@planwright/sdk';
import type { CliIo } from '../cli-io.js';
import type { ResolvedServerUrl } from '../config/server-url.js';
import { CliErrorCode, NotSignedInError } from '../errors/cli-error.js';
import { isPersonalToken, TOKEN_ENV, WEB_TOKENS_PLACE } from '../login/personal-token.js';
import { callServer } from '../server/call-server.js';
import { openServerSession, type SessionStore, type TokenSource } from './server-session.js';

/** The server a signed-in command talks to, and a way to call it with the session. */
export interface SignedInSession {
  readonly server: ResolvedServerUrl;
  /** Where the token comes from: `session.json` (`planwright login`), or `PLANWRIGHT_TOKEN`. */
  readonly tokenSource: TokenSource;
  /** Whether the token is a personal access token (`pwt_…`), which the allauth endpoints refuse. */
  readonly personalToken: boolean;
  /** The session's store, for the calls that answer results rather than throwing (allauth's). */
  readonly store: SessionStore;
  /**
   * Runs `call` with a client signed in as the session, and waits until what it changed in the session
   * (`auth.me()` refreshes the stored e-mail and name) is in `session.json`. A 401 or 403 means the session is
   * dead: its token is removed from `session.json` (`PLANWRIGHT_TOKEN` is only forgotten for this run) and the
   * call throws `NotSignedInError` (`session_expired`, exit 3).
   *
   * @throws SessionFileError when `session.json` could not be written.
   */
  call<T>(call: (client: PlanwrightClient) => Promise<T>): Promise<T>;
}

/**
 * Opens the session of the server `--server` (or the environment, or the config) points at, for commands that
 * need a signed-in user: `PLANWRIGHT_TOKEN` when it is set, else the token `planwright login` stored.
 *
 * @throws NotSignedInError (`not_signed_in`) when there is no token for that server; nothing is sent then.
 */
export async function openSignedInSession(
  io: CliIo,
  serverFlag: string | undefined,
): Promise<SignedInSession> {
  const [{ server, store, tokenSource }, sdk] = await Promise.all([
    openServerSession(io, serverFlag, { useTokenEnv: true }),
    import('@planwright/sdk'),
  ]);
  const token = store.getToken();
  if (token === null) {
    throw new NotSignedInError(CliErrorCode.notSignedIn, server.url, `not signed in to ${server.url}`);
  }
  const personalToken = isPersonalToken(token);
  return {
    server,
    tokenSource,
    personalToken,
    store,
    async call(call) {
      try {
        const answer = await callServer(server.url, call, { tokenStore: store });
        await store.flush();
        return answer;
      } catch (error) {
        if (!sdk.AuthRequiredError.isInstance(error)) throw error;
        // The SDK has cleared the token (a 401 or 403 proves it dead); the file follows.
        await store.flush();
        throw sessionEndedError(server.url, tokenSource, personalToken, error);
      }
    },
  };
}

/** Why the server no longer takes the token, in the words of where it came from. */
export function sessionEndedError(
  serverUrl: string,
  tokenSource: TokenSource,
  personalToken: boolean,
  cause: unknown,
): NotSignedInError {
  if (tokenSource === 'env') {
    return new NotSignedInError(
      CliErrorCode.sessionExpired,
      serverUrl,
      `not signed in to ${serverUrl}: the server refused the token in ${TOKEN_ENV} (it has expired or was revoked)`,
      {
        suggestion: `Make a new one with \`planwright tokens create\` (or in ${WEB_TOKENS_PLACE}), or unset ${TOKEN_ENV} to use the sign-in of \`planwright login\`.`,
        cause,
      },
    );
  }
  if (personalToken) {
    return new NotSignedInError(
      CliErrorCode.sessionExpired,
      serverUrl,
      `not signed in to ${serverUrl}: the personal access token has expired or was revoked, so it was removed from this computer`,
      {
        suggestion:
          'Make a new one and pipe it to `planwright login --token-stdin`, or run `planwright login` to sign in with your password.',
        cause,
      },
    );
  }
  return new NotSignedInError(
    CliErrorCode.sessionExpired,
    serverUrl,
    `not signed in to ${serverUrl}: the session has expired or was ended, so its token was removed from this computer`,
    { suggestion: 'Run `planwright login` to sign in again.', cause },
  );
}
