/** The cookie `GET /api/v1/apps/csrf/` sets, readable by scripts (`docs/auth.md` "Other routes"). */
export const CSRF_COOKIE_NAME = 'csrftoken';

/**
 * The value of cookie `name` in a `document.cookie` string, or `null`. Values are percent-decoded when they
 * can be (a malformed escape is kept as it is rather than thrown).
 */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * The default CSRF token source: the `csrftoken` cookie of the page, read when called (never at import, so
 * the SDK loads in Node). Reading `document.cookie` throws a SecurityError in sandboxed frames: no token then.
 */
export function csrfTokenFromDocumentCookie(): string | null {
  try {
    const doc = (globalThis as { document?: { cookie?: unknown } }).document;
    const cookie = doc?.cookie;
    const value = typeof cookie === 'string' ? readCookie(cookie, CSRF_COOKIE_NAME) : null;
    return value === '' ? null : value;
  } catch {
    return null;
  }
}
