/**
 * The product's words for the account pages, in one place so the web app and the CLI say the same thing.
 * Texts quoted by spec 000 are copied exactly (§5 validation, §8 error catalogue); the few it leaves open are
 * marked as ours.
 */

/** Spec 000 §9: the shortest password the client accepts. */
export const PASSWORD_MIN_LENGTH = 8;

/** Spec 000 §5: client-side validation of the sign-up and new-password forms. */
export const AUTH_VALIDATION_TEXTS = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  termsRequired: 'You must agree to the Terms and Conditions',
  /** Ours: the spec names the captcha field but not its text. */
  captchaRequired: 'Please complete the captcha',
} as const;

/** Spec 000 §8 "Sign-in". */
export const SIGN_IN_TEXTS = {
  failed: 'Login failed. Please check your credentials.',
  verifyEmail: 'Please verify your email address before signing in.',
  unexpected: 'An unexpected error occurred. Please try again.',
  initFailed: 'Unable to initialize sign-in. Please try again.',
  /** Ours: a 429 or `too_many_login_attempts`. */
  rateLimited: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  /** Ours: a 409 (this session is already signed in). */
  alreadySignedIn: 'You are already signed in.',
} as const;

/** Spec 000 §8 "Sign-up". */
export const SIGN_UP_TEXTS = {
  failed: 'Sign up failed. Please check your information and try again.',
  /** Ours: a 429. */
  rateLimited: 'Too many sign-up attempts. Please wait a moment and try again.',
} as const;

/** Spec 000 §8 "Verification". */
export const EMAIL_VERIFICATION_TEXTS = {
  invalidLink: 'Invalid verification link',
  alreadyVerified: 'This email has already been verified. You can sign in now.',
  invalidOrExpired: 'This verification link is invalid or has expired.',
  resendFailed: 'Failed to resend verification email. Please try again.',
} as const;

/** Spec 000 §8 "Reset". */
export const PASSWORD_RESET_TEXTS = {
  invalidLink: 'Invalid reset link',
  expired: 'This reset link has expired or is invalid.',
  failed: 'Password reset failed. Please try again.',
} as const;

/** Spec 000 §8 "Third-party sign-in". */
export const PROVIDER_SIGN_IN_TEXTS = {
  failed: 'OAuth sign-in failed. Please try again.',
  callbackError: 'Unexpected error during OAuth callback. Please try again.',
} as const;
