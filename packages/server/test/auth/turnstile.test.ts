import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * A local stand-in for Cloudflare's siteverify endpoint, speaking its wire format: a form POST of
 * secret/response/remoteip, answered `{success, "error-codes"}`.
 */
let siteverify: Server;
let siteverifyUrl = '';
const received: URLSearchParams[] = [];
const answers: Record<string, { success: boolean; 'error-codes'?: string[] }> = {
  'good-token': { success: true },
  'stale-token': { success: false, 'error-codes': ['timeout-or-duplicate'] },
  'bad-token': { success: false, 'error-codes': ['invalid-input-response'] },
};

let t: TestApp;
let ip = 0;

beforeAll(async () => {
  siteverify = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      if (form.get('response') === 'broken-answer') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
        return;
      }
      const answer =
        form.get('secret') === 'turnstile-secret'
          ? (answers[form.get('response') ?? ''] ?? {
              success: false,
              'error-codes': ['invalid-input-response'],
            })
          : { success: false, 'error-codes': ['invalid-input-secret'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
  const address = siteverify.address();
  siteverifyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/turnstile/v0/siteverify`;
  t = await createTestApp({ TURNSTILE_SECRET: 'turnstile-secret', TURNSTILE_VERIFY_URL: siteverifyUrl });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => siteverify?.close(resolve));
});

async function signUp(token: string | undefined) {
  ip++;
  return t.app.inject({
    method: 'POST',
    url: '/_allauth/app/v1/auth/signup',
    remoteAddress: `10.9.0.${ip}`,
    payload: {
      email: `captcha-${ip}@example.com`,
      password: 'a-sturdy-passphrase',
      terms_agreement: true,
      phone_number_x: '',
      ...(token === undefined ? {} : { turnstile_token: token }),
    },
  });
}

describe('sign-up captcha (Turnstile)', () => {
  it('accepts a token the siteverify service confirms, sending secret, token and the client address', async () => {
    const res = await signUp('good-token');
    expect(res.statusCode).toBe(401);
    expect(res.json().data.flows).toContainEqual({ id: 'verify_email', is_pending: true });
    const form = received.at(-1);
    expect(form?.get('secret')).toBe('turnstile-secret');
    expect(form?.get('response')).toBe('good-token');
    expect(form?.get('remoteip')).toBe(`10.9.0.${ip}`);
  });

  it.each([
    [undefined, 'invalid_captcha'],
    ['bad-token', 'invalid_captcha'],
    ['stale-token', 'captcha_timeout'],
    ['broken-answer', 'invalid_captcha'],
  ])('refuses token %j with %s on turnstile_token, creating nothing', async (token, code) => {
    const res = await signUp(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(expect.objectContaining({ param: 'turnstile_token', code }));
    expect(await t.storage.users.findByEmail(`captcha-${ip}@example.com`)).toBeUndefined();
  });

  it('refuses when the siteverify service cannot be reached, without a 5xx', async () => {
    const unreachable = await createTestApp({
      TURNSTILE_SECRET: 'turnstile-secret',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
    });
    try {
      const res = await unreachable.app.inject({
        method: 'POST',
        url: '/_allauth/app/v1/auth/signup',
        payload: {
          email: 'nobody@example.com',
          password: 'a-sturdy-passphrase',
          terms_agreement: true,
          turnstile_token: 'x',
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ param: 'turnstile_token', code: 'invalid_captcha' });
    } finally {
      await unreachable.close();
    }
  });

  it('is not asked for when no secret is configured', async () => {
    const open = await createTestApp();
    try {
      const res = await open.app.inject({
        method: 'POST',
        url: '/_allauth/app/v1/auth/signup',
        payload: { email: 'open@example.com', password: 'a-sturdy-passphrase', terms_agreement: true },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await open.close();
    }
  });
});
