import { createAuthClient, createPlanwrightClient, MemoryTokenStore } from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { nodeSocketFactory, waitForSnapshot } from '../support/chat-session-node.js';
import { TEST_PASSWORD } from '../support/sdk-accounts.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * Issue 20 item 5: the server's whole log over a full session (sign-up, e-mail verification, login, chat over
 * the socket, password reset, export; the app and the browser client) holds none of the tokens and keys it
 * issued. Every secret is collected from the wire as the client sees it, so a new kind of token is caught too.
 */

let server: ServerProcess;
let log = '';
/** Every secret that crossed the wire, by where it was seen. */
const secrets = new Map<string, string>();

function remember(value: unknown, where: string): void {
  // Short values (ids, `true`) are no secrets and would match anything.
  if (typeof value === 'string' && value.length >= 16 && !secrets.has(value)) secrets.set(value, where);
}

/** Field names whose values are secrets, in any JSON answer or request body. */
const SECRET_FIELD = /token|key|jwt|password|secret/i;

function collectFromJson(value: unknown, where: string): void {
  if (Array.isArray(value)) for (const item of value) collectFromJson(item, where);
  else if (value && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      if (SECRET_FIELD.test(name)) remember(inner, `${where} ${name}`);
      collectFromJson(inner, where);
    }
  }
}

/** `fetch` that notes every credential it sends or receives: headers, cookies and JSON fields. */
const recordingFetch: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  for (const name of ['authorization', 'x-session-token', 'x-csrftoken']) {
    const value = headers.get(name);
    if (value) remember(value.replace(/^Bearer /i, ''), `request ${name}`);
  }
  if (typeof init?.body === 'string') {
    try {
      collectFromJson(JSON.parse(init.body), 'request body');
    } catch {
      // Not JSON: a form or text body holds no field names to read.
    }
  }
  const response = await fetch(input, init);
  for (const line of response.headers.getSetCookie())
    remember(line.split(';')[0]?.split('=')[1], 'set-cookie');
  if (response.headers.get('content-type')?.includes('json')) {
    collectFromJson(await response.clone().json(), `answer of ${String(input)}`);
  }
  return response;
};

