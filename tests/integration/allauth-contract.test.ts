import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { linkFromOutbox } from '../support/browser-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The allauth headless contract (../shared/reference/allauth-headless-openapi.yaml), checked by a JSON Schema
 * validator on the real server's answers, for the operations served since issue 24 (docs/auth.md "Sessions,
 * password and tokens"), over both clients: each answer must match the schema the OpenAPI file gives for its
 * status. `/_allauth/browser/v1` calls carry the session cookie and the CSRF token, as the web app does.
 */

const SPEC_PATH = resolve(
  fileURLToPath(new URL('../../', import.meta.url)),
  '../shared/reference/allauth-headless-openapi.yaml',
);

interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: unknown }> }>>;
}

let spec: OpenApi;

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema says it (`null` among the types, or `anyOf` with `null`), so the
 * validator reads the file's schemas as the spec means them.
 */
function jsonSchemaOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchemaOf);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, jsonSchemaOf(value)]),
  );
  if (nullable !== true) return converted;
  if (typeof converted.type === 'string') return { ...converted, type: [converted.type, 'null'] };
  return { anyOf: [converted, { type: 'null' }] };
}
let ajv: Ajv;
let server: TestServer;
const PASSWORD = 'violet-harbour-lantern-42';
const CSRF = 'contract-csrf-token-0123456789abcdef';

/** The validator of the JSON answer `path`'s `method` gives with `status`, as the OpenAPI file says. */
function validatorFor(path: string, method: string, status: number): ValidateFunction {
  const operation = spec.paths[path]?.[method];
  if (!operation) throw new Error(`the OpenAPI file has no ${method.toUpperCase()} ${path}`);
  const pathPointer = path.replaceAll('~', '~0').replaceAll('/', '~1');
  let pointer = `#/paths/${pathPointer}/${method}/responses/${status}`;
  const response = operation.responses[String(status)];
  if (!response)
    throw new Error(`the OpenAPI file gives ${method.toUpperCase()} ${path} no ${status} answer`);
  // A response given by reference lives under components/responses.
  if (response.$ref) pointer = response.$ref;
  return ajv.compile({ $ref: `allauth${pointer}/content/application~1json/schema` });
}

interface Signed {
  client: 'app' | 'browser';
  token: string;
}

async function call(method: string, path: string, who: Signed | undefined, body?: unknown) {
  const browser = who?.client === 'browser';
  const res = await fetch(`${server.url}/_allauth/${who?.client ?? 'app'}/v1/${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(who && !browser ? { 'x-session-token': who.token } : {}),
      ...(browser ? { cookie: `sessionid=${who.token}; csrftoken=${CSRF}`, 'x-csrftoken': CSRF } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Calls, then checks the answer's status and its body against the OpenAPI file's schema for that status. */
async function conforms(
  method: 'GET' | 'POST' | 'DELETE',
  specPath: string,
  path: string,
  who: Signed | undefined,
  status: number,
  body?: unknown,
) {
  const answer = await call(method, path, who, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  const validate = validatorFor(`/_allauth/{client}/v1/${specPath}`, method.toLowerCase(), status);
  expect(validate(answer.body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return answer.body as { data?: unknown; meta?: { session_token?: string } };
}

async function signUpAndIn(email: string): Promise<Record<'app' | 'browser', Signed>> {
  const signup = await call('POST', 'auth/signup', undefined, {
    email,
    password: PASSWORD,
    terms_agreement: true,
    phone_number_x: '',
  });
  expect(signup.status).toBe(401);
  const link = await linkFromOutbox(server, email, '/account/verify-email/');
  const key = decodeURIComponent(new URL(link).pathname.split('/').pop() ?? '');
  expect((await call('POST', 'auth/email/verify', undefined, { key })).status).toBeLessThan(500);
  const app = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
  const cookie = await fetch(`${server.url}/_allauth/browser/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `csrftoken=${CSRF}`, 'x-csrftoken': CSRF },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const sessionId = /sessionid=([^;]+)/.exec(cookie.headers.get('set-cookie') ?? '')?.[1] ?? '';
  return {
    app: { client: 'app', token: (app.body as { meta: { session_token: string } }).meta.session_token },
    browser: { client: 'browser', token: sessionId },
  };
}

