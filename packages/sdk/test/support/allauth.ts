import type { ServerResponse } from 'node:http';
import { type RecordedRequest, type RecordingServer, reply } from './recording-server.js';

/** The envelopes of docs/auth.md, built exactly as the contract writes them. */

export const ada = {
  id: '0b9a3c52-8d53-4f4e-9a38-2f1de6f0a9b1',
  display: 'Ada Lovelace',
  email: 'ada@example.com',
  has_usable_password: true,
  has_verified_email: true,
  avatar_url: 'https://img.example/ada.png',
};

export const passwordMethod = { method: 'password', at: 1_767_225_600, email: ada.email };

export const baseFlows = [
  { id: 'login' },
  { id: 'signup' },
  { id: 'provider_redirect', providers: ['google'] },
];

export function authenticated(token?: string, user: Record<string, unknown> = ada) {
  return {
    status: 200,
    data: { user, methods: [passwordMethod] },
    meta: { is_authenticated: true, ...(token === undefined ? {} : { session_token: token }) },
  };
}

export function unauthenticated(options: { pending?: boolean; token?: string; status?: 401 | 410 } = {}) {
  return {
    status: options.status ?? 401,
    data: {
      flows: [...baseFlows, ...(options.pending ? [{ id: 'verify_email', is_pending: true }] : [])],
    },
    meta: {
      is_authenticated: false,
      ...(options.token === undefined ? {} : { session_token: options.token }),
    },
  };
}

export const sessionGone = { status: 410, data: { flows: baseFlows }, meta: { is_authenticated: false } };

export function errors(...items: Array<{ message: string; code: string; param?: string }>) {
  return { status: 400, errors: items };
}

export const configData = {
  account: {
    login_methods: ['email'],
    is_open_for_signup: true,
    email_verification_by_code_enabled: false,
    login_by_code_enabled: false,
    password_reset_by_code_enabled: false,
  },
  socialaccount: { providers: [{ id: 'google', name: 'Google', flows: ['provider_redirect'] }] },
};

export const profile = {
  id: ada.id,
  email: ada.email,
  first_name: 'Ada',
  last_name: 'Lovelace',
  language: 'en',
  timezone: 'Europe/London',
  avatar_url: ada.avatar_url,
  get_display_name: 'Ada Lovelace',
  has_verified_email: true,
};

/** What a well-behaved allauth server answers to `METHOD /path` (the client part of the path generalised). */
function happyAnswer(route: string): [status: number, body: unknown, headers?: Record<string, string>] {
  switch (route) {
    case 'GET /_allauth/{client}/v1/config':
      return [200, { status: 200, data: configData }];
    case 'POST /_allauth/{client}/v1/auth/login':
      return [200, authenticated('new-token')];
    case 'POST /_allauth/{client}/v1/auth/signup':
      return [401, unauthenticated({ pending: true, token: 'pending-token' })];
    case 'GET /_allauth/{client}/v1/auth/session':
      return [200, authenticated()];
    case 'DELETE /_allauth/{client}/v1/auth/session':
      return [401, unauthenticated()];
    case 'GET /_allauth/{client}/v1/auth/email/verify':
      return [200, { status: 200, data: { email: ada.email, user: ada }, meta: { is_authenticating: true } }];
    case 'POST /_allauth/{client}/v1/auth/email/verify':
      return [200, authenticated('verified-token')];
    case 'POST /_allauth/{client}/v1/auth/password/request':
      return [200, { status: 200 }];
    case 'GET /_allauth/{client}/v1/auth/password/reset':
      return [200, { status: 200, data: { user: ada } }];
    case 'POST /_allauth/{client}/v1/auth/password/reset':
      return [401, unauthenticated()];
    case 'GET /api/v1/apps/csrf/':
      return [200, { csrftoken: 'csrf-from-server' }, { 'set-cookie': 'csrftoken=csrf-from-server; Path=/' }];
    case 'POST /api/v1/users/resend-verification/':
      return [200, { detail: 'If the address needs it, a verification e-mail is on its way.' }];
    case 'GET /api/v1/app/me/':
      return [200, profile];
    case 'PATCH /api/v1/app/me/':
      return [200, { user: profile, email_verification_sent: false }];
    default:
      return [404, { detail: 'Not found.', code: 'not_found' }];
  }
}

/** A complete, well-behaved allauth server: every call answers its documented success. */
export function happyAllauth(request: RecordedRequest, response: ServerResponse): void {
  const path = new URL(request.url, 'http://x').pathname;
  const route = `${request.method} ${path.replace(/^\/_allauth\/(app|browser)\/v1\//, '/_allauth/{client}/v1/')}`;
  const [status, body, headers] = happyAnswer(route);
  reply(response, status, body, headers);
}

/** Answers every request with this status, body and headers. */
export function answer(
  server: RecordingServer,
  status: number,
  body?: unknown,
  headers?: Record<string, string>,
) {
  server.handle((_request, response) => reply(response, status, body, headers));
}

/** The JSON body of a recorded request, or `undefined` when it had none. */
export function jsonBody(request: RecordedRequest): unknown {
  return request.body.length === 0 ? undefined : JSON.parse(request.body.toString('utf8'));
}

/** Awaits a promise that must reject, and returns what it rejected with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}
