import * as z from 'zod';

const nullableText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** The current-user record of `GET /api/v1/app/me/` (spec 000 §3, `docs/auth.md` "Other routes"). */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: nullableText,
  timezone: nullableText,
  avatar_url: nullableText,
  /** "First Last", else the e-mail address. */
  get_display_name: z.string(),
  has_verified_email: z.boolean(),
});

/** The signed-in user's profile. */
export type CurrentUser = z.output<typeof currentUserSchema>;

/** What `PUT`/`PATCH app/me/` answers: the saved profile, and whether a changed e-mail was sent a link. */
export const profileUpdateResultSchema = z.object({
  user: currentUserSchema,
  email_verification_sent: z.boolean(),
});

/** The answer to a profile update. */
export type ProfileUpdateResult = z.output<typeof profileUpdateResultSchema>;

/** The profile fields a user may change (spec 000 §7: language and timezone may be `null`). */
export interface ProfileUpdate {
  first_name?: string;
  last_name?: string;
  email?: string;
  language?: string | null;
  timezone?: string | null;
}
