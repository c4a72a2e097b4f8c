import * as z from 'zod';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';

/**
 * Text a person typed may hold any character except the ones that corrupt storage or display: C0/C1
 * control characters (NUL alone makes PostgreSQL reject the row) and unpaired UTF-16 surrogates
 * (not valid Unicode, replaced by U+FFFD on the way to UTF-8). `\p{Cs}` with the `u` flag matches only
 * unpaired surrogates, since paired ones form a single code point.
 */
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]/u;
/** The same, allowing tab and line breaks (a message has paragraphs). */
const CONTROL_EXCEPT_WHITESPACE_OR_LONE_SURROGATE = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

const NO_CONTROL = 'Must not contain control characters';

/** "First name is required" when the field is missing, rather than zod's "expected string, received undefined". */
function text(label: string) {
  return z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`,
  });
}

function personName(label: string) {
  return text(label)
    .trim()
    .min(1, `${label} is required`)
    .max(150, `${label} must be at most 150 characters`)
    .refine((value) => !CONTROL_OR_LONE_SURROGATE.test(value), NO_CONTROL);
}

/**
 * The contact form's payload (spec 000 §2 /contact, §3, §5): first and last name, e-mail and message
 * required, phone optional (absent, `null` or `''`). Shared with the server, which validates the same
 * body with it. Output is trimmed, and `phone` is always a string (`''` when not given). Lengths count
 * Unicode code points (zod's rule), so an emoji is one character, as a person would count it.
 */
export const contactMessageSchema = z.object({
  first_name: personName('First name'),
  last_name: personName('Last name'),
  email: text('Email')
    .trim()
    .min(1, 'Email is required')
    .pipe(z.email('Please enter a valid email address').max(254, 'Email must be at most 254 characters')),
  phone: text('Phone')
    .trim()
    .max(50, 'Phone must be at most 50 characters')
    .refine((value) => !CONTROL_OR_LONE_SURROGATE.test(value), NO_CONTROL)
    .nullish()
    .transform((value) => value ?? ''),
  message: text('Message')
    .trim()
    .min(1, 'Message is required')
    .max(10_000, 'Message must be at most 10,000 characters')
    .refine((value) => !CONTROL_EXCEPT_WHITESPACE_OR_LONE_SURROGATE.test(value), NO_CONTROL),
});

/** A contact message as a form supplies it (`phone` may be left out). */
export type ContactMessageInput = z.input<typeof contactMessageSchema>;
/** A contact message after validation: trimmed, `phone` always present. */
export type ContactMessage = z.output<typeof contactMessageSchema>;

/** The contact form's call. */
export interface ContactResource {
  /**
   * Validates and sends a contact message (`POST apps/contact/`, without the session token).
   * Throws {@link InvalidInputError} before sending anything when a field is invalid.
   */
  submit(message: ContactMessageInput, options?: CallOptions): Promise<void>;
}

/** The contact resource over a request helper. */
export function createContactResource(http: HttpClient): ContactResource {
  return {
    async submit(message, options = {}) {
      const parsed = contactMessageSchema.safeParse(message);
      if (!parsed.success) {
        throw new InvalidInputError({
          issues: parsed.error.issues,
          subject: 'contact message',
          cause: parsed.error,
        });
      }
      await http.post('apps/contact/', parsed.data, { auth: false, signal: options.signal });
    },
  };
}
