/**
 * The remembered location (spec 000 §2 "Guard"): where a signed-out visitor was going, carried to the
 * sign-in page as `?next=` so it survives the full page load an expired session causes, and where the
 * user lands after signing in (also after a third-party sign-in, whose callback gets the same `next`).
 */

export const SIGN_IN_PATH = '/account/signin';
/** Where a sign-in lands when nothing was remembered (spec 000 §2: the callback's default). */
export const DEFAULT_RETURN_PATH = '/dashboard';
export const RETURN_PARAM = 'next';
/** Where the third-party provider sends the browser back to (spec 000 §2 route table). */
export const PROVIDER_CALLBACK_PATH = '/account/google/login/callback';

// Any absolute URL would do: it only anchors relative paths so the origin can be compared.
const ANCHOR = 'https://planwright.invalid';

/**
 * `value` as a path inside this app, or `fallback`. Refused: anything that leaves the origin
 * (`https://…`, `//host`, `/\host`, which browsers read as `//host`), control characters, and the
 * account pages themselves: returning to `/account/signout` after signing in would sign out again.
 */
export function safeReturnPath(value: string | null | undefined, fallback = DEFAULT_RETURN_PATH): string {
  if (typeof value !== 'string' || !value.startsWith('/') || /[\\\p{Cc}]/u.test(value)) return fallback;
  if (value.startsWith('//')) return fallback;
  let url: URL;
  try {
    url = new URL(value, ANCHOR);
  } catch {
    return fallback;
  }
  if (url.origin !== ANCHOR || url.pathname === '/account' || url.pathname.startsWith('/account/')) {
    return fallback;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The remembered location in a query string (`?next=…`), made safe. */
export function returnPathFrom(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));
}

/** The sign-in page, remembering `location` (a router location or `window.location`). */
export function signInPathFor(location: { pathname: string; search?: string; hash?: string }): string {
  const here = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  const remembered = safeReturnPath(here, '');
  return remembered === ''
    ? SIGN_IN_PATH
    : `${SIGN_IN_PATH}?${RETURN_PARAM}=${encodeURIComponent(remembered)}`;
}

/** The third-party callback URL handed to the provider form, carrying where to land afterwards. */
export function providerCallbackPath(returnPath: string): string {
  return `${PROVIDER_CALLBACK_PATH}?${RETURN_PARAM}=${encodeURIComponent(safeReturnPath(returnPath))}`;
}
