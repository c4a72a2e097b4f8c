import { type ContactMessage, contactMessageSchema, type ValidationIssue } from '@planwright/sdk';

/** Spec 000 §8 (Contact). */
export const CONTACT_SUCCESS_TEXT = 'Thank you for your message! We will get back to you soon.';
export const CONTACT_FAILURE_TEXT = 'An error occurred while submitting the form';

export const CONTACT_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactFormValues = Record<ContactField, string>;
export type ContactFieldErrors = Partial<Record<ContactField, string>>;

export const EMPTY_CONTACT_FORM: ContactFormValues = {
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  message: '',
};

export type ContactValidation =
  | { ok: true; message: ContactMessage }
  | { ok: false; errors: ContactFieldErrors };

/**
 * Checks the form with the SDK's `contactMessageSchema` (spec 000 §5): the rules and their wording
 * live there, shared with the server, so the form never disagrees with what the server accepts.
 */
export function validateContactForm(values: ContactFormValues): ContactValidation {
  const result = contactMessageSchema.safeParse(values);
  return result.success
    ? { ok: true, message: result.data }
    : { ok: false, errors: fieldErrors(result.error.issues) };
}

/** The first message for each field, from zod issues (also those of the SDK's `InvalidInputError`). */
export function fieldErrors(issues: readonly ValidationIssue[]): ContactFieldErrors {
  const errors: ContactFieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (isContactField(field)) errors[field] ??= issue.message;
  }
  return errors;
}

function isContactField(value: unknown): value is ContactField {
  return typeof value === 'string' && (CONTACT_FIELDS as readonly string[]).includes(value);
}
