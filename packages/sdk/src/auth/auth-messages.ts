import type {
  AuthIssue,
  EmailVerificationInfoCheck,
  InvalidResult,
  LoginResult,
  PasswordResetInfoCheck,
  ResetPasswordResult,
  SignupResult,
  VerifyEmailResult,
} from './auth-result.js';
import {
  AUTH_VALIDATION_TEXTS,
  EMAIL_VERIFICATION_TEXTS,
  PASSWORD_RESET_TEXTS,
  SIGN_IN_TEXTS,
  SIGN_UP_TEXTS,
} from './auth-texts.js';

/**
 * The server's sign-up (and new-password) error codes and what the person is told (spec 000 §5, whose exact
 * wording is not given; `docs/auth.md` adds `password_too_long`). `required` is worded per field; see
 * {@link signupErrorMessages}.
 */
export const SIGNUP_ERROR_MESSAGES = {
  password_too_common: 'This password is too common',
  password_too_short: 'Password must be at least 8 characters',
  password_too_similar: 'Password is too similar to your email address',
  password_entirely_numeric: 'Password cannot be entirely numeric',
  password_too_long: 'Password must be at most 4096 characters',
  email_already_exists: 'An account with this email already exists',
  invalid_email: 'Please enter a valid email address',
  required: 'This field is required',
  invalid_captcha: 'Captcha verification failed. Please try again',
  captcha_timeout: 'The captcha has expired. Please complete it again',
} as const;

/** A code of {@link SIGNUP_ERROR_MESSAGES}. */
export type SignupErrorCode = keyof typeof SIGNUP_ERROR_MESSAGES;

/** The sign-up form's fields that show their own message; `captcha` takes the `turnstile_token` errors. */
export type SignupMessageField = 'email' | 'password' | 'terms_agreement' | 'captcha';

/** What the sign-up form shows after a refused sign-up. */
export interface SignupErrorMessages {
  /** One message per field that has errors. */
  fields: Partial<Record<SignupMessageField, string>>;
  /** Everything not about those fields, joined; the spec's fallback when nothing else explains the failure. */
  general: string | null;
}

const FIELD_OF_PARAM: Readonly<Record<string, SignupMessageField>> = {
  email: 'email',
  password: 'password',
  terms_agreement: 'terms_agreement',
  turnstile_token: 'captcha',
};

const REQUIRED_TEXT_OF_PARAM: Readonly<Record<string, string>> = {
  email: AUTH_VALIDATION_TEXTS.emailRequired,
  password: AUTH_VALIDATION_TEXTS.passwordRequired,
  terms_agreement: AUTH_VALIDATION_TEXTS.termsRequired,
  turnstile_token: AUTH_VALIDATION_TEXTS.captchaRequired,
};

/** Own keys only: a server code such as `constructor` must not find `Object.prototype.constructor`. */
function lookup<V>(table: Readonly<Record<string, V>>, key: string | undefined): V | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The table's words for a code, else the server's own message, else nothing. */
function messageFor(issue: AuthIssue, param?: string): string | undefined {
  if (issue.code === 'required') {
    const required = lookup(REQUIRED_TEXT_OF_PARAM, param);
    if (required !== undefined) return required;
  }
  const mapped = lookup<string>(SIGNUP_ERROR_MESSAGES, issue.code);
  if (mapped !== undefined) return mapped;
  const fromServer = issue.message.trim();
  return fromServer === '' ? undefined : fromServer;
}

/** One line from several messages: duplicates dropped, sentences closed so they read one after another. */
function joinMessages(messages: readonly string[]): string | null {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? null;
  return unique.map((message) => (/[.!?]$/.test(message) ? message : `${message}.`)).join(' ');
}

function invalidToMessages(result: InvalidResult): SignupErrorMessages {
  const byField = new Map<SignupMessageField, string[]>();
  const general: string[] = [];
  for (const [param, issues] of Object.entries(result.fieldErrors)) {
    const field = lookup(FIELD_OF_PARAM, param);
    for (const issue of issues) {
      const message = messageFor(issue, param);
      if (message === undefined) continue;
      if (field === undefined) general.push(message);
      else byField.set(field, [...(byField.get(field) ?? []), message]);
    }
  }
  for (const issue of result.formErrors) {
    const message = messageFor(issue);
    if (message !== undefined) general.push(message);
  }
  const fields: Partial<Record<SignupMessageField, string>> = {};
  for (const [field, messages] of byField) fields[field] = joinMessages(messages) ?? SIGN_UP_TEXTS.failed;
  const joined = joinMessages(general);
  return { fields, general: joined ?? (byField.size === 0 ? SIGN_UP_TEXTS.failed : null) };
}

