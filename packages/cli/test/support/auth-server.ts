import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, startJsonServer, type TestServer } from './http-server.js';

/** An account of the fake server. */
export interface FakeAccount {
  email: string;
  password: string;
  verified?: boolean;
  firstName?: string;
  lastName?: string;
}

/** One request as the fake server saw it, with the session token it carried and its JSON body. */
export interface SeenRequest {
  method: string;
  path: string;
  token: string | undefined;
  body: unknown;
}

/** A canned answer that replaces the fake's own for one endpoint. */
export interface CannedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeAuthServer extends TestServer {
  readonly seen: SeenRequest[];
  /** Live session tokens and whose they are. */
  readonly sessions: Map<string, string>;
  /** Answers to use instead of the fake's own, by `METHOD path` (e.g. `POST /_allauth/app/v1/auth/login`). */
  readonly canned: Map<string, CannedAnswer>;
  /** Signs `email` in directly and returns the token, as if a login had happened before. */
  issueToken(email: string): string;
}

const APP = '/_allauth/app/v1';
const flows = [{ id: 'login' }, { id: 'signup' }];

/**
 * The parts of docs/auth.md the CLI uses (the app client's `auth/session`, `auth/login`, `DELETE
 * auth/session`, and `GET /api/v1/app/me/`), with envelopes the SDK validates. The real server is
 * exercised end to end in tests/integration/cli-auth.test.ts; this one makes every outcome cheap.
 */
export async function startFakeAuthServer(accounts: FakeAccount[]): Promise<FakeAuthServer> {
  const byEmail = new Map(accounts.map((account) => [account.email, account]));
  const ids = new Map(accounts.map((account) => [account.email, randomUUID()]));
  const sessions = new Map<string, string>();
  const seen: SeenRequest[] = [];
  const canned = new Map<string, CannedAnswer>();

  const authUser = (account: FakeAccount) => ({
    id: ids.get(account.email),
    display: displayName(account),
    email: account.email,
    has_usable_password: true,
    has_verified_email: account.verified !== false,
    avatar_url: null,
  });
  const issueToken = (email: string) => {
    const token = `token-${randomUUID()}`;
    sessions.set(token, email);
    return token;
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const token = header(request, 'x-session-token');
    seen.push({ method: request.method ?? '', path, token, body });
    const answer = canned.get(`${request.method} ${path}`);
    if (answer) {
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
      return;
    }
    const signedIn = token === undefined ? undefined : sessions.get(token);
    const account = signedIn === undefined ? undefined : byEmail.get(signedIn);

    if (request.method === 'GET' && path === `${APP}/auth/session`) {
      if (token !== undefined && signedIn === undefined) {
        return sendJson(response, 410, { status: 410, data: { flows }, meta: { is_authenticated: false } });
      }
      if (account) return sendJson(response, 200, authenticated(authUser(account)));
      return sendJson(response, 401, { status: 401, data: { flows }, meta: { is_authenticated: false } });
    }
    if (request.method === 'POST' && path === `${APP}/auth/login`) {
      if (account) return sendJson(response, 409, { status: 409 });
      const { email, password } = (body ?? {}) as { email?: string; password?: string };
      const found = email === undefined ? undefined : byEmail.get(email);
      if (!found || found.password !== password) {
        return sendJson(response, 400, {
          status: 400,
          errors: [
            {
              message: 'The email address and/or password you specified are not correct.',
              code: 'email_password_mismatch',
              param: 'password',
            },
          ],
        });
      }
      const newToken = issueToken(found.email);
      if (found.verified === false) {
        return sendJson(response, 401, {
          status: 401,
          data: { flows: [...flows, { id: 'verify_email', is_pending: true }] },
          meta: { is_authenticated: false, session_token: newToken },
        });
      }
      return sendJson(response, 200, authenticated(authUser(found), newToken));
    }
    if (request.method === 'DELETE' && path === `${APP}/auth/session`) {
      if (token !== undefined) sessions.delete(token);
      return sendJson(response, 401, { status: 401, data: { flows }, meta: { is_authenticated: false } });
    }
    if (request.method === 'GET' && path === '/api/v1/app/me/') {
      if (!account)
        return sendJson(response, 401, { detail: 'Authentication credentials were not provided.' });
      return sendJson(response, 200, {
        id: ids.get(account.email),
        email: account.email,
        first_name: account.firstName ?? '',
        last_name: account.lastName ?? '',
        language: null,
        timezone: null,
        avatar_url: null,
        get_display_name: displayName(account),
        has_verified_email: account.verified !== false,
      });
    }
    sendJson(response, 404, { detail: 'Not found.' });
  };

  const server = await startJsonServer(handle);
  return { ...server, seen, sessions, canned, issueToken };
}

function displayName(account: FakeAccount): string {
  return [account.firstName, account.lastName].filter(Boolean).join(' ') || account.email;
}

function authenticated(user: unknown, sessionToken?: string) {
  return {
    status: 200,
    data: { user, methods: [{ method: 'password', at: 1_700_000_000 }] },
    meta: { is_authenticated: true, ...(sessionToken ? { session_token: sessionToken } : {}) },
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
