import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENT_SAVE_DEBOUNCE_MS, type DocumentDetail } from '@planwright/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildEmbeddedSdk } from '../../examples/browser/build.mjs';
import { type EmbeddedSdkServer, startEmbeddedSdkServer } from '../../examples/browser/serve.mjs';
import {
  ALLAUTH_PROTOCOL_ANSWERS,
  launchBrowser,
  type PageProblems,
  recordPageProblems,
} from '../support/browser.js';
import { withNotes } from '../support/chat-page.js';
import { type SdkAccount, signUpWithSdk, TEST_PASSWORD } from '../support/sdk-accounts.js';
import { freePort, startTestServer, type TestServer } from '../support/test-server.js';

/** A title that would run script if the page ever parsed a server text as HTML (INT-E8). */
const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1">Plan & "quotes"';
const EMAIL = 'embedded-sdk@example.com';

let server: TestServer;
let page: EmbeddedSdkServer;
let browser: Browser;
let account: SdkAccount;
let plan: DocumentDetail;
let outDir: string;
const contexts: BrowserContext[] = [];
const problems: PageProblems[] = [];

beforeAll(async () => {
  // INT-E7: the page's origin is the one users reach, so it is PUBLIC_URL; the proxy rewrites Host.
  const port = await freePort();
  outDir = mkdtempSync(join(tmpdir(), 'planwright-embedded-sdk-'));
  const serverReady = startTestServer({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
  [browser, , server] = await Promise.all([
    launchBrowser(),
    buildEmbeddedSdk({ outDir, source: true }),
    serverReady.then(async (started) => {
      await seedAccount(started);
      return started;
    }),
  ]);
  page = await startEmbeddedSdkServer({ root: outDir, upstream: server.url, port });
});

/** The account the page signs in as: two plans, one with a hostile title, and one finalized subsection. */
async function seedAccount(started: TestServer): Promise<void> {
  account = await signUpWithSdk(started, EMAIL);
  const [created] = await Promise.all([
    account.client.documents.create({ title: 'Embedded plan' }),
    account.client.documents.create({ title: HOSTILE_TITLE }),
  ]);
  // The plan's last subsection is finalized: the page must refuse to overwrite it.
  const lastSection = created.sections.at(-1);
  const lastSubsection = lastSection?.subsections.at(-1);
  if (!lastSection || !lastSubsection) throw new Error('the default blueprint has no subsection');
  await account.client.documents.sections.subsections.update(
    created.uuid,
    lastSection.uuid,
    lastSubsection.uuid,
    { finalized: true },
  );
  plan = await account.client.documents.get(created.uuid);
}

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

afterEach(async () => {
  const seen = problems.flatMap((recorded) => recorded.list);
  const violations = await Promise.all(
    contexts.flatMap((context) => context.pages()).map((open) => open.evaluate(() => window.__problems)),
  );
  await Promise.all(contexts.map((context) => context.close()));
  contexts.length = 0;
  problems.length = 0;
  expect(seen, 'console errors or page errors').toEqual([]);
  expect(violations.flat(), 'CSP violations or script run from a server text').toEqual([]);
});

declare global {
  interface Window {
    __problems: string[];
    __pwned?: number;
  }
}

/** A fresh profile on the page's origin only; CSP violations and a hostile title's script are recorded. */
async function openEmbeddedPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  contexts.push(context);
  await context.route(
    (url) => url.origin !== page.url,
    (route) => route.abort('blockedbyclient'),
  );
  await context.addInitScript(() => {
    window.__problems = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__problems.push(
        `CSP: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      ),
    );
    Object.defineProperty(window, '__pwned', {
      set: () => window.__problems.push('a server text ran as script'),
    });
  });
  await context.clock.install();
  const opened = await context.newPage();
  // The page asks `auth.session()` first: allauth answers 401 when nobody is signed in.
  problems.push(recordPageProblems(opened, [ALLAUTH_PROTOCOL_ANSWERS]));
  await opened.goto(`${page.url}/`);
  return opened;
}

async function signInThroughPage(opened: Page): Promise<void> {
  await opened.getByLabel('Email').fill(EMAIL);
  await opened.getByLabel('Password').fill(TEST_PASSWORD);
  await opened.getByRole('button', { name: 'Sign in' }).click();
  await opened.getByText(`Signed in as ${EMAIL}`).waitFor();
}

async function openPlan(opened: Page): Promise<void> {
  await opened.getByRole('button', { name: 'Embedded plan' }).click();
  await opened.getByRole('heading', { level: 2, name: 'Embedded plan' }).waitFor();
}

describe('examples/browser: the SDK in a page without a framework, behind its own origin', () => {
  it('INT-E6 INT-E7 INT-E8: signs in with the cookie session, lists the plans with progress, opens one', async () => {
    const opened = await openEmbeddedPage();
    await signInThroughPage(opened);

    const total = plan.progress.total;
    const embedded = opened.getByRole('listitem').filter({ hasText: 'Embedded plan' });
    expect(await embedded.textContent()).toContain(`${Math.round(100 / total)}% (1/${total}) finalized`);
    // INT-E8: the hostile title is text, never markup.
    await opened.getByRole('button', { name: HOSTILE_TITLE }).waitFor();
    expect(await opened.locator('#plan-list img').count()).toBe(0);

    // INT-E6: the session is the HttpOnly cookie of the page's origin; no token is kept in storage.
    const cookies = await opened.context().cookies(page.url);
    expect(cookies.find((cookie) => cookie.name === 'sessionid')?.httpOnly).toBe(true);
    expect(await opened.evaluate(() => Object.keys(localStorage))).toEqual([]);

    await openPlan(opened);
    for (const section of plan.sections) {
      await opened.locator('#sections').getByText(section.title, { exact: false }).first().waitFor();
    }
    expect(await opened.locator('#plan-text').textContent()).toContain(`# ${plan.sections[0]?.title}`);

    // A reload keeps the session: the cookie signs in again, without the form.
    await opened.reload();
    await opened.getByText(`Signed in as ${EMAIL}`).waitFor();
    expect(await opened.locator('#sign-in').isHidden()).toBe(true);

    await opened.getByRole('button', { name: 'Sign out' }).click();
    await opened.getByRole('button', { name: 'Sign in' }).waitFor();
    const left = await opened.context().cookies(page.url);
    expect(left.some((cookie) => cookie.name === 'sessionid')).toBe(false);
  });

  it('INT-E9: writes a subsection through the SaveController; a finalized one is refused', async () => {
    const opened = await openEmbeddedPage();
    await signInThroughPage(opened);
    await openPlan(opened);
    const section = plan.sections[0];
    const subsection = section?.subsections[0];
    if (!section || !subsection) throw new Error('the plan has no subsection');

    await opened.getByLabel('Subsection', { exact: true }).selectOption(subsection.uuid);
    const text = 'Our bakery sells sourdough to **40 cafés** in Lyon.';
    await opened.getByLabel(/^New text/).fill(text);
    await opened.clock.runFor(DOCUMENT_SAVE_DEBOUNCE_MS);
    await expect
      .poll(() => opened.locator('#save-status').textContent())
      .toMatch(/^(Saved|All changes saved)$/);

    const saved = await account.client.documents.get(plan.uuid);
    expect(saved.revision).toBeGreaterThan(plan.revision ?? 0);
    expect(JSON.stringify(saved.content)).toContain('40 cafés');
    expect(JSON.stringify(saved.content)).toContain('"bold"');
    expect(await opened.locator('#plan-text').textContent()).toContain('**40 cafés**');

    const finalizedSection = plan.sections.at(-1);
    const finalized = finalizedSection?.subsections.at(-1);
    if (!finalized) throw new Error('the plan has no finalized subsection');
    await opened.getByLabel('Subsection', { exact: true }).selectOption(finalized.uuid);
    await opened.getByLabel(/^New text/).fill('This must not land.');
    await opened.clock.runFor(DOCUMENT_SAVE_DEBOUNCE_MS);
    await expect
      .poll(() => opened.locator('#save-status').textContent())
      .toMatch(/^Not saved: .*Un-finalize the subsection to apply it\.$/);
    const after = await account.client.documents.get(plan.uuid);
    expect(after.revision).toBe(saved.revision);
    expect(JSON.stringify(after.content)).not.toContain('This must not land.');
  });

  it('INT-E10: chats about a subsection over the browser WebSocket through the proxy', async () => {
    const subsection = plan.sections[0]?.subsections[0];
    if (!subsection) throw new Error('the plan has no subsection');
    // Notes of the user's own: the offline assistant proposes only edits built from them.
    const notes = 'Bakery in Berlin. Three staff. Opening in May 2025.';
    await withNotes(account.client, await account.client.documents.get(plan.uuid), subsection.uuid, notes);
    const opened = await openEmbeddedPage();
    await signInThroughPage(opened);
    await openPlan(opened);
    await opened.getByLabel('Subsection', { exact: true }).selectOption(subsection.uuid);
    await expect.poll(() => opened.locator('#chat-status').textContent()).toBe('connected');

    await opened.getByLabel('Message').fill('Please turn these notes into bullet points.');
    await opened.getByRole('button', { name: 'Send' }).click();
    const chat = opened.getByRole('list', { name: 'Chat' });
    await chat.getByText('You: Please turn these notes into bullet points.').waitFor();
    await chat.getByText(/^AI: \*\*Offline assistant\*\*/).waitFor();
    await expect
      .poll(() => opened.locator('#chat-status').textContent(), { timeout: 15_000 })
      .toContain('1 proposal(s)');

    const chats = await account.client.chats.list({
      target: 'subsection',
      objectId: subsection.uuid,
      documentUuid: plan.uuid,
    });
    expect(chats.total).toBe(1);
  });

  it('INT-E7: the server takes the page origin (PUBLIC_URL) through the proxy, and no other', async () => {
    const login = (origin: string) =>
      fetch(`${page.url}/_allauth/browser/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ email: EMAIL, password: TEST_PASSWORD }),
      }).then(async (answer) => ({ status: answer.status, body: await answer.text() }));
    const foreign = await login('http://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('origin_not_allowed');
    // The page's own origin passes the Origin check; without the CSRF cookie it stops at the next one.
    const own = await login(page.url);
    expect(own.status).toBe(403);
    expect(own.body).toContain('csrf_failed');
  });
});