/** The smallest browser cookie jar over `recordingFetch`, for the allauth browser client. */
function cookieJarFetch() {
  const jar = new Map<string, string>();
  const jarFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await recordingFetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
      if (/Max-Age=0/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return { jar, fetch: jarFetch };
}

/** Opens a raw socket and resolves with how it closed (or `authenticated`). */
function socketOutcome(url: string, options: { token?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ code: number; reason: string } | 'authenticated'>((resolve, reject) => {
    const ws = new WebSocket(url, { headers: options.headers ?? {} });
    ws.on('open', () => {
      if (options.token) ws.send(JSON.stringify({ type: 'authenticate', token: options.token }));
    });
    ws.on('message', (data) => {
      if (String(data).includes('"authenticated"')) {
        ws.close(1000);
        resolve('authenticated');
      }
    });
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on('error', reject);
  });
}

beforeAll(async () => {
  // The most the server ever logs: every request, at every level.
  server = await startServerProcess({
    env: { LOG_LEVEL: 'trace', LOG_FORMAT: 'json' },
    onOutput: (text) => {
      log += text;
    },
  });
}, 90_000);

afterAll(async () => {
  await server?.close();
});

describe('no secret in the server log (issue 20 item 5)', () => {
  it('a full session leaves none of the tokens and keys it issued in the log', async () => {
    const email = 'founder@example.com';
    const tokenStore = new MemoryTokenStore();
    tokenStore.subscribe(() => remember(tokenStore.getToken(), 'token store'));
    const client = createPlanwrightClient({ baseUrl: server.url, tokenStore, fetch: recordingFetch });

    // Sign-up and e-mail verification, the key read from the outbox as a user would.
    expect((await client.auth.signup({ email, password: TEST_PASSWORD, terms_agreement: true })).kind).toBe(
      'pending',
    );
    const verifyKey = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
    remember(verifyKey, 'verification key');
    // The user clicks the link: the browser asks the server for the page whose path holds the key.
    await recordingFetch(`${server.url}/account/verify-email/${encodeURIComponent(verifyKey)}`);
    expect((await client.auth.getEmailVerification(verifyKey)).kind).toBeDefined();
    expect((await client.auth.verifyEmail(verifyKey)).kind).toBe('authenticated');

    // Log out and in again: a new session token.
    await client.auth.logout();
    expect((await client.auth.login({ email, password: TEST_PASSWORD })).kind).toBe('authenticated');
    const appToken = tokenStore.getToken() as string;

    // Chat over the socket with the SDK's session: the token goes in the first frame.
    const doc = await client.documents.create({ title: 'Bakery plan' });
    const section = outlineOf(doc.content).sections[0];
    const session = client.chatSession(
      { documentUuid: doc.uuid, sectionUuid: section?.uuid ?? null },
      { socketFactory: nodeSocketFactory, logger: { warn: () => {}, error: () => {} } },
    );
    session.connect();
    await waitForSnapshot(session, (s) => s.status === 'connected');
    session.send('Draft this section');
    await waitForSnapshot(session, (s) => !s.loading && s.messages.some((m) => m.role === 'ai'));
    session.dispose();

    // An old client with the token in the URL is refused, and its URL logged without it.
    const socketBase = `${server.url.replace('http', 'ws')}/ws/document/${doc.uuid}/chat/`;
    expect(await socketOutcome(`${socketBase}?token=${encodeURIComponent(appToken)}`)).toMatchObject({
      code: 4400,
    });
    // A REST call with a token in the query (a client's mistake) is logged without it as well.
    await recordingFetch(`${server.url}/api/v1/documents/?token=${encodeURIComponent(appToken)}&page=1`);

    // Exports: Markdown, and .docx and PDF through a conversion token (a JWT).
    expect(await client.documents.exportMarkdown(doc.uuid)).toBeTruthy();
    const { content } = await client.documents.get(doc.uuid);
    if (!content) throw new Error('the new document has no content');
    for (const format of ['docx', 'pdf'] as const) {
      const file = await client.conversion.exportDocument(content, format, { title: 'Bakery plan' });
      expect(file.bytes.byteLength).toBeGreaterThan(100);
    }

    // The browser client: CSRF cookie, session cookie, and a chat socket on that cookie alone.
    const { jar, fetch: jarFetch } = cookieJarFetch();
    const browserStore = new MemoryTokenStore();
    const browser = createAuthClient({
      http: createPlanwrightClient({ baseUrl: server.url, tokenStore: browserStore, fetch: jarFetch }).http,
      tokenStore: browserStore,
      client: 'browser',
      getCsrfToken: () => jar.get('csrftoken'),
    });
    await browser.fetchCsrf();
    expect((await browser.login({ email, password: TEST_PASSWORD })).kind).toBe('authenticated');
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    expect(await socketOutcome(socketBase, { headers: { cookie, origin: server.url } })).toBe(
      'authenticated',
    );

    // Password reset: the key from the outbox, a new password, and a login with it.
    expect((await client.auth.requestPasswordReset(email)).kind).toBe('ok');
    const resetKey = await lastKeyFor(server.outboxDir, email, '/account/password/reset/key/');
    remember(resetKey, 'password reset key');
    await recordingFetch(`${server.url}/account/password/reset/key/${encodeURIComponent(resetKey)}`);
    expect((await client.auth.getPasswordReset(resetKey)).kind).toBe('valid_key');
    const newPassword = 'an-entirely-new-passphrase';
    remember(newPassword, 'new password');
    remember(TEST_PASSWORD, 'password');
    expect((await client.auth.resetPassword({ key: resetKey, password: newPassword })).kind).toBe(
      'unauthenticated',
    );
    expect((await client.auth.login({ email, password: newPassword })).kind).toBe('authenticated');

    // What was collected: every kind the session issues, so a blind spot in the recorder fails here.
    const kinds = [...secrets.values()].join('\n');
    for (const kind of [
      'verification key',
      'password reset key',
      'auth/signup session_token',
      'auth/login session_token',
      'convert/jwt/ token',
      'set-cookie',
    ])
      expect(kinds).toContain(kind);
    expect(secrets.size).toBeGreaterThanOrEqual(10);

    // The log is real: it saw the requests, the refused socket and the e-mails.
    await expect.poll(() => log).toContain('e-mail written to');
    expect(log).toContain('/ws/document/');
    // As sent, and percent-encoded as a URL would carry it.
    const leaks = [...secrets]
      .filter(([value]) => log.includes(value) || log.includes(encodeURIComponent(value)))
      .map(([, where]) => where);
    expect(leaks).toEqual([]);
    expect(log).toContain('[redacted]');
    expect(log).toContain('/account/verify-email/[redacted]');
    expect(log).toContain('/account/password/reset/key/[redacted]');
    expect(log).toContain('/api/v1/apps/tiptap/convert/export/');
  });
});
