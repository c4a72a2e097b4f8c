/** Where the web app's Google callback page lives; errors and a missing or foreign `next` land here. */
export const WEB_CALLBACK_PATH = '/account/google/login/callback';
/** The page a sign-in goes to when the form sent no usable `next` (spec 000 §2: next defaults to /dashboard). */
export const DEFAULT_NEXT = `${WEB_CALLBACK_PATH}?next=/dashboard`;

// Control characters and backslashes are how open-redirect filters get fooled (`/\evil.com`, `/%09/evil`).
const UNSAFE = /[\p{Cc}\\]/u;

/**
 * The absolute URL to send the browser to after signing in: `next` when it is a path on PUBLIC_URL's
 * origin (or an absolute URL there) under PUBLIC_URL's path, else the default callback page. Nothing else is accepted: a sign-in must
 * never become an open redirect.
 */
export function redirectTarget(next: string | undefined, publicUrl: string): string {
  const base = new URL(publicUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const fallback = new URL(`${basePath}${DEFAULT_NEXT}`, base.origin).href;
  if (next === undefined || next.length === 0 || next.length > 2048 || UNSAFE.test(next)) return fallback;
  if (!next.startsWith('/') && !/^https?:\/\//i.test(next)) return fallback;
  if (next.startsWith('//')) return fallback;
  let target: URL;
  try {
    target = new URL(next, base.origin);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin || target.username || target.password) return fallback;
  if (basePath && target.pathname !== basePath && !target.pathname.startsWith(`${basePath}/`))
    return fallback;
  return target.href;
}

/** The web page that tells the user a Google sign-in failed, and why (by code). */
export function errorTarget(code: string, publicUrl: string): string {
  const base = new URL(publicUrl);
  const target = new URL(`${base.pathname.replace(/\/+$/, '')}${WEB_CALLBACK_PATH}`, base.origin);
  target.searchParams.set('error', code);
  return target.href;
}
