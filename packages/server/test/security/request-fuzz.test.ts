import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/http/route-table.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createDocument } from '../support/workspace-calls.js';

// SEC-F1..F3 of test/security/SPEC.md: random bodies and query strings to every route answer 4xx, never 5xx.

const BODIES_PER_ROUTE = 25;
const QUERIES_PER_ROUTE = 15;
/** Routes that take multipart files (fuzzed by importer-fuzz.test.ts) or sockets, not JSON. */
const NOT_JSON = new Set([
  'POST /api/v1/documents/:uuid/import/',
  'POST /api/v1/apps/ai/attachments/',
  'GET /ws/document/*',
]);

let t: TestApp;
let user: SignedInUser;
let params: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://plans.example.com' });
  user = await createSignedInUser(t, { email: 'fuzz@example.com' });
  const document = await createDocument(t, user);
  const blueprint = await t.app.inject({ method: 'POST', url: '/api/v1/blueprints/', headers: user.headers });
  const org = await t.app.inject({
    method: 'POST',
    url: '/api/v1/organizations/',
    headers: user.headers,
    payload: { name: 'Fuzz' },
  });
  params = {
    uuid: document.uuid,
    sid: document.sections[0].uuid,
    sub: document.sections[0].subsections[0].uuid,
    id: org.json().id,
    username: 'fuzz',
    blueprint: blueprint.json().uuid,
  };
});
afterAll(async () => {
  await t?.close();
});

/** The route's URL with the user's own ids in its parameters (so the fuzz reaches the schemas, not a 404). */
function concrete(url: string): string {
  return url
    .replace(/^\/api\/v1\/blueprints\/:uuid/, `/api/v1/blueprints/${params.blueprint}`)
    .replace(/:(\w+)/g, (_match, name: string) => params[name] ?? name)
    .replace(/\*$/, 'dashboard');
}

/** JSON values of every shape, plus the hostile classics (prototype keys, huge numbers, deep nesting). */
const bodies = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(
    fc.constantFrom(
      'title',
      'content',
      'email',
      'password',
      'target',
      'object_id',
      'visibility',
      'format',
      'text',
      'action',
      'mode',
      'key',
      'name',
      '__proto__',
      'constructor',
    ),
    fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string(), fc.constant(null), fc.double(), fc.constant(1e308)),
  ),
  fc.constant('{"a":'),
  fc.string().map((s) => `{${s}`),
);

const queries = fc.dictionary(
  fc.constantFrom(
    'page',
    'page_size',
    'search',
    'ordering',
    'format',
    'target',
    'object_id',
    'level',
    'level__gte',
    'key',
    'status',
    'x',
  ),
  fc.oneof(fc.string(), fc.integer().map(String), fc.constant('-1'), fc.constant('1e99'), fc.constant('%')),
);

function jsonRoutes(methods: readonly string[]) {
  return routeTable(t.app).filter(
    (route) => methods.includes(route.method) && !NOT_JSON.has(`${route.method} ${route.url}`),
  );
}

function fail(res: LightMyRequestResponse, label: string, input: unknown): string | null {
  return res.statusCode >= 500
    ? `${label} → ${res.statusCode} ${res.body.slice(0, 200)} for ${JSON.stringify(input)}`
    : null;
}

describe('request fuzzing', () => {
  it('SEC-F1: random JSON bodies to every body-taking route answer below 500', async () => {
    const failures: string[] = [];
    const routes = jsonRoutes(['POST', 'PUT', 'PATCH', 'DELETE']);
    expect(routes.length).toBeGreaterThan(40);
    for (const [index, route] of routes.entries()) {
      for (const body of fc.sample(bodies, { numRuns: BODIES_PER_ROUTE, seed: 1000 + index })) {
        const res = await t.app.inject({
          method: route.method as 'POST',
          url: concrete(route.url),
          headers: { ...user.headers, 'content-type': 'application/json' },
          payload: typeof body === 'string' ? body : JSON.stringify(body),
        });
        const problem = fail(res, `${route.method} ${route.url}`, body);
        if (problem) failures.push(problem);
      }
    }
    expect(failures).toEqual([]);
  });

  it('SEC-F2: random query strings to every GET route answer below 500', async () => {
    const failures: string[] = [];
    for (const [index, route] of jsonRoutes(['GET']).entries()) {
      for (const query of fc.sample(queries, { numRuns: QUERIES_PER_ROUTE, seed: 2000 + index })) {
        const search = new URLSearchParams(query as Record<string, string>).toString();
        const res = await t.app.inject({
          method: 'GET',
          url: `${concrete(route.url)}?${search}`,
          headers: user.headers,
        });
        const problem = fail(res, `GET ${route.url}`, query);
        if (problem) failures.push(problem);
      }
    }
    expect(failures).toEqual([]);
  });

  it('SEC-F3: the server is still up and answering afterwards', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/app/me/', headers: user.headers });
    expect([200, 401]).toContain(me.statusCode);
  });
});
