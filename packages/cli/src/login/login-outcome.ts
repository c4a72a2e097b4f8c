import {
  type AuthUser,
  type LoginResult,
  type MfaResult,
  SIGN_IN_TEXTS,
  signInErrorMessage,
} from '@planwright/sdk';
import { CliErrorCode, LoginError } from '../errors/cli-error.js';

/**
 * Said under every refused e-mail and password, whatever the address: an account made with Google has no
 * password to sign in with, but must not be told apart from a wrong password (nor an unknown address).
 */
export const GOOGLE_ACCOUNT_HINT =
  'Signed up with Google? Make a personal access token in Profile › Security on the web, then `planwright login --token-stdin`.';

/** "Ada Lovelace <ada@example.com>", or just the address when the name is only the address. */
export function describeUser(user: { email: string; name?: string | null }): string {
  const name = user.name?.trim() ?? '';
  return name === '' || name === user.email ? user.email : `${name} <${user.email}>`;
}

/** The refusal for an `auth/session` or `auth/login` answer saying this session is already signed in. */
export function alreadySignedInError(serverUrl: string, email: string | null): LoginError {
  return new LoginError(
    CliErrorCode.alreadySignedIn,
    `already signed in to ${serverUrl}${email ? ` as ${email}` : ''}`,
    { suggestion: 'Run `planwright logout` first to sign in as someone else.' },
  );
}

/** "42 seconds", "1 minute 5 seconds": a wait the server asked for, in words. */
export function formatWait(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const part = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (minutes === 0) return part(rest, 'second');
  return rest === 0 ? part(minutes, 'minute') : `${part(minutes, 'minute')} ${part(rest, 'second')}`;
}

/**
 * The user a login signed in, or the {@link LoginError} that explains why it did not, in the words
 * of spec 000 §8 (the SDK's `signInErrorMessage` and `SIGN_IN_TEXTS`) plus what to do next.
 *
 * @param email the address that was typed (a pending verification names it).
 * @param storedEmail who the stored session belongs to, for a 409.
 */
export function loginOutcome(
  result: LoginResult | MfaResult,
  context: { serverUrl: string; email: string; storedEmail: string | null },
): { ok: true; user: AuthUser } | { ok: false; error: LoginError } {
  const refuse = (...args: ConstructorParameters<typeof LoginError>) => ({
    ok: false as const,
    error: new LoginError(...args),
  });
  switch (result.kind) {
    case 'authenticated':
      return { ok: true, user: result.user };
    case 'pending':
      if (result.flow === 'mfa_authenticate') {
        return refuse(
          CliErrorCode.loginFailed,
          'This account asks for a two-factor code after the password.',
          {
            suggestion:
              'Run `planwright login` on a terminal to type the code, or sign in a script with a personal access token: `planwright login --token-stdin`.',
          },
        );
      }
      return refuse(CliErrorCode.emailNotVerified, SIGN_IN_TEXTS.verifyEmail, {
        suggestion: `Check your inbox: a new verification link is on its way to ${context.email}. Open it, then run \`planwright login\` again.`,
      });
    case 'unauthenticated':
      return refuse(CliErrorCode.loginFailed, 'This sign-in expired before the code was given.', {
        suggestion: 'Run `planwright login` again.',
      });
    case 'invalid': {
      const issues = [...Object.values(result.fieldErrors).flat(), ...result.formErrors];
      if (issues.some((issue) => issue.code === 'incorrect_code')) {
        return refuse(CliErrorCode.loginFailed, 'Incorrect two-factor code.', {
          suggestion:
            'Check the code in your authenticator app (or use a recovery code), then run `planwright login` again.',
        });
      }
      const tooMany = issues.some((issue) => issue.code === 'too_many_login_attempts');
      const mismatch = issues.some((issue) => issue.code === 'email_password_mismatch');
      return tooMany
        ? refuse(CliErrorCode.tooManyLoginAttempts, signInErrorMessage(result) ?? SIGN_IN_TEXTS.rateLimited, {
            suggestion: 'Wait a few minutes before the next try, or reset your password in the web app.',
          })
        : refuse(CliErrorCode.loginFailed, signInErrorMessage(result) ?? SIGN_IN_TEXTS.failed, {
            suggestion: `Check the e-mail address and the password, then try again.${mismatch ? ` ${GOOGLE_ACCOUNT_HINT}` : ''}`,
          });
    }
    case 'rate_limited':
      // The SDK's text says "a few minutes"; when the server said how long, say that instead.
      return refuse(
        CliErrorCode.rateLimited,
        result.retryAfterSeconds === undefined
          ? SIGN_IN_TEXTS.rateLimited
          : `Too many sign-in attempts. Please wait ${formatWait(result.retryAfterSeconds)} and try again.`,
      );
    case 'conflict':
      return { ok: false, error: alreadySignedInError(context.serverUrl, context.storedEmail) };
    case 'forbidden':
    case 'session_gone':
      return refuse(CliErrorCode.loginFailed, signInErrorMessage(result) ?? SIGN_IN_TEXTS.unexpected);
  }
}
