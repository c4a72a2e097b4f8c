import {
  AbortedError,
  ApiError,
  AuthRequiredError,
  createHttpClient,
  type HttpClientOptions,
  MemoryTokenStore,
  NetworkError,
  PlanwrightError,
  ResponseValidationError,
} from '@planwright/sdk';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { closedPort, reply, useRecordingServer } from './support/recording-server.js';

const server = useRecordingServer();

function client(options: HttpClientOptions = {}) {
  return createHttpClient({ baseUrl: server.origin, ...options });
}

/** Awaits a promise that must reject, and returns what it rejected with. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

describe('H1 URL', () => {
  it('H1: sends a relative path under /api/v1/', async () => {
    await client().get('documents/');
    expect(server.last().url).toBe('/api/v1/documents/');
  });

  it('H1: sends a path starting with / as it is', async () => {
    await client().get('/api/v1/website/stripe-config/');
    await client().get('/_allauth/app/v1/auth/session');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/website/stripe-config/',
      '/_allauth/app/v1/auth/session',
    ]);
  });

  it('H1: drops trailing slashes of the base URL and keeps its path prefix', async () => {
    await createHttpClient({ baseUrl: `${server.origin}/` }).get('health');
    await createHttpClient({ baseUrl: `${server.origin}/planwright//` }).get('health');
    await createHttpClient({ baseUrl: `${server.origin}/planwright/` }).get('/_allauth/x');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/health',
      '/planwright/api/v1/health',
      '/planwright/_allauth/x',
    ]);
  });

  it("H1: with the default base ('') it requests same-origin relative URLs", async () => {
    const seen: string[] = [];
    // A browser resolves relative URLs against the page; here a forwarding fetch plays the page.
    const pageFetch: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(`${server.origin}${String(input)}`, init);
    };
    const http = createHttpClient({ fetch: pageFetch });
    await http.get('documents/');
    await http.get('/_allauth/app/v1/auth/session');
    expect(seen).toEqual(['/api/v1/documents/', '/_allauth/app/v1/auth/session']);
    expect(http.baseUrl).toBe('');
  });

  it('H1: collapses leading slashes so a path cannot leave the origin', async () => {
    const seen: string[] = [];
    const pageFetch: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response(null, { status: 204 });
    };
    await createHttpClient({ fetch: pageFetch }).get('//evil.example/steal');
    await createHttpClient({ baseUrl: '/planwright/', fetch: pageFetch }).get('///x');
    expect(seen).toEqual(['/evil.example/steal', '/planwright/x']);
  });
});

describe('H2 params', () => {
  it('H2: skips null and undefined, repeats arrays, stringifies numbers and booleans, keeps empty strings', async () => {
    await client().get('activities/activities/', {
      params: {
        level__gte: 1,
        level__lte: 2,
        target: null,
        object_id: undefined,
        tag: ['a b', 'ä&=?', null, 'c'],
        archived: false,
        q: '',
      },
    });
    const url = new URL(server.last().url, server.origin);
    expect(url.pathname).toBe('/api/v1/activities/activities/');
    expect([...url.searchParams]).toEqual([
      ['level__gte', '1'],
      ['level__lte', '2'],
      ['tag', 'a b'],
      ['tag', 'ä&=?'],
      ['tag', 'c'],
      ['archived', 'false'],
      ['q', ''],
    ]);
  });

  it('H2: sends no query string for empty params, and appends to an existing query with &', async () => {
    await client().get('documents/', { params: {} });
    await client().get('documents/', { params: { a: null } });
    await client().get('documents/?page=2', { params: { page_size: 10 } });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/documents/',
      '/api/v1/documents/',
      '/api/v1/documents/?page=2&page_size=10',
    ]);
  });
});

describe('H3 session token', () => {
  it('H3: sends X-Session-Token when the store has a token', async () => {
    const tokenStore = new MemoryTokenStore({ token: 'tok-123' });
    await client({ tokenStore }).get('app/me/');
    expect(server.last().headers['x-session-token']).toBe('tok-123');
  });

  it('H3: reads the token at call time, so a later sign-in applies', async () => {
    const tokenStore = new MemoryTokenStore();
    const http = client({ tokenStore });
    await http.get('app/me/');
    tokenStore.setSession({ token: 'fresh' });
    await http.get('app/me/');
    expect(server.requests.map((r) => r.headers['x-session-token'])).toEqual([undefined, 'fresh']);
  });

  it('H3: sends no token header when there is no store, no token, or auth: false', async () => {
    await client().get('a/');
    await client({ tokenStore: new MemoryTokenStore() }).get('b/');
    await client({ tokenStore: new MemoryTokenStore({ token: 'secret' }) }).post(
      'apps/contact/',
      {},
      { auth: false },
    );
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) expect(request.headers).not.toHaveProperty('x-session-token');
  });
});

describe('H4 headers and fetch options', () => {
  it('H4: sends client headers, and per-call headers win over them and over the token', async () => {
    const tokenStore = new MemoryTokenStore({ token: 'stored' });
    const http = client({ tokenStore, headers: { 'X-Client': 'web', 'Accept-Language': 'de' } });
    await http.get('a/', { headers: { 'Accept-Language': 'fr', 'X-Session-Token': 'override' } });
    const { headers } = server.last();
    expect(headers['x-client']).toBe('web');
    expect(headers['accept-language']).toBe('fr');
    expect(headers['x-session-token']).toBe('override');
  });

  it('H4: passes credentials and signal to fetch unchanged', async () => {
    const inits: RequestInit[] = [];
    const spyingFetch: typeof fetch = (input, init) => {
      inits.push(init ?? {});
      return fetch(input, init);
    };
    const controller = new AbortController();
    const http = client({ fetch: spyingFetch });
    await http.post(
      'users/resend-verification/',
      { email: 'a@b.co' },
      { credentials: 'include', signal: controller.signal },
    );
    await http.get('a/');
    expect(inits[0]?.credentials).toBe('include');
    expect(inits[0]?.signal).toBe(controller.signal);
    expect(inits[1]).not.toHaveProperty('credentials');
    expect(inits[1]).not.toHaveProperty('signal');
  });
});

describe('H5 request bodies', () => {
  it('H5: sends a plain object as JSON with a JSON content type', async () => {
    const body = { title: 'Plan « 2027 »', tags: ['a'], nested: { n: 1, ok: true, none: null } };
    await client().post('documents/', body);
    const request = server.last();
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body.toString('utf8')).toBe(JSON.stringify(body));
  });

  it('H5: sends an array as JSON, with PUT and PATCH too', async () => {
    await client().put('documents/1/', [1, 'two']);
    await client().patch('documents/1/', { title: 'x' });
    expect(server.requests.map((r) => [r.method, r.headers['content-type'], r.body.toString()])).toEqual([
      ['PUT', 'application/json', '[1,"two"]'],
      ['PATCH', 'application/json', '{"title":"x"}'],
    ]);
  });

  it('H5: sends a string as plain text', async () => {
    const types: Array<string | null> = [];
    // fetch itself would also label a string text/plain; check the SDK says so, not just the runtime.
    const spyingFetch: typeof fetch = (input, init) => {
      types.push(new Headers(init?.headers).get('content-type'));
      return fetch(input, init);
    };
    await client({ fetch: spyingFetch }).post('notes/', '# Heading\nnaïve ✓');
    expect(types).toEqual(['text/plain;charset=UTF-8']);
    const request = server.last();
    expect(request.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(request.body.toString('utf8')).toBe('# Heading\nnaïve ✓');
  });

  it('H5: sends FormData as multipart with the boundary fetch chose', async () => {
    const form = new FormData();
    form.append('mode', 'merge');
    form.append('file', new Blob(['# Title\n'], { type: 'text/markdown' }), 'plan.md');
    await client().post('documents/1/import/', form);
    const request = server.last();
    const contentType = request.headers['content-type'] ?? '';
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const parsed = await new Response(new Uint8Array(request.body), {
      headers: { 'content-type': contentType },
    }).formData();
    expect(parsed.get('mode')).toBe('merge');
    const file = parsed.get('file');
    expect(file).toBeInstanceOf(Blob);
    expect(await (file as Blob).text()).toBe('# Title\n');
  });

  it("H5: sends a Blob as it is, with the blob's own type or none", async () => {
    await client().post('upload/', new Blob([new Uint8Array([0, 255, 10])], { type: 'image/png' }));
    await client().post('upload/', new Blob(['raw']));
    const [typed, untyped] = server.requests;
    expect(typed?.headers['content-type']).toBe('image/png');
    expect([...(typed?.body ?? [])]).toEqual([0, 255, 10]);
    expect(untyped?.headers).not.toHaveProperty('content-type');
    expect(untyped?.body.toString()).toBe('raw');
  });

  it('H5: sends URLSearchParams form-encoded', async () => {
    await client().post(
      '/accounts/google/login/',
      new URLSearchParams({ process: 'login', next: '/cb?x=1' }),
    );
    const request = server.last();
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(request.body.toString()).toBe('process=login&next=%2Fcb%3Fx%3D1');
  });

  it('H5: sends ArrayBuffers and typed arrays byte for byte, without a content type', async () => {
    const bytes = new Uint8Array([1, 2, 3, 254]);
    await client().post('bin/', bytes.buffer);
    await client().post('bin/', new Uint8Array([9, 8, 7]).subarray(1));
    await client().post('bin/', new DataView(new Uint8Array([5, 6]).buffer));
    expect(server.requests.map((r) => [...r.body])).toEqual([
      [1, 2, 3, 254],
      [8, 7],
      [5, 6],
    ]);
    for (const request of server.requests) expect(request.headers).not.toHaveProperty('content-type');
  });

  it("H5: keeps the caller's Content-Type", async () => {
    await client().post('documents/1/import/', '# md', { headers: { 'Content-Type': 'text/markdown' } });
    await client().post('x/', { a: 1 }, { headers: { 'content-type': 'application/merge-patch+json' } });
    expect(server.requests.map((r) => r.headers['content-type'])).toEqual([
      'text/markdown',
      'application/merge-patch+json',
    ]);
  });

  it('H5: sends no body and no content type for null and undefined', async () => {
    await client().post('blueprints/');
    await client().post('blueprints/', null);
    for (const request of server.requests) {
      expect(request.body).toHaveLength(0);
      expect(request.headers).not.toHaveProperty('content-type');
    }
    expect(server.requests).toHaveLength(2);
  });

  it('H5: refuses streams and functions before sending anything', async () => {
    const stream = new ReadableStream({ start: (c) => c.close() });
    await expect(client().post('x/', stream)).rejects.toThrow(TypeError);
    await expect(client().post('x/', () => 1)).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('H6 response bodies', () => {
  it('H6: parses JSON answers, including +json types with parameters', async () => {
    const http = client();
    server.handle((_req, res) => reply(res, 200, { a: 1 }));
    expect(await http.get('a/')).toEqual({ a: 1 });
    server.handle((_req, res) =>
      reply(res, 200, '{"b":[2]}', { 'content-type': 'application/vnd.api+json; charset=utf-8' }),
    );
    expect(await http.get('b/')).toEqual({ b: [2] });
    server.handle((_req, res) => reply(res, 200, '"text"', { 'content-type': 'Application/JSON' }));
    expect(await http.get('c/')).toBe('text');
  });

  it('H6: reads every other answer as text', async () => {
    const http = client();
    server.handle((_req, res) =>
      reply(res, 200, '# Plan\n\nText', { 'content-type': 'text/markdown; charset=utf-8' }),
    );
    expect(await http.get('documents/1/export')).toBe('# Plan\n\nText');
    server.handle((_req, res) => reply(res, 200, '{"looks":"json"}', { 'content-type': 'text/plain' }));
    expect(await http.get('x/')).toBe('{"looks":"json"}');
    server.handle((_req, res) => reply(res, 200, Buffer.from('no type')));
    expect(await http.get('y/')).toBe('no type');
  });

  it('H6: gives undefined for 204, for an empty JSON answer and for HEAD', async () => {
    const http = client();
    server.handle((_req, res) => reply(res, 204));
    expect(await http.delete('documents/1/')).toBeUndefined();
    server.handle((_req, res) => reply(res, 200, '', { 'content-type': 'application/json' }));
    expect(await http.get('empty/')).toBeUndefined();
    server.handle((_req, res) => reply(res, 200, { ignored: true }));
    expect(await http.request('HEAD', 'head/')).toBeUndefined();
    expect(server.requests.map((r) => r.method)).toEqual(['DELETE', 'GET', 'HEAD']);
  });

  it('H6: reports a JSON content type with a non-JSON body as ResponseValidationError', async () => {
    server.handle((_req, res) =>
      reply(res, 200, '<html>oops</html>', { 'content-type': 'application/json' }),
    );
    const error = await rejectionOf(client().get('broken/'));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    const failure = error as ResponseValidationError;
    expect(failure.data).toBe('<html>oops</html>');
    expect(failure.issues).toEqual([]);
    expect(failure.cause).toBeInstanceOf(SyntaxError);
    expect(failure.message).toBe(
      `Unexpected response from GET ${server.origin}/api/v1/broken/: the body is not valid JSON`,
    );
  });
});

describe('H7 schemas', () => {
  const documentSchema = z.object({ uuid: z.string(), title: z.string().default('Untitled') });

  it("H7: resolves to the schema's output, typed", async () => {
    server.handle((_req, res) => reply(res, 200, { uuid: 'd1', extra: 'dropped' }));
    const document = await client().get('documents/d1/', { schema: documentSchema });
    expectTypeOf(document).toEqualTypeOf<{ uuid: string; title: string }>();
    expect(document).toEqual({ uuid: 'd1', title: 'Untitled' });
  });

  it('H7: without a schema the result is unknown', async () => {
    const result = await client().get('x/');
    expectTypeOf(result).toEqualTypeOf<unknown>();
    expect(result).toEqual({});
  });

  it('H7: rejects a mismatching body with ResponseValidationError carrying the issues', async () => {
    server.handle((_req, res) => reply(res, 200, { uuid: 42 }));
    const error = await rejectionOf(
      client().post('documents/', { blueprint: 'b' }, { schema: documentSchema }),
    );
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    const failure = error as ResponseValidationError;
    expect(failure.code).toBe('invalid_response');
    expect(failure.status).toBe(200);
    expect(failure.method).toBe('POST');
    expect(failure.url).toBe(`${server.origin}/api/v1/documents/`);
    expect(failure.data).toEqual({ uuid: 42 });
    expect(failure.issues.map((issue) => issue.path)).toEqual([['uuid']]);
    expect(failure.message).toMatch(/^Unexpected response from POST .*\/api\/v1\/documents\/: uuid: /);
    expect(failure.isRetryable).toBe(false);
  });

  it('H7: runs async refinements', async () => {
    const schema = z.object({ n: z.number() }).refine(async (value) => value.n > 1, 'n must be > 1');
    server.handle((_req, res) => reply(res, 200, { n: 1 }));
    const error = await rejectionOf(client().get('n/', { schema }));
    expect((error as ResponseValidationError).issues[0]?.message).toBe('n must be > 1');
  });
});

describe('H8 auth failure', () => {
  it.each([401, 403])(
    'H8: a %i clears the store, then calls the hook, then rejects with AuthRequiredError',
    async (status) => {
      server.handle((_req, res) =>
        reply(res, status, { detail: 'Invalid session', code: 'invalid_session' }),
      );
      const tokenStore = new MemoryTokenStore({
        token: 'old',
        email: 'a@b.co',
        name: 'A',
        avatarUrl: 'https://x/a.png',
      });
      const events: string[] = [];
      tokenStore.subscribe(() => events.push(`store cleared: ${tokenStore.getToken() === null}`));
      const onAuthRequired = vi.fn((info: unknown) => {
        events.push(`hook: token is ${tokenStore.getToken()}`);
        expect(info).toEqual({
          status,
          path: 'documents/',
          method: 'GET',
          url: `${server.origin}/api/v1/documents/`,
        });
      });
      const call = client({ tokenStore, onAuthRequired }).get('documents/', { params: {} });
      const error = await rejectionOf(call);
      events.push('rejected');

      expect(events).toEqual(['store cleared: true', 'hook: token is null', 'rejected']);
      expect(onAuthRequired).toHaveBeenCalledTimes(1);
      expect(tokenStore.getSnapshot()).toEqual({ token: null, email: null, name: null, avatarUrl: null });
      expect(server.last().headers['x-session-token']).toBe('old');
      expect(AuthRequiredError.isInstance(error)).toBe(true);
      expect(ApiError.isInstance(error)).toBe(true);
      const failure = error as AuthRequiredError;
      expect(failure.message).toBe(`Auth required (${status})`);
      expect(failure.code).toBe('auth_required');
      expect(failure.status).toBe(status);
      expect(failure.data).toEqual({ detail: 'Invalid session', code: 'invalid_session' });
      expect(failure.detail).toBe('Invalid session');
      expect(failure.serverCode).toBe('invalid_session');
      expect(failure.isRetryable).toBe(false);
      expect(failure.suggestion).toMatch(/sign in/i);
    },
  );

  it('H8: works without a store or hook, and with an empty body', async () => {
    server.handle((_req, res) => reply(res, 401));
    const error = await rejectionOf(client().get('app/me/'));
    expect(AuthRequiredError.isInstance(error)).toBe(true);
    expect((error as AuthRequiredError).message).toBe('Auth required (401)');
    expect((error as AuthRequiredError).data).toBeUndefined();
  });

  it('H8: a throwing hook still rejects with AuthRequiredError, its error as the cause', async () => {
    server.handle((_req, res) => reply(res, 403, 'Forbidden', { 'content-type': 'text/plain' }));
    const hookError = new Error('router not ready');
    const tokenStore = new MemoryTokenStore({ token: 't' });
    const error = await rejectionOf(
      client({
        tokenStore,
        onAuthRequired: () => {
          throw hookError;
        },
      }).get('x/'),
    );
    expect(AuthRequiredError.isInstance(error)).toBe(true);
    expect((error as AuthRequiredError).cause).toBe(hookError);
    expect((error as AuthRequiredError).data).toBe('Forbidden');
    expect(tokenStore.getToken()).toBeNull();
  });

  it('H8: a throwing store listener neither skips the hook nor changes the rejection', async () => {
    server.handle((_req, res) => reply(res, 401));
    const tokenStore = new MemoryTokenStore({ token: 't' });
    const listenerError = new Error('render failed');
    tokenStore.subscribe(() => {
      throw listenerError;
    });
    const onAuthRequired = vi.fn();
    const error = await rejectionOf(client({ tokenStore, onAuthRequired }).get('x/'));
    expect(AuthRequiredError.isInstance(error)).toBe(true);
    expect((error as AuthRequiredError).cause).toBe(listenerError);
    expect(onAuthRequired).toHaveBeenCalledTimes(1);
    expect(tokenStore.getToken()).toBeNull();
  });

  it('H8: applies to raw calls too', async () => {
    server.handle((_req, res) => reply(res, 401, { detail: 'no' }));
    const tokenStore = new MemoryTokenStore({ token: 't' });
    const onAuthRequired = vi.fn();
    const error = await rejectionOf(client({ tokenStore, onAuthRequired }).raw('GET', 'documents/1/export'));
    expect(AuthRequiredError.isInstance(error)).toBe(true);
    expect(onAuthRequired).toHaveBeenCalledWith(
      expect.objectContaining({ status: 401, path: 'documents/1/export' }),
    );
    expect(tokenStore.getToken()).toBeNull();
  });
});

describe('H9 calls outside the session', () => {
  it.each([401, 403])(
    'H9: with auth: false a %i is a plain ApiError and the session survives',
    async (status) => {
      server.handle((_req, res) => reply(res, status, 'Captcha required', { 'content-type': 'text/plain' }));
      const tokenStore = new MemoryTokenStore({ token: 'keep-me' });
      const onAuthRequired = vi.fn();
      const error = await rejectionOf(
        client({ tokenStore, onAuthRequired }).post('apps/contact/', {}, { auth: false }),
      );
      expect(ApiError.isInstance(error)).toBe(true);
      expect(AuthRequiredError.isInstance(error)).toBe(false);
      expect((error as ApiError).message).toBe('Captcha required');
      expect((error as ApiError).status).toBe(status);
      expect(tokenStore.getToken()).toBe('keep-me');
      expect(onAuthRequired).not.toHaveBeenCalled();
    },
  );
});

describe('H10 other failures', () => {
  it('H10: uses the response text as the message, and carries status, data, detail and server code', async () => {
    server.handle((_req, res) => reply(res, 404, { detail: 'Document not found.', code: 'not_found' }));
    const error = await rejectionOf(client().get('documents/nope/'));
    expect(ApiError.isInstance(error)).toBe(true);
    expect(AuthRequiredError.isInstance(error)).toBe(false);
    const failure = error as ApiError;
    expect(failure.message).toBe('{"detail":"Document not found.","code":"not_found"}');
    expect(failure.status).toBe(404);
    expect(failure.statusText).toBe('Not Found');
    expect(failure.data).toEqual({ detail: 'Document not found.', code: 'not_found' });
    expect(failure.detail).toBe('Document not found.');
    expect(failure.serverCode).toBe('not_found');
    expect(failure.code).toBe('api_error');
    expect(failure.method).toBe('GET');
    expect(failure.url).toBe(`${server.origin}/api/v1/documents/nope/`);
    expect(failure.isRetryable).toBe(false);
  });

  it('H10: keeps a text body as both message and data', async () => {
    server.handle((_req, res) => reply(res, 400, 'Title cannot be empty', { 'content-type': 'text/plain' }));
    const failure = (await rejectionOf(client().patch('documents/1/', { title: '' }))) as ApiError;
    expect(failure.message).toBe('Title cannot be empty');
    expect(failure.data).toBe('Title cannot be empty');
    expect(failure.detail).toBeUndefined();
  });

  it('H10: falls back to "Request failed with {status}" for an empty or blank body', async () => {
    server.handle((_req, res) => reply(res, 500));
    const empty = (await rejectionOf(client().get('a/'))) as ApiError;
    server.handle((_req, res) => reply(res, 502, ' \n', { 'content-type': 'text/plain' }));
    const blank = (await rejectionOf(client().get('b/'))) as ApiError;
    expect(empty.message).toBe('Request failed with 500');
    expect(empty.data).toBeUndefined();
    expect(blank.message).toBe('Request failed with 502');
  });

  it('H10: an ApiError is also a PlanwrightError and an Error', async () => {
    server.handle((_req, res) => reply(res, 500));
    const error = await rejectionOf(client().get('a/'));
    expect(PlanwrightError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
  });

  it('H10: keeps malformed JSON error bodies as text', async () => {
    server.handle((_req, res) => reply(res, 422, '{"detail":', { 'content-type': 'application/json' }));
    const failure = (await rejectionOf(client().get('a/'))) as ApiError;
    expect(failure.message).toBe('{"detail":');
    expect(failure.data).toBe('{"detail":');
  });

  it.each([
    [408, true],
    [425, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [404, false],
    [409, false],
    [412, false],
  ])('H10: a %i is retryable: %s', async (status, retryable) => {
    server.handle((_req, res) => reply(res, status, { detail: 'x' }));
    const failure = (await rejectionOf(client().get('a/'))) as ApiError;
    expect(failure.status).toBe(status);
    expect(failure.isRetryable).toBe(retryable);
  });
});

describe('H11 network failures', () => {
  it('H11: a refused connection rejects with a retryable NetworkError', async () => {
    const port = await closedPort();
    const error = await rejectionOf(createHttpClient({ baseUrl: `http://127.0.0.1:${port}` }).get('health'));
    expect(NetworkError.isInstance(error)).toBe(true);
    const failure = error as NetworkError;
    expect(failure.code).toBe('network_error');
    expect(failure.isRetryable).toBe(true);
    expect(failure.cause).toBeInstanceOf(TypeError);
    expect(failure.url).toBe(`http://127.0.0.1:${port}/api/v1/health`);
    expect(failure.message).toContain('ECONNREFUSED');
    expect(failure.suggestion).toBeTruthy();
  });

  it('H11: a connection reset before any answer rejects with NetworkError', async () => {
    server.handle((_req, res) => res.socket?.destroy());
    const error = await rejectionOf(client().get('a/'));
    expect(NetworkError.isInstance(error)).toBe(true);
  });

  it('H11: a body that breaks off mid-way rejects with NetworkError', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":', () => res.socket?.destroy());
    });
    const error = await rejectionOf(client().get('a/'));
    expect(NetworkError.isInstance(error)).toBe(true);
    expect(AbortedError.isInstance(error)).toBe(false);
  });
});

describe('H12 abort', () => {
  it('H12: aborting while waiting for the answer rejects with AbortedError', async () => {
    server.handle(() => {}); // never answers
    const controller = new AbortController();
    const call = client().get('slow/', { signal: controller.signal });
    await server.nextRequest();
    controller.abort();
    const error = await rejectionOf(call);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(NetworkError.isInstance(error)).toBe(false);
    const aborted = error as AbortedError;
    expect(aborted.code).toBe('aborted');
    expect(aborted.cause).toBe(controller.signal.reason);
    expect(aborted.isRetryable).toBe(false);
    expect(aborted.isTimeout).toBe(false);
    expect(aborted.message).toBe(`Request aborted (GET ${server.origin}/api/v1/slow/)`);
  });

  it('H12: an already aborted signal rejects without reaching the server', async () => {
    const reason = new Error('page left');
    const error = await rejectionOf(client().get('a/', { signal: AbortSignal.abort(reason) }));
    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as AbortedError).cause).toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('H12: aborting while the body streams in rejects with AbortedError', async () => {
    const controller = new AbortController();
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part', () => controller.abort());
    });
    const error = await rejectionOf(client().get('stream/', { signal: controller.signal }));
    expect(AbortedError.isInstance(error)).toBe(true);
  });

  it('H12: a timeout reason makes the abort retryable', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    const error = (await rejectionOf(client().get('a/', { signal: controller.signal }))) as AbortedError;
    expect(error.isTimeout).toBe(true);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/^Request timed out/);
  });
});

describe('H13 raw', () => {
  it('H13: resolves to the unread Response whatever the status', async () => {
    server.handle((_req, res) => reply(res, 500, 'boom', { 'content-type': 'text/plain' }));
    const response = await client().raw('GET', 'documents/1/export', { params: { format: 'docx' } });
    expect(response.status).toBe(500);
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('boom');
    expect(server.last().url).toBe('/api/v1/documents/1/export?format=docx');
  });

  it('H13: sends the body and token like any call', async () => {
    const tokenStore = new MemoryTokenStore({ token: 'tok' });
    const response = await client({ tokenStore }).raw('POST', 'x/', { body: { a: 1 } });
    expect(response.ok).toBe(true);
    expect(server.last().headers['x-session-token']).toBe('tok');
    expect(server.last().body.toString()).toBe('{"a":1}');
  });
});

describe('H14 lazy fetch', () => {
  it('H14: looks up globalThis.fetch at call time, not at creation', async () => {
    const http = client();
    const realFetch = globalThis.fetch;
    const calls: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(String(input));
      return realFetch(input, init);
    });
    try {
      await http.get('later/');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(calls).toEqual([`${server.origin}/api/v1/later/`]);
  });

  it('H14: calls an injected fetch bare, never as a method of the options object', async () => {
    const receivers: unknown[] = [];
    const strictFetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return fetch(input, init);
    } as typeof fetch;
    await client({ fetch: strictFetch }).get('a/');
    expect(receivers).toEqual([undefined]);
  });
});
