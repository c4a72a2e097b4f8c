import * as z from 'zod';
import { AUTH_VALIDATION_TEXTS } from './auth-texts.js';

/**
 * An address as `account/email` takes it (docs/auth.md "E-mail addresses"): trimmed, then an e-mail address of
 * at most 254 characters, checked as the contact form's `email` is (and as the server checks it).
 */
export const emailAddressInputSchema = z
  .string({ error: AUTH_VALIDATION_TEXTS.emailRequired })
  .trim()
  .min(1, AUTH_VALIDATION_TEXTS.emailRequired)
  .pipe(z.email(AUTH_VALIDATION_TEXTS.emailInvalid).max(254, 'Email must be at most 254 characters'));
