import type { ServerResponse } from 'node:http';
import {
  type AuthClient,
  createAuthClient,
  createHttpClient,
  InvalidInputError,
  MemoryTokenStore,
  ResponseValidationError,
  type SessionInfo,
} from '@planwright/sdk';
import { describe, expect, it, vi } from 'vitest';
import {
  ada,
  answer,
  errors,
  jsonBody,
  passwordMethod,
  rejectionOf,
  sessionGone,
  unauthenticated,
} from './support/allauth.js';
import { type RecordedRequest, reply, useRecordingServer } from './support/recording-server.js';

/** The account's addresses as docs/auth.md "E-mail addresses" lists them: the primary first. */
const addresses = [
  { email: 'ada@example.com', primary: true, verified: true },
  { email: 'ada@lovelace.org', primary: false, verified: false },
];

/** `account/email` answering its documented successes: the list, and `{status: 200}` to a resend. */
function emailServer(request: RecordedRequest, response: ServerResponse): void {
  if (request.method === 'PUT') reply(response, 200, { status: 200 });
  else reply(response, 200, { status: 200, data: addresses });
}

const server = useRecordingServer(emailServer);

const signedIn: SessionInfo = { token: 'tok', email: ada.email, name: 'Ada', avatarUrl: null };

function setup(client: 'app' | 'browser' = 'app') {
  const tokenStore = new MemoryTokenStore(signedIn);
  const onAuthRequired = vi.fn();
  const http = createHttpClient({ baseUrl: server.origin, tokenStore, onAuthRequired });
  const auth = createAuthClient({ http, tokenStore, client, getCsrfToken: () => 'csrf-1' });
  return { auth, tokenStore, onAuthRequired };
}

/** The calls that send an address, with what each sends. */
const addressCalls: Array<{
  name: string;
  run: (auth: AuthClient, email: string) => Promise<unknown>;
  method: string;
  extra: Record<string, unknown>;
  sensitive: boolean;
}> = [
  { name: 'addEmail', run: (a, e) => a.addEmail(e), method: 'POST', extra: {}, sensitive: true },
  {
    name: 'makePrimaryEmail',
    run: (a, e) => a.makePrimaryEmail(e),
    method: 'PATCH',
    extra: { primary: true },
    sensitive: true,
  },
  {
    name: 'resendEmailVerification',
    run: (a, e) => a.resendEmailVerification(e),
    method: 'PUT',
    extra: {},
    sensitive: false,
  },
  { name: 'removeEmail', run: (a, e) => a.removeEmail(e), method: 'DELETE', extra: {}, sensitive: false },
];

/** allauth's 401 to a sensitive call after a sign-in older than 5 minutes. */
const reauthenticate = {
  status: 401,
  data: { user: ada, methods: [passwordMethod], flows: [{ id: 'reauthenticate' }] },
  meta: { is_authenticated: true },
};

