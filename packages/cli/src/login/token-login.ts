import type { CurrentUser } from '@planwright/sdk';
import type { CliIo } from '../cli-io.js';
import { CliErrorCode, LoginError, UsageError } from '../errors/cli-error.js';
import { callServer } from '../server/call-server.js';
import type { ServerSession } from '../session/server-session.js';
import { refuseWhenSignedIn } from './current-session.js';
import { PERSONAL_TOKEN_PREFIX, WEB_TOKENS_PLACE } from './personal-token.js';
import { readSecretFromStdin } from './read-password.js';

export const TOKEN_STDIN_SUGGESTION =
  'Pipe the token in, e.g. `printf %s "$TOKEN" | planwright login --token-stdin`, or set PLANWRIGHT_TOKEN instead.';

/** `pwt_` and base64url: what the server hands out (spaces or a second line around it are not part of it). */
const TOKEN_SHAPE = new RegExp(`^${PERSONAL_TOKEN_PREFIX}[A-Za-z0-9_-]+$`);

/**
 * Reads the personal access token for `login --token-stdin`, as `--password-stdin` reads a password, then trims
 * it (a token has no spaces, and a copy and paste may add some).
 *
 * @throws UsageError when standard input is a terminal (the token would be echoed), missing, empty or does not
 *   hold a token. The message never quotes it.
 */
export async function readTokenFromStdin(io: CliIo): Promise<string> {
  if (io.stdin?.isTTY === true) {
    throw new UsageError('--token-stdin reads a piped token, but standard input is a terminal', {
      suggestion: TOKEN_STDIN_SUGGESTION,
    });
  }
  const secret = await readSecretFromStdin(io.stdin, {
    option: '--token-stdin',
    what: 'the token',
    suggestion: TOKEN_STDIN_SUGGESTION,
  });
  const token = secret.trim();
  if (!TOKEN_SHAPE.test(token)) {
    throw new UsageError(
      `--token-stdin: standard input does not hold a personal access token (one line, starting with ${PERSONAL_TOKEN_PREFIX})`,
      { suggestion: `Make one in ${WEB_TOKENS_PLACE}, or with \`planwright tokens create\`.` },
    );
  }
  return token;
}

/**
 * Signs this computer in to the server with a personal access token: checks it with `GET app/me/` (which takes
 * tokens of every account, one made with Google too) and keeps it in `session.json` as a password login keeps
 * its session token. Nothing is written unless the server takes it.
 *
 * @throws LoginError `already_signed_in` when the stored session still works, `login_failed` when the server
 *   refuses the token; ServerUnreachableError; SessionFileError when the token cannot be saved.
 */
export async function signInWithToken(session: ServerSession, token: string): Promise<CurrentUser> {
  await refuseWhenSignedIn(session);
  const sdk = await import('@planwright/sdk');
  // Asked in memory first: a refused token never touches the file.
  const checking = new sdk.MemoryTokenStore({ token });
  let user: CurrentUser;
  try {
    user = await callServer(session.server.url, (client) => client.auth.me(), { tokenStore: checking });
  } catch (error) {
    if (!sdk.AuthRequiredError.isInstance(error)) throw error;
    throw new LoginError(
      CliErrorCode.loginFailed,
      `the server at ${session.server.url} refused the personal access token: it is unknown, has expired or was revoked`,
      {
        suggestion: `Make a new one in ${WEB_TOKENS_PLACE} (or with \`planwright tokens create\`), then pipe it in again.`,
        cause: error,
      },
    );
  }
  const { email, name, avatarUrl } = checking.getSnapshot();
  session.store.setSession({ token, email, name, avatarUrl });
  await session.store.flush();
  return user;
}
