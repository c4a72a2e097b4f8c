/** Spec 000 §9: how long the account pages wait and remember. */

/** After a verified e-mail or a new password, the page moves on to sign-in after this long. */
export const REDIRECT_DELAY_MS = 3_000;
/** "Email sent!" (banner) and the sign-in page's resend notice stay this long. */
export const RESEND_NOTICE_MS = 5_000;
/** A dismissed verification banner stays away this long. */
export const BANNER_DISMISS_MS = 24 * 60 * 60 * 1000;
