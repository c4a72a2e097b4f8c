// Accounts for benchmarks: many verified users made through the server's own sign-up flow (the
// verification key read from the outbox), each request from its own loopback address (127.0.1.x) so the
// per-address sign-up and login limits stay on without capping the set-up.
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const { lastKeyFor } = await import(join(root, 'packages/server/dist/index.js'));

/** The `index`-th of 250 loopback source addresses (127.0.1.1 … 127.0.1.250). */
export function loopbackAddress(index) {
  return `127.0.1.${(index % 250) + 1}`;
}

/** One HTTP request; resolves with status, headers and text whatever the status. */
export function call(url, { method = 'GET', body, headers = {}, localAddress, agent } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        localAddress,
        agent,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Like {@link call}, with the body parsed; throws on a 4xx or 5xx answer. */
export async function json(url, options = {}) {
  const res = await call(url, options);
  if (res.status >= 400)
    throw new Error(`${options.method ?? 'GET'} ${url} answered ${res.status}: ${res.text}`);
  return { ...res, body: res.text ? JSON.parse(res.text) : undefined };
}

/**
 * Signs `email` up and verifies the address with the key the server wrote to `dataDir`'s outbox. Both
 * answer 401 (allauth: a flow is pending, then "log in next"); the account is verified afterwards.
 */
export async function signUpVerified(serverUrl, dataDir, email, password, localAddress) {
  const signup = await call(`${serverUrl}/_allauth/app/v1/auth/signup`, {
    method: 'POST',
    localAddress,
    body: { email, password, terms_agreement: true, phone_number_x: '' },
  });
  if (signup.status !== 401) throw new Error(`sign-up of ${email} answered ${signup.status}: ${signup.text}`);
  const key = await lastKeyFor(join(dataDir, 'outbox'), email, '/account/verify-email/');
  const verify = await call(`${serverUrl}/_allauth/app/v1/auth/email/verify`, {
    method: 'POST',
    localAddress,
    body: { key },
  });
  if (verify.status !== 401 && verify.status !== 200)
    throw new Error(`verifying ${email} answered ${verify.status}: ${verify.text}`);
}

/** Signs in as an app client; resolves with the session token and the request's wall time. */
export async function signIn(serverUrl, email, password, localAddress) {
  const started = performance.now();
  const login = await json(`${serverUrl}/_allauth/app/v1/auth/login`, {
    method: 'POST',
    localAddress,
    body: { email, password },
  });
  return { token: login.body.meta.session_token, ms: performance.now() - started };
}

/** Runs `work(i)` for i in 0…count-1, at most `parallel` at a time. */
export async function inParallel(count, parallel, work) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}
