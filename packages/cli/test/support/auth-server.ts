import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PersonalToken } from '@planwright/sdk';
import { sendJson, startJsonServer, type TestServer } from './http-server.js';

/** An account of the fake server. */
export interface FakeAccount {
  email: string;
  /** `null`: an account made with Google, which has no password. */
  password: string | null;
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
  /** Personal access tokens (`pwt_…`) by token: they work on `/api/v1/`, and the allauth endpoints answer 410. */
  readonly personalTokens: Map<string, FakePersonalToken>;
  /** Makes a personal access token for `email`, as Profile › Security would, and returns it. */
  issuePersonalToken(
    email: string,
    settings?: Partial<Pick<PersonalToken, 'name' | 'scope'>> & { days?: number },
  ): string;
  /** Session tokens whose sign-in is older than 5 minutes: making a token asks for the password first. */
  readonly stale: Set<string>;
}

/** A personal access token as the fake keeps it: what its owner lists, and whose it is. */
export interface FakePersonalToken extends PersonalToken {
  email: string;
}

/** The fake's clock for tokens, in unix seconds: `2026-11-29 10:00 UTC`. */
export const FAKE_NOW_SECONDS = Date.UTC(2026, 10, 29, 10) / 1000;

const APP = '/_allauth/app/v1';
const flows = [{ id: 'login' }, { id: 'signup' }];

/**
 * The parts of docs/auth.md the CLI uses (the app client's `auth/session`, `auth/login`, `DELETE
 * auth/session`, `auth/reauthenticate`, `account/tokens`, and `GET /api/v1/app/me/`), with envelopes the
 * SDK validates. The real server is exercised end to end in tests/integration/cli-auth.test.ts and
 * cli-tokens.test.ts; this one makes every outcome cheap.
 */
export async function startFakeAuthServer(accounts: FakeAccount[]): Promise<FakeAuthServer> {
  const byEmail = new Map(accounts.map((account) => [account.email, account]));
  const ids = new Map(accounts.map((account) => [account.email, randomUUID()]));
  const sessions = new Map<string, string>();
  const seen: SeenRequest[] = [];
  const canned = new Map<string, CannedAnswer>();
  const personalTokens = new Map<string, FakePersonalToken>();
  const stale = new Set<string>();
  let tokenIds = 0;

  const authUser = (account: FakeAccount) => ({
    id: ids.get(account.email),
    display: displayName(account),
    email: account.email,
    has_usable_password: account.password !== null,
    has_verified_email: account.verified !== false,
    avatar_url: null,
  });
  const issueToken = (email: string) => {
    const token = `token-${randomUUID()}`;
    sessions.set(token, email);
    return token;
  };
  const issuePersonalToken = (
    email: string,
    settings: Partial<Pick<PersonalToken, 'name' | 'scope'>> & { days?: number } = {},
  ) => {
    const token = `pwt_${randomBytes(32).toString('base64url')}`;
    tokenIds += 1;
    personalTokens.set(token, {
      id: tokenIds,
      name: settings.name ?? `token ${tokenIds}`,
      scope: settings.scope ?? 'write',
      token_hint: token.slice(0, 8),
      created_at: FAKE_NOW_SECONDS + tokenIds,
      expires_at: FAKE_NOW_SECONDS + tokenIds + (settings.days ?? 90) * 86_400,
      last_used_at: null,
      email,
    });
    return token;
  };
  /** A token as its owner lists it: without whose it is. */
  const listed = ({ email: _email, ...token }: FakePersonalToken): PersonalToken => token;

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
    const personal = token === undefined ? undefined : personalTokens.get(token);
    const gone = () =>
      sendJson(response, 410, { status: 410, data: { flows }, meta: { is_authenticated: false } });
    const unauthenticated = () =>
      sendJson(response, 401, { status: 401, data: { flows }, meta: { is_authenticated: false } });

    if (path.startsWith(`${APP}/account/tokens`) || path === `${APP}/auth/reauthenticate`) {
      // A personal access token is no sign-in here: unknown, as the real server answers it.
      if (token !== undefined && signedIn === undefined) return gone();
      if (!account || token === undefined) return unauthenticated();
      const mine = () =>
        [...personalTokens.values()]
          .filter((entry) => entry.email === account.email)
          .sort((a, b) => b.created_at - a.created_at)
          .map(listed);
      if (request.method === 'GET' && path === `${APP}/account/tokens`) {
        return sendJson(response, 200, { status: 200, data: mine() });
      }
      if (request.method === 'POST' && path === `${APP}/auth/reauthenticate`) {
        const { password } = (body ?? {}) as { password?: string };
        if (account.password === null || password !== account.password) {
          return sendJson(response, 400, {
            status: 400,
            errors: [{ message: 'Incorrect password.', code: 'incorrect_password', param: 'password' }],
          });
        }
        stale.delete(token);
        return sendJson(response, 200, authenticated(authUser(account)));
      }
      if (request.method === 'POST' && path === `${APP}/account/tokens`) {
        const input = (body ?? {}) as { name?: string; expires_in_days?: number; scope?: 'read' | 'write' };
        if (typeof input.name !== 'string' || input.name.trim() === '') {
          return sendJson(response, 400, {
            status: 400,
            errors: [{ message: 'This field is required.', code: 'invalid', param: 'name' }],
          });
        }
        if (stale.has(token)) {
          return sendJson(response, 401, {
            status: 401,
            data: {
              user: authUser(account),
              methods: [{ method: 'password', at: 1_700_000_000 }],
              flows: account.password === null ? [] : [{ id: 'reauthenticate' }],
            },
            meta: { is_authenticated: true },
          });
        }
        const made = issuePersonalToken(account.email, {
          name: input.name.trim(),
          scope: input.scope ?? 'write',
          days: input.expires_in_days ?? 90,
        });
        const entry = personalTokens.get(made) as FakePersonalToken;
        return sendJson(response, 200, { status: 200, data: listed(entry), meta: { token: made } });
      }
      const revoke = /^\/_allauth\/app\/v1\/account\/tokens\/([^/]+)$/.exec(path);
      if (request.method === 'DELETE' && revoke) {
        const found = [...personalTokens.entries()].find(
          ([, entry]) => entry.email === account.email && String(entry.id) === revoke[1],
        );
        if (!found) {
          return sendJson(response, 404, {
            status: 404,
            errors: [{ message: 'Token not found.', code: 'not_found' }],
          });
        }
        personalTokens.delete(found[0]);
        return sendJson(response, 200, { status: 200 });
      }
    }

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
      const owner = account ?? (personal === undefined ? undefined : byEmail.get(personal.email));
      if (!owner) return sendJson(response, 401, { detail: 'Authentication credentials were not provided.' });
      if (personal) personal.last_used_at = FAKE_NOW_SECONDS + 3600;
      return sendJson(response, 200, {
        id: ids.get(owner.email),
        email: owner.email,
        first_name: owner.firstName ?? '',
        last_name: owner.lastName ?? '',
        language: null,
        timezone: null,
        avatar_url: null,
        get_display_name: displayName(owner),
        has_verified_email: owner.verified !== false,
      });
    }
    sendJson(response, 404, { detail: 'Not found.' });
  };

  const server = await startJsonServer(handle);
  return { ...server, seen, sessions, canned, issueToken, personalTokens, issuePersonalToken, stale };
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
