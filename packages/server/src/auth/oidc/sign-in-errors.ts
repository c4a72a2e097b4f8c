/**
 * Why a sign-in with the provider failed. The code travels to the web page as
 * `/account/google/login/callback?error=<code>`; the text is for the logs (the page shows the spec's
 * own words for every code).
 */
export const SOCIAL_SIGN_IN_ERRORS = {
  access_denied: 'the user cancelled at the provider or refused consent',
  provider_error: 'the provider answered the authorization request with an error',
  invalid_state:
    'unknown, reused or tampered state, or a callback in another browser than the one that started',
  expired_state: 'the sign-in was started more than ten minutes ago',
  token_failed: 'the code exchange failed or the ID token did not validate',
  email_unverified: 'the provider did not vouch for a valid e-mail address',
  provider_unavailable: 'the issuer could not be reached',
  not_configured: 'no OpenID Connect client is configured',
  rate_limited: 'too many sign-ins started from this address',
  unexpected: 'an unexpected server error',
} as const;

export type SocialSignInErrorCode = keyof typeof SOCIAL_SIGN_IN_ERRORS;

const MARKER = Symbol.for('planwright.server.SocialSignInError');

/** A sign-in step failed for a reason the browser is told about by `code`. */
export class SocialSignInError extends Error {
  override name = 'SocialSignInError';
  readonly [MARKER] = true;
  constructor(
    readonly code: SocialSignInErrorCode,
    options: { cause?: unknown; detail?: string } = {},
  ) {
    super(options.detail ?? SOCIAL_SIGN_IN_ERRORS[code], { cause: options.cause });
  }

  static isInstance(error: unknown): error is SocialSignInError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}