describe('account/email (docs/auth.md "E-mail addresses")', () => {
  it('emailAddresses() is GET account/email with the session token, and gives the addresses', async () => {
    const { auth } = setup();
    await expect(auth.emailAddresses()).resolves.toEqual({ kind: 'email_addresses', addresses });
    expect(server.last()).toMatchObject({ method: 'GET', url: '/_allauth/app/v1/account/email' });
    expect(server.last().headers['x-session-token']).toBe('tok');
    expect(jsonBody(server.last())).toBeUndefined();
  });

  it.each(addressCalls)('$name is $method account/email with the address trimmed', async (call) => {
    const { auth } = setup();
    await call.run(auth, '  ada@lovelace.org ');
    expect(server.last()).toMatchObject({ method: call.method, url: '/_allauth/app/v1/account/email' });
    expect(server.last().headers['x-session-token']).toBe('tok');
    expect(jsonBody(server.last())).toEqual({ email: 'ada@lovelace.org', ...call.extra });
  });

  it('the list answers are email_addresses; a resend is ok', async () => {
    const { auth } = setup();
    const list = { kind: 'email_addresses', addresses };
    await expect(auth.addEmail('ada@lovelace.org')).resolves.toEqual(list);
    await expect(auth.makePrimaryEmail('ada@lovelace.org')).resolves.toEqual(list);
    await expect(auth.removeEmail('ada@lovelace.org')).resolves.toEqual(list);
    await expect(auth.resendEmailVerification('ada@lovelace.org')).resolves.toEqual({ kind: 'ok' });
  });

  it.each(addressCalls)(
    '$name throws InvalidInputError for a bad address and sends nothing',
    async (call) => {
      const { auth } = setup();
      for (const [email, message] of [
        ['   ', 'Email is required'],
        ['not-an-address', 'Please enter a valid email address'],
        [`${'a'.repeat(250)}@b.co`, 'Email must be at most 254 characters'],
      ] as const) {
        const error = await rejectionOf((async () => call.run(auth, email))());
        expect(InvalidInputError.isInstance(error), `${call.name}(${email})`).toBe(true);
        expect((error as InvalidInputError).issues[0]?.message).toBe(message);
      }
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each(addressCalls)("$name: a refused address is invalid on 'email'", async (call) => {
    answer(
      server,
      400,
      errors({ message: 'This e-mail address is not on your account.', code: 'invalid', param: 'email' }),
    );
    await expect(call.run(setup().auth, 'x@example.com')).resolves.toEqual({
      kind: 'invalid',
      fieldErrors: { email: [{ code: 'invalid', message: 'This e-mail address is not on your account.' }] },
      formErrors: [],
    });
  });

  it.each(addressCalls.filter((call) => call.sensitive))(
    '$name after an old sign-in is reauthentication_required with the flows',
    async (call) => {
      answer(server, 401, reauthenticate);
      const { auth, tokenStore, onAuthRequired } = setup();
      await expect(call.run(auth, 'ada@lovelace.org')).resolves.toEqual({
        kind: 'reauthentication_required',
        flows: [{ id: 'reauthenticate' }],
        user: ada,
      });
      expect(tokenStore.getToken()).toBe('tok');
      expect(onAuthRequired).not.toHaveBeenCalled();
    },
  );

  it.each(addressCalls.filter((call) => !call.sensitive))(
    '$name is not sensitive: reauthentication_required is not one of its answers',
    async (call) => {
      answer(server, 401, reauthenticate);
      expect(ResponseValidationError.isInstance(await rejectionOf(call.run(setup().auth, 'a@b.co')))).toBe(
        true,
      );
    },
  );

  it('every call: signed out is unauthenticated; 429, 403 and 410 are the interruptions', async () => {
    const runs: Array<[string, (auth: AuthClient) => Promise<unknown>]> = [
      ['emailAddresses', (a) => a.emailAddresses()],
      ...addressCalls.map((call): [string, (auth: AuthClient) => Promise<unknown>] => [
        call.name,
        (a) => call.run(a, 'ada@lovelace.org'),
      ]),
    ];
    for (const [status, body, headers, expected] of [
      [401, unauthenticated(), {}, { kind: 'unauthenticated' }],
      [429, { status: 429 }, { 'retry-after': '120' }, { kind: 'rate_limited', retryAfterSeconds: 120 }],
      [403, { status: 403 }, {}, { kind: 'forbidden' }],
      [410, sessionGone, {}, { kind: 'session_gone' }],
    ] as const) {
      answer(server, status, body, headers);
      for (const [name, run] of runs) {
        await expect(run(setup().auth), `${name} answered ${status}`).resolves.toMatchObject(expected);
      }
    }
  });

  it('a session_gone answer clears the stored token', async () => {
    answer(server, 410, sessionGone);
    const { auth, tokenStore } = setup();
    await auth.emailAddresses();
    expect(tokenStore.getToken()).toBeNull();
  });

  it('a list with a malformed address is a ResponseValidationError', async () => {
    answer(server, 200, {
      status: 200,
      data: [{ email: 'ada@example.com', primary: 'yes', verified: true }],
    });
    expect(ResponseValidationError.isInstance(await rejectionOf(setup().auth.emailAddresses()))).toBe(true);
  });

  it('the browser client sends the CSRF token with the unsafe calls, not with the list', async () => {
    const { auth } = setup('browser');
    await auth.emailAddresses();
    expect(server.last().headers['x-csrftoken']).toBeUndefined();
    for (const call of addressCalls) {
      await call.run(auth, 'ada@lovelace.org');
      expect(server.last(), call.name).toMatchObject({
        method: call.method,
        url: '/_allauth/browser/v1/account/email',
      });
      expect(server.last().headers['x-csrftoken']).toBe('csrf-1');
    }
  });
});
