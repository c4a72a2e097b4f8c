import * as z from 'zod';

/** `docs/auth.md` "Personal access tokens": a token's name is 1 to 100 characters. */
export const TOKEN_NAME_MAX_LENGTH = 100;

/** How long a personal access token lasts, in days: 90 unless asked, at most 365 (no token lasts for ever). */
export const TOKEN_LIFETIME_DAYS = { default: 90, max: 365 } as const;

/** A new personal access token's settings, as sent. */
export const personalTokenInputSchema = z.object({
  name: z
    .string({ error: 'Name must be text' })
    .trim()
    .min(1, 'Name cannot be empty')
    .max(TOKEN_NAME_MAX_LENGTH, `Name must be at most ${TOKEN_NAME_MAX_LENGTH} characters`)
    .refine((name) => !/[\p{Cc}\p{Cs}]/u.test(name), 'Name cannot hold control characters'),
  expiresInDays: z
    .number({ error: 'expiresInDays must be a number of days' })
    .int('expiresInDays must be a whole number of days')
    .min(1, 'A token lasts at least one day')
    .max(TOKEN_LIFETIME_DAYS.max, `A token lasts at most ${TOKEN_LIFETIME_DAYS.max} days`)
    .optional(),
  /** `read` refuses every change; `write` (the default) may change what the account may. */
  scope: z.enum(['read', 'write'], { error: 'scope must be read or write' }).optional(),
});

/** What `auth.createToken` takes. */
export type PersonalTokenInput = z.input<typeof personalTokenInputSchema>;
