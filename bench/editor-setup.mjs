// What the editor benchmarks share: the built server with one verified account and the 200-page plan
// (made through the real API), headless Debian Chromium, and a signed-in browser profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startBuiltServer } from './built-server.mjs';
import { generatePlan, planStats } from './editor-plan.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));

export const PASSWORD = 'a-sturdy-benchmark-passphrase';
export const EMAIL = 'bench-editor@example.com';
export const VIEWPORT = { width: 1280, height: 900 };
export const EDITOR = '[aria-label="Document editor"]';

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function json(url, { method = 'GET', body, headers = {} } = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

async function verificationKey(outboxDir, email) {
  // Imported here, not at the top: the benchmark builds the server first.
  const { lastKeyFor } = await import(join(root, 'packages/server/dist/index.js'));
  for (let attempt = 0; attempt < 100; attempt++) {
    const key = await lastKeyFor(outboxDir, email, '/account/verify-email/').catch(() => undefined);
    if (key) return key;
    await delay(50);
  }
  throw new Error(`no verification e-mail for ${email} in ${outboxDir}`);
}

/** Signs up and verifies {@link EMAIL} through allauth's app client and the outbox; answers a session token. */
async function verifiedSession(url, outboxDir) {
  await json(`${url}/_allauth/app/v1/auth/signup`, {
    method: 'POST',
    body: { email: EMAIL, password: PASSWORD, terms_agreement: true, phone_number_x: '' },
  });
  const key = await verificationKey(outboxDir, EMAIL);
  await json(`${url}/_allauth/app/v1/auth/email/verify`, { method: 'POST', body: { key } });
  const login = await json(`${url}/_allauth/app/v1/auth/login`, {
    method: 'POST',
    body: { email: EMAIL, password: PASSWORD },
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  return login.body.meta.session_token;
}

/**
 * Starts the built server (optionally serving another web build from `webDir`, with more `env`), signs up a
 * user and makes the 200-page plan: `POST documents/` from the default blueprint, then `PATCH` of the
 * generated content, which the server normalises (`generate: false` keeps the default plan as made).
 * `close()` stops the server and removes its data directory.
 */
export async function startPlanServer({ webDir, env = {}, generate = true } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-editor-'));
  const server = await startBuiltServer(dataDir, {
    ...(webDir ? { PLANWRIGHT_WEB_DIR: webDir } : {}),
    ...env,
  });
  try {
    const token = await verifiedSession(server.url, join(dataDir, 'outbox'));
    const api = `${server.url}/api/v1`;
    const auth = { 'x-session-token': token };
    const created = await json(`${api}/documents/`, {
      method: 'POST',
      headers: auth,
      body: { title: 'Benchmark plan (200 pages)' },
    });
    if (created.status !== 201)
      throw new Error(`POST documents/ answered ${created.status}: ${created.text}`);
    const filled = generate
      ? await json(`${api}/documents/${created.body.uuid}/`, {
          method: 'PATCH',
          headers: auth,
          body: { content: generatePlan(created.body.content) },
        })
      : { status: 200, body: created.body };
    if (filled.status !== 200) throw new Error(`PATCH of the plan answered ${filled.status}: ${filled.text}`);
    const document = filled.body;
    return {
      url: server.url,
      /** The server process, for its memory. */
      pid: server.pid,
      token,
      document,
      stats: {
        ...planStats(document.content),
        contentBytes: Buffer.byteLength(JSON.stringify(document.content)),
      },
      /** The document as the server has it now. */
      read: () => json(`${api}/documents/${document.uuid}/`, { headers: auth }).then((r) => r.body),
      close: async () => {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Headless Debian Chromium with the flags of tests/support/browser.ts; nothing is ever downloaded. */
export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Signs in through the app's own sign-in page and answers the profile's storage (the session token). */
export async function signedInState(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/account/signin`);
    await page.getByLabel('Email', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`${url}/dashboard`);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** The path of the editor for `document`, with its section and subsection selected when given. */
export function editorPath(document, selection) {
  const query = selection ? `?section=${selection.section}&subsection=${selection.subsection}` : '';
  return `/dashboard/documents/${document.uuid}/edit${query}`;
}

/** A middle subsection of the plan: of the 6th of 12 sections, the one before the middle. */
export function middleSubsection(content) {
  const section = content.content[Math.floor(content.content.length / 2) - 1];
  const subsections = section.content.filter((node) => node.type === 'subsection');
  return {
    section: section.attrs.uuid,
    subsection: subsections[Math.floor(subsections.length / 2) - 1].attrs.uuid,
  };
}
