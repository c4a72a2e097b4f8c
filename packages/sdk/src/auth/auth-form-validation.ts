import { AUTH_VALIDATION_TEXTS, PASSWORD_MIN_LENGTH } from './auth-texts.js';

/** The sign-up form as typed (spec 000 §2 "Sign up"). */
export interface SignupForm {
  email: string;
  password: string;
  confirm_password: string;
  terms_agreement: boolean;
}

/** The new-password form as typed (spec 000 §2 "Password reset"). */
export interface PasswordResetForm {
  password: string;
  confirm_password: string;
}

/** The outcome of a form check: `ok` when `errors` is empty; at most one message per field. */
export interface FormValidation<F extends string> {
  ok: boolean;
  errors: Partial<Record<F, string>>;
}

/**
 * "Must match an address pattern" (spec 000 §5): something, one `@`, a dotted domain, no spaces. Deliberately
 * loose: the server is the judge (`invalid_email`); the client only catches typos without refusing an
 * address the server would take.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lengths count code points, as the server does (`docs/auth.md` "Passwords"): an emoji is one character. */
function codePoints(value: string): number {
  return [...value].length;
}

/**
 * The e-mail check of spec 000 §5 on its own (sign-in, reset request, resend): `Email is required` or
 * `Please enter a valid email address`, else undefined. The address is trimmed for the check.
 */
export function emailAddressError(email: string): string | undefined {
  const trimmed = email.trim();
  if (trimmed === '') return AUTH_VALIDATION_TEXTS.emailRequired;
  if (!EMAIL_PATTERN.test(trimmed)) return AUTH_VALIDATION_TEXTS.emailInvalid;
  return undefined;
}

function passwordError(password: string): string | undefined {
  if (password === '') return AUTH_VALIDATION_TEXTS.passwordRequired;
  if (codePoints(password) < PASSWORD_MIN_LENGTH) return AUTH_VALIDATION_TEXTS.passwordTooShort;
  return undefined;
}

function result<F extends string>(errors: Partial<Record<F, string>>): FormValidation<F> {
  return { ok: Object.keys(errors).length === 0, errors };
}

/**
 * Spec 000 §5 sign-up checks, with the spec's texts: `Email is required`, `Please enter a valid email
 * address`, `Password is required`, `Password must be at least 8 characters`, `Passwords do not match`,
 * `You must agree to the Terms and Conditions`. The e-mail is trimmed for the check; passwords are not.
 */
export function validateSignup(form: SignupForm): FormValidation<keyof SignupForm> {
  const errors: Partial<Record<keyof SignupForm, string>> = {};
  const email = emailAddressError(form.email);
  if (email !== undefined) errors.email = email;
  const password = passwordError(form.password);
  if (password !== undefined) errors.password = password;
  if (form.confirm_password !== form.password)
    errors.confirm_password = AUTH_VALIDATION_TEXTS.passwordsDoNotMatch;
  if (form.terms_agreement !== true) errors.terms_agreement = AUTH_VALIDATION_TEXTS.termsRequired;
  return result(errors);
}

/** Spec 000 §5 new-password checks: at least 8 characters, equal to the confirmation. */
export function validatePasswordReset(form: PasswordResetForm): FormValidation<keyof PasswordResetForm> {
  const errors: Partial<Record<keyof PasswordResetForm, string>> = {};
  const password = passwordError(form.password);
  if (password !== undefined) errors.password = password;
  if (form.confirm_password !== form.password)
    errors.confirm_password = AUTH_VALIDATION_TEXTS.passwordsDoNotMatch;
  return result(errors);
}
