/**
 * Personal access tokens (docs/auth.md "Personal access tokens", docs/cli.md "Personal access tokens"): made for
 * scripts in Profile › Security or with `planwright tokens create`, they sign a script in on `/api/v1/` and the
 * sockets like a session token, but never on the allauth endpoints (those answer 410 for one, and the SDK then
 * forgets it). So whoever holds one asks `GET app/me/` who it is, never `auth/session`.
 *
 * Small and free of imports: command modules (loaded for `--help`) use it.
 */

/** How every personal access token starts (the server's `PERSONAL_TOKEN_PREFIX`). */
export const PERSONAL_TOKEN_PREFIX = 'pwt_';

/** The environment variable whose token every signed-in command uses instead of `session.json`'s. */
export const TOKEN_ENV = 'PLANWRIGHT_TOKEN';

/** The environment variable `tokens create` reads the password from, off a terminal, to confirm the sign-in. */
export const PASSWORD_ENV = 'PLANWRIGHT_PASSWORD';

/** Where Google accounts (and everyone else) make a token in the web app. */
export const WEB_TOKENS_PLACE = 'Profile › Security on the web';

/** Whether `token` is a personal access token rather than the session token of a sign-in. */
export function isPersonalToken(token: string | null | undefined): boolean {
  return typeof token === 'string' && token.startsWith(PERSONAL_TOKEN_PREFIX);
}
