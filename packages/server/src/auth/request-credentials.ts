import { timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import type { AuthClient, SessionCredentials } from './session-service.js';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The session token a request carries for `client`, and who sent it. */
export function readCredentials(request: FastifyRequest, client: AuthClient): SessionCredentials {
  const header = request.headers['x-session-token'];
  const token =
    client === 'app' ? (typeof header === 'string' ? header : undefined) : request.cookies[SESSION_COOKIE];
  const userAgent = request.headers['user-agent'];
  return {
    client,
    token: token && token.length <= 256 ? token : undefined,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : '',
  };
}

export function setSessionCookie(reply: FastifyReply, token: string, config: ServerConfig): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.sessions.secureCookies,
    maxAge: Math.floor(config.sessions.maxAgeMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: ServerConfig): void {
  void reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.sessions.secureCookies,
  });
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The origins a browser request may come from: PUBLIC_URL's, and the host it was sent to. */
export function allowedOrigins(request: FastifyRequest, config: ServerConfig): Set<string> {
  const origins = new Set([new URL(config.publicUrl).origin]);
  const host = request.headers.host;
  if (host) origins.add(`${config.sessions.secureCookies ? 'https' : 'http'}://${host}`);
  return origins;
}

function forbidden(reply: FastifyReply, code: string, message: string) {
  return reply.status(403).send({ status: 403, errors: [{ message, code }] });
}

/**
 * The browser client's guard on unsafe methods: the Origin, when sent, must be ours, and the
 * X-CSRFToken header must equal the `csrftoken` cookie (double submit), as Django checks them.
 */
export function checkBrowserRequest(config: ServerConfig): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins(request, config).has(origin)) {
      return forbidden(
        reply,
        'origin_not_allowed',
        'Origin checking failed: this request came from another site.',
      );
    }
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers['x-csrftoken'];
    if (!cookie || typeof header !== 'string' || !sameText(cookie, header)) {
      return forbidden(reply, 'csrf_failed', 'CSRF verification failed. Reload the page and try again.');
    }
  };
}