/**
 * What to show for a sign-up result (spec 000 §5): errors go to the field named by their `param`
 * (`turnstile_token` to `captcha`), every other error is joined into `general`, and when nothing explains
 * the failure `general` is `Sign up failed. Please check your information and try again.`. A success
 * (`pending`, `authenticated`) gives no messages.
 */
export function signupErrorMessages(result: SignupResult | InvalidResult): SignupErrorMessages {
  switch (result.kind) {
    case 'pending':
    case 'authenticated':
      return { fields: {}, general: null };
    case 'invalid':
      return invalidToMessages(result);
    case 'rate_limited':
      return { fields: {}, general: SIGN_UP_TEXTS.rateLimited };
    default:
      return { fields: {}, general: SIGN_UP_TEXTS.failed };
  }
}

function allIssues(result: InvalidResult): Array<AuthIssue & { param?: string }> {
  return [
    ...Object.entries(result.fieldErrors).flatMap(([param, issues]) =>
      issues.map((issue) => ({ ...issue, param })),
    ),
    ...result.formErrors,
  ];
}

/**
 * The sign-in page's message for a login result (spec 000 §8 "Sign-in"), or `null` on success. A refused
 * login shows the server's message when it sent one (`Login failed. Please check your credentials.`
 * otherwise); an unverified address shows `Please verify your email address before signing in.`.
 */
export function signInErrorMessage(result: LoginResult): string | null {
  switch (result.kind) {
    case 'authenticated':
      return null;
    case 'pending':
      return SIGN_IN_TEXTS.verifyEmail;
    case 'invalid': {
      const fromServer = allIssues(result)
        .map((issue) => issue.message.trim())
        .find((message) => message !== '');
      return fromServer ?? SIGN_IN_TEXTS.failed;
    }
    case 'rate_limited':
      return SIGN_IN_TEXTS.rateLimited;
    case 'conflict':
      return SIGN_IN_TEXTS.alreadySignedIn;
    case 'forbidden':
      return SIGN_IN_TEXTS.initFailed;
    case 'session_gone':
      return SIGN_IN_TEXTS.unexpected;
  }
}

/**
 * The verification page's message (spec 000 §8 "Verification"), or `null` when the key is good or was
 * verified (`unauthenticated` after verifying means "verified, now sign in"). `already_verified` gives
 * `This email has already been verified. You can sign in now.`; any other refused key
 * `This verification link is invalid or has expired.`.
 */
export function emailVerificationErrorMessage(
  result: EmailVerificationInfoCheck | VerifyEmailResult,
): string | null {
  switch (result.kind) {
    case 'valid_key':
    case 'authenticated':
    case 'unauthenticated':
      return null;
    case 'invalid':
      return allIssues(result).some((issue) => issue.code === 'already_verified')
        ? EMAIL_VERIFICATION_TEXTS.alreadyVerified
        : EMAIL_VERIFICATION_TEXTS.invalidOrExpired;
    default:
      return SIGN_IN_TEXTS.unexpected;
  }
}

/**
 * The new-password page's message (spec 000 §8 "Reset"), or `null` on success. A refused key gives
 * `This reset link has expired or is invalid.`; refused passwords give the messages of
 * {@link SIGNUP_ERROR_MESSAGES}; anything else `Password reset failed. Please try again.`.
 */
export function passwordResetErrorMessage(
  result: PasswordResetInfoCheck | ResetPasswordResult,
): string | null {
  switch (result.kind) {
    case 'valid_key':
    case 'authenticated':
    case 'unauthenticated':
      return null;
    case 'invalid': {
      const issues = allIssues(result);
      if (issues.some((issue) => issue.param === 'key' || issue.code === 'token_invalid')) {
        return PASSWORD_RESET_TEXTS.expired;
      }
      const passwordMessages = issues
        .filter((issue) => issue.param === 'password')
        .map((issue) => messageFor(issue, 'password'))
        .filter((message) => message !== undefined);
      return joinMessages(passwordMessages) ?? PASSWORD_RESET_TEXTS.failed;
    }
    default:
      return PASSWORD_RESET_TEXTS.failed;
  }
}
