import { vi } from 'vitest';

/** One request as the fake server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The query string, parsed. */
  query: URLSearchParams;
  /** What the `:name` segments of a pattern route matched (`{}` for an exact route). */
  params: Record<string, string>;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type Handler = (request: SeenRequest) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** What a `:name` pattern route (`GET /api/v1/documents/:uuid/`) matches in `path`, or `undefined`. */
function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const actual = got[index] ?? '';
    if (part.startsWith(':')) {
      if (actual === '') return undefined;
      params[part.slice(1)] = decodeURIComponent(actual);
    } else if (part !== actual) return undefined;
  }
  return params;
}

/**
 * The network for a real SDK client: answers by `METHOD /path` (exact routes first, then `:name` pattern
 * routes), records every request, and answers 404 to anything it was not told about (so a page calling
 * what it should not fails its test).
 */
export function createFakeServer() {
  const handlers = new Map<string, Handler>();
  const requests: SeenRequest[] = [];
  const route = (
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | undefined => {
    const exact = handlers.get(`${method} ${path}`);
    if (exact) return { handler: exact, params: {} };
    for (const [key, handler] of handlers) {
      const [keyMethod, pattern = ''] = key.split(' ');
      if (keyMethod !== method || !pattern.includes('/:')) continue;
      const params = matchPattern(pattern, path);
      if (params) return { handler, params };
    }
    return undefined;
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    const found = route(method, url.pathname);
    const request: SeenRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      params: found?.params ?? {},
      headers: new Headers(init.headers),
      body: text === undefined || text === '' ? undefined : JSON.parse(text),
      credentials: init.credentials,
    };
    requests.push(request);
    return found ? found.handler(request) : json({ detail: 'Not found.' }, 404);
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    requests,
    on(route: string, handler: Handler | Response) {
      handlers.set(route, typeof handler === 'function' ? handler : () => handler.clone());
      return this;
    },
    /** The requests to `path` (any method, or the one given). */
    calls(path: string, method?: string) {
      return requests.filter((request) => request.path === path && (!method || request.method === method));
    },
  };
}

export type FakeServer = ReturnType<typeof createFakeServer>;

/** The allauth envelopes of `docs/auth.md`, for answers. */
export const allauth = {
  user(overrides: Partial<Record<string, unknown>> = {}) {
    return {
      id: '0b4f3a8e-4a57-4a59-8f0a-6f0c1f5d3b21',
      display: 'Ada Lovelace',
      email: 'ada@example.com',
      has_usable_password: true,
      has_verified_email: true,
      avatar_url: null,
      ...overrides,
    };
  },
  authenticated(token: string | undefined, user: Record<string, unknown> = allauth.user()) {
    return json({
      status: 200,
      data: { user, methods: [{ method: 'password', at: 1_768_467_600, email: user.email }] },
      meta: { is_authenticated: true, ...(token ? { session_token: token } : {}) },
    });
  },
  pending(token?: string) {
    return json(
      {
        status: 401,
        data: { flows: [{ id: 'login' }, { id: 'signup' }, { id: 'verify_email', is_pending: true }] },
        meta: { is_authenticated: false, ...(token ? { session_token: token } : {}) },
      },
      401,
    );
  },
  unauthenticated() {
    return json(
      {
        status: 401,
        data: { flows: [{ id: 'login' }, { id: 'signup' }] },
        meta: { is_authenticated: false },
      },
      401,
    );
  },
  invalid(errors: Array<{ message: string; code: string; param?: string }>) {
    return json({ status: 400, errors }, 400);
  },
  ok() {
    return json({ status: 200 });
  },
  config(providers: string[] = []) {
    return json({
      status: 200,
      data: {
        account: {
          login_methods: ['email'],
          is_open_for_signup: true,
          email_verification_by_code_enabled: false,
          login_by_code_enabled: false,
          password_reset_by_code_enabled: false,
        },
        ...(providers.length
          ? {
              socialaccount: {
                providers: providers.map((id) => ({ id, name: 'Google', flows: ['provider_redirect'] })),
              },
            }
          : {}),
      },
    });
  },
};

/** `GET app/me/`. */
export function currentUser(overrides: Partial<Record<string, unknown>> = {}) {
  return {
    id: '0b4f3a8e-4a57-4a59-8f0a-6f0c1f5d3b21',
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    language: null,
    timezone: null,
    avatar_url: null,
    get_display_name: 'Ada Lovelace',
    has_verified_email: true,
    ...overrides,
  };
}
