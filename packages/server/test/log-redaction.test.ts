import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSecretParameter, REDACTED, redactUrl } from '../src/http/log-redaction.js';
import { createSignedInUser, type SignedInUser } from './support/signed-in-user.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('redactUrl', () => {
  it('blanks token, key and other secret parameters, keeps everything else byte for byte', () => {
    expect(redactUrl('/a/b')).toBe('/a/b');
    expect(redactUrl('/a?page=2&sort=-title')).toBe('/a?page=2&sort=-title');
    expect(redactUrl('/ws/document/d/chat/?token=abc.def')).toBe(`/ws/document/d/chat/?token=${REDACTED}`);
    expect(redactUrl('/x?page=2&key=k1&access_token=t&API_KEY=z&q=a%20b')).toBe(
      `/x?page=2&key=${REDACTED}&access_token=${REDACTED}&API_KEY=${REDACTED}&q=a%20b`,
    );
    expect(redactUrl('/cb?code=c0de&state=s7&x=1')).toBe(`/cb?code=${REDACTED}&state=${REDACTED}&x=1`);
    // An encoded name is still a token's name; a bare name without a value is marked too.
    expect(redactUrl('/x?%74oken=abc&token&password=p')).toBe(
      `/x?%74oken=${REDACTED}&token=${REDACTED}&password=${REDACTED}`,
    );
    // The e-mailed links' pages carry their key in the path.
    expect(redactUrl('/account/verify-email/Mzk6MTc0:k3y')).toBe(`/account/verify-email/${REDACTED}`);
    expect(redactUrl('/account/password/reset/key/abc-def?next=/x')).toBe(
      `/account/password/reset/key/${REDACTED}?next=/x`,
    );
    expect(redactUrl('/account/verify-email/')).toBe('/account/verify-email/');
    expect(redactUrl('/x/account/verify-email/abc')).toBe('/x/account/verify-email/abc');
    // A share link's token is its path; the reader page's own files are not secrets.
    expect(redactUrl(`/s/${'a'.repeat(43)}/download/pdf`)).toBe(`/s/${REDACTED}/download/pdf`);
    expect(redactUrl('/s/_/reader.0123abcd.css')).toBe('/s/_/reader.0123abcd.css');
    // A malformed escape neither throws nor hides a secret behind it.
    expect(redactUrl('/x?%E0%A4%A=1&token=abc')).toBe(`/x?%E0%A4%A=1&token=${REDACTED}`);
  });

  it('names secret parameters case-insensitively', () => {
    for (const name of ['token', 'Token', 'session_token', 'key', 'apikey', 'secret', 'jwt', 'code', 'STATE'])
      expect(isSecretParameter(name), name).toBe(true);
    for (const name of ['page', 'q', 'target', 'object_id', 'decode', 'estate'])
      expect(isSecretParameter(name), name).toBe(false);
  });
});

describe('the server log', () => {
  let t: TestApp;
  let alice: SignedInUser;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp(
      {},
      {
        logger: { level: 'trace', stream },
        // A route that logs what a careless handler might: the request and its headers.
        routes: (app) =>
          app.get('/api/v1/log-probe', async (request) => {
            request.log.info({ req: request, headers: request.headers }, 'probe');
            return { ok: true };
          }),
      },
    );
    alice = await createSignedInUser(t, { email: 'alice@example.com' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('never holds a credential header or a token/key query value, yet still logs the request', async () => {
    const secrets = {
      token: 'query-token-7f3a9c',
      key: 'query-key-51be02',
      bearer: 'bearer-2c8e44',
      cookie: 'cookie-sess-9d01aa',
      csrf: 'csrf-77aa31',
    };
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/log-probe?page=3&token=${secrets.token}&key=${secrets.key}`,
      headers: {
        authorization: `Bearer ${secrets.bearer}`,
        'x-session-token': alice.token,
        cookie: `sessionid=${secrets.cookie}; csrftoken=${secrets.csrf}`,
        'x-csrftoken': secrets.csrf,
        'x-email-verification-key': secrets.key,
        'x-password-reset-key': secrets.key,
      },
    });
    expect(res.statusCode).toBe(200);
    // A refused call with a token in its query is logged without it too.
    const refused = await t.app.inject({ method: 'GET', url: `/api/v1/documents/?token=${secrets.token}` });
    expect(refused.statusCode).toBe(401);

    const log = lines.join('\n');
    for (const secret of [...Object.values(secrets), alice.token]) expect(log).not.toContain(secret);
    const probe = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((l) => l.msg === 'probe');
    expect(probe?.req).toMatchObject({
      method: 'GET',
      url: `/api/v1/log-probe?page=3&token=${REDACTED}&key=${REDACTED}`,
    });
    expect(probe?.headers).toMatchObject({
      authorization: REDACTED,
      'x-session-token': REDACTED,
      cookie: REDACTED,
      'x-csrftoken': REDACTED,
      'x-email-verification-key': REDACTED,
      'x-password-reset-key': REDACTED,
    });
    // Its one request line has the path alone: a query never reaches a request line.
    expect(log).toContain('"msg":"GET /api/v1/documents/ 401');
  });
});
