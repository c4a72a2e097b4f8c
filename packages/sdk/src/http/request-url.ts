import { type QueryParams, toQueryString } from './query-string.js';

/** Where product calls live under the base URL (spec 000 §7). */
export const API_PREFIX = '/api/v1/';

/**
 * `documents/` → `{baseUrl}/api/v1/documents/`; `/_allauth/app/v1/auth/session` → `{baseUrl}/_allauth/…`.
 *
 * Leading slashes on an absolute path collapse to one: with the default same-origin base (`''`), a
 * path such as `//evil.example/x` would otherwise be a protocol-relative URL that leaves the origin.
 */
export function buildRequestUrl(baseUrl: string, path: string, params?: QueryParams): string {
  const base = baseUrl.replace(/\/+$/, '');
  const url = path.startsWith('/') ? `${base}${path.replace(/^\/+/, '/')}` : `${base}${API_PREFIX}${path}`;
  const query = toQueryString(params);
  if (query === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
