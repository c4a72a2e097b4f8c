/**
 * The sign-up form's e-mail check (spec 000 §5, the SDK's `validateSignup`): something, one `@`, a
 * dotted domain, no spaces. Deliberately loose: the server is the judge; this only catches typos
 * before a password is sent for nothing.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether `text` (already trimmed) looks like an e-mail address. */
export function isEmailAddress(text: string): boolean {
  return EMAIL_PATTERN.test(text);
}
