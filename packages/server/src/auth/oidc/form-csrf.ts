import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../../config/config.js';
import { CSRF_COOKIE } from '../request-credentials.js';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function field(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Why a form POST was refused, in the allauth 403 shape's words. */
export type FormCsrfFailure = { code: 'origin_not_allowed' | 'csrf_failed'; message: string };

/**
 * Django's CSRF check for a form POST: a page cannot set headers on a form navigation, so the token
 * comes as the `csrfmiddlewaretoken` field (allauth's headless SPA example sends `csrfToken`; the
 * `X-CSRFToken` header works too) and must equal the `csrftoken` cookie. An Origin, when sent, must be
 * PUBLIC_URL's or the host's the request was sent to, as for the browser client's other calls.
 */
export function checkFormCsrf(request: FastifyRequest, config: ServerConfig): FormCsrfFailure | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const allowed = new Set([new URL(config.publicUrl).origin]);
    const host = request.headers.host;
    if (host) allowed.add(`${config.sessions.secureCookies ? 'https' : 'http'}://${host}`);
    if (!allowed.has(origin)) {
      return {
        code: 'origin_not_allowed',
        message: 'Origin checking failed: this request came from another site.',
      };
    }
  }
  const header = request.headers['x-csrftoken'];
  const token =
    field(request.body, 'csrfmiddlewaretoken') ??
    field(request.body, 'csrfToken') ??
    (typeof header === 'string' ? header : undefined);
  const cookie = request.cookies[CSRF_COOKIE];
  if (!cookie || !token || !sameText(cookie, token)) {
    return { code: 'csrf_failed', message: 'CSRF verification failed. Reload the page and try again.' };
  }
  return undefined;
}
