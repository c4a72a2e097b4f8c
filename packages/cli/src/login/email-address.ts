import type { Zod } from '../options/parse-command-input.js';

/**
 * The sign-up form's e-mail check (spec 000 §5, the SDK's `validateSignup`): something, one `@`, a
 * dotted domain, no spaces. Deliberately loose: the server is the judge; this only catches typos
 * before a password (or an invitation) is sent for nothing.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether `text` (already trimmed) looks like an e-mail address. */
export function isEmailAddress(text: string): boolean {
  return EMAIL_PATTERN.test(text);
}

/** An `--email <address>` option: trimmed, and refused naming the value when it does not look like one. */
export function emailAddressSchema(z: Zod) {
  return z.string().transform((raw, context) => {
    const email = raw.trim();
    if (!isEmailAddress(email)) {
      context.addIssue({ code: 'custom', message: `"${raw}" is not an e-mail address`, input: raw });
      return z.NEVER;
    }
    return email;
  });
}