beforeAll(async () => {
  if (!existsSync(SPEC_PATH)) {
    throw new Error(`The allauth OpenAPI file is not at ${SPEC_PATH}: clone the repository beside shared/.`);
  }
  spec = jsonSchemaOf(parse(readFileSync(SPEC_PATH, 'utf8'))) as OpenApi;
  // OpenAPI 3.0 schemas: `nullable`, `example` and friends are annotations here, not errors.
  ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(spec as object, 'allauth');
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the allauth contract (docs/auth.md), checked against the OpenAPI file', () => {
  it('AC0 the validator refuses what the file does not allow', () => {
    const sessions = validatorFor('/_allauth/{client}/v1/auth/sessions', 'get', 200);
    expect(
      sessions({
        status: 200,
        data: [{ id: 'seven', user_agent: 'x', ip: '1', created_at: 1, is_current: true }],
      }),
    ).toBe(false);
    expect(sessions({ status: 200, data: [{ id: 7, user_agent: 'x', ip: '1', created_at: 1 }] })).toBe(false);
    expect(
      sessions({ status: 200, data: [{ id: 7, user_agent: 'x', ip: '1', created_at: 1, is_current: true }] }),
    ).toBe(true);
  });

  for (const client of ['app', 'browser'] as const) {
    it(`AC1 ${client}: auth/sessions lists and ends sessions as the Sessions schema says`, async () => {
      const signed = await signUpAndIn(`sessions-${client}@contract.example`);
      const who = signed[client];
      const listed = await conforms('GET', 'auth/sessions', 'auth/sessions', who, 200);
      const sessions = listed.data as Array<{ id: number; is_current: boolean }>;
      expect(sessions.length).toBeGreaterThanOrEqual(2);
      const other = sessions.find((session) => !session.is_current);
      await conforms('DELETE', 'auth/sessions', 'auth/sessions', who, 200, { sessions: [other?.id] });
      const current = sessions.find((session) => session.is_current);
      await conforms('DELETE', 'auth/sessions', 'auth/sessions', who, 401, { sessions: [current?.id] });
    });

    it(`AC2 ${client}: auth/reauthenticate answers AuthenticatedByPassword, or the ErrorResponse`, async () => {
      const who = (await signUpAndIn(`reauth-${client}@contract.example`))[client];
      await conforms('POST', 'auth/reauthenticate', 'auth/reauthenticate', who, 200, { password: PASSWORD });
      await conforms('POST', 'auth/reauthenticate', 'auth/reauthenticate', who, 400, { password: 'not it' });
    });

    it(`AC3 ${client}: account/password/change answers the ErrorResponse and the Authentication 401`, async () => {
      const who = (await signUpAndIn(`password-${client}@contract.example`))[client];
      await conforms('POST', 'account/password/change', 'account/password/change', who, 400, {
        current_password: 'not it',
        new_password: 'amber-orchard-compass-77',
      });
      await conforms('POST', 'account/password/change', 'account/password/change', undefined, 401, {
        new_password: 'amber-orchard-compass-77',
      });
      // Its success is allauth's authenticated answer, the one login gives.
      const changed = await call('POST', 'account/password/change', who, {
        current_password: PASSWORD,
        new_password: 'amber-orchard-compass-77',
      });
      expect(changed.status).toBe(200);
      const validate = validatorFor('/_allauth/{client}/v1/auth/login', 'post', 200);
      expect(validate(changed.body), ajv.errorsText(validate.errors)).toBe(true);
    });
  }

  for (const client of ['app', 'browser'] as const) {
    it(`AC4 ${client}: two-factor set up, sign-in step, reauthentication and turning off, as the 2FA schemas say`, async () => {
      const email = `totp-${client}@contract.example`;
      const who = (await signUpAndIn(email))[client];
      await conforms('GET', 'account/authenticators', 'account/authenticators', who, 200);
      await conforms(
        'POST',
        'account/authenticators/recovery-codes',
        'account/authenticators/recovery-codes',
        who,
        400,
      );
      const offered = (await conforms(
        'GET',
        'account/authenticators/totp',
        'account/authenticators/totp',
        who,
        404,
      )) as {
        meta: { secret: string };
      };
      const app = new TOTP({ secret: Secret.fromBase32(offered.meta.secret), digits: 6, period: 30 });
      await conforms('POST', 'account/authenticators/totp', 'account/authenticators/totp', who, 400, {
        code: '000000',
      });
      await conforms('POST', 'account/authenticators/totp', 'account/authenticators/totp', who, 200, {
        code: app.generate(),
      });
      await conforms('GET', 'account/authenticators/totp', 'account/authenticators/totp', who, 200);
      const made = await call('POST', 'account/authenticators/recovery-codes', who);
      expect(made.status).toBe(200);
      await conforms(
        'GET',
        'account/authenticators/recovery-codes',
        'account/authenticators/recovery-codes',
        who,
        200,
      );
      const codes = (made.body as { data: { unused_codes: string[] } }).data.unused_codes;

      // A sign-in now stops at the second factor (app client: its pending token in the answer).
      const login = await call('POST', 'auth/login', undefined, { email, password: PASSWORD });
      expect(login.status).toBe(401);
      const pending: Signed = {
        client: 'app',
        token: (login.body as { meta: { session_token: string } }).meta.session_token,
      };
      await conforms('POST', 'auth/2fa/authenticate', 'auth/2fa/authenticate', pending, 400, {
        code: '000000',
      });
      await conforms('POST', 'auth/2fa/authenticate', 'auth/2fa/authenticate', pending, 200, {
        code: codes[0],
      });
      await conforms('POST', 'auth/2fa/reauthenticate', 'auth/2fa/reauthenticate', who, 200, {
        code: codes[1],
      });
      await conforms('POST', 'auth/2fa/reauthenticate', 'auth/2fa/reauthenticate', who, 400, {
        code: codes[1],
      });
      await conforms('DELETE', 'account/authenticators/totp', 'account/authenticators/totp', who, 200);
      await conforms('GET', 'account/email', 'account/email', who, 200);
    });
  }
});
