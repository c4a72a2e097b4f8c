import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/** Debian's Chromium (see CHROMIUM in system-packages.ts); no browser is ever downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Starts headless Debian Chromium. The flags keep it from talking to anything but the page under test
 * (no updates, no sync, no background requests) and make it run as root in a container.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
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

/** Console errors and uncaught page errors seen by a page, for a test to assert there were none. */
export interface PageProblems {
  readonly list: readonly string[];
}

/** A console error a test expects (say, the failed load of a request it blocked on purpose). */
export interface ExpectedConsoleError {
  text: RegExp;
  /** The URL the console attributes the message to. */
  url: RegExp;
}

/** Starts recording every console error and uncaught exception of `page`, except the expected ones. */
export function recordPageProblems(page: Page, expected: readonly ExpectedConsoleError[] = []): PageProblems {
  const list: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url, lineNumber } = message.location();
    if (expected.some((allowed) => allowed.text.test(message.text()) && allowed.url.test(url))) return;
    list.push(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => list.push(`page error: ${error.stack ?? error.message}`));
  return { list };
}

/**
 * Chromium logs every 4xx answer to a `fetch` as a console error. allauth answers with them as protocol
 * outcomes, not failures: 401 is "not signed in" (which a successful sign-up, sign-out or password reset
 * answers), 400 a refused input the page shows in words, and 404 to `account/authenticators/totp` "two-factor
 * is off" (with the secret to set it up). Only those, and only from `/_allauth/`.
 */
export const ALLAUTH_PROTOCOL_ANSWERS: ExpectedConsoleError = {
  text: /^Failed to load resource: the server responded with a status of 40[014] /,
  url: /\/_allauth\/(app|browser)\/v1\//,
};

/** A real server and Chromium for one test file; see {@link useBrowserHarness}. */
export interface BrowserHarness {
  /** The running server (set once `beforeAll` has run). */
  readonly server: TestServer;
  /**
   * A fresh browser profile (empty storage) whose requests never leave the machine: anything not for
   * the test server is aborted. Console errors and page errors fail the test, except `expected` ones.
   */
  openPage(
    options?: BrowserContextOptions,
    settings?: { expected?: readonly ExpectedConsoleError[]; installClock?: boolean },
  ): Promise<Page>;
}

/**
 * Starts the real server and Chromium before the file's tests and stops them after; closes each test's
 * pages and fails the test on any unexpected console or page error. `serverOptions` may be a function,
 * called in `beforeAll`, for options known only once something else has started (a local AI service).
 */
export function useBrowserHarness(
  serverOptions: TestServerOptions | (() => Promise<TestServerOptions>) = {},
  contextDefaults: BrowserContextOptions = {},
): BrowserHarness {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const problems: PageProblems[] = [];

  beforeAll(async () => {
    const options = typeof serverOptions === 'function' ? await serverOptions() : serverOptions;
    [server, browser] = await Promise.all([startTestServer(options), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async () => {
    const seen = problems.flatMap((recorded) => recorded.list);
    await Promise.all(contexts.map((context) => context.close()));
    contexts.length = 0;
    problems.length = 0;
    expect(seen, 'console errors or page errors').toEqual([]);
  });

  return {
    get server() {
      if (!server) throw new Error('the test server is not running (used outside a test?)');
      return server;
    },
    async openPage(options = {}, settings = {}) {
      if (!browser || !server) throw new Error('the browser is not running (used outside a test?)');
      const origin = server.url;
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        ...contextDefaults,
        ...options,
      });
      contexts.push(context);
      await context.route(
        (url) => url.origin !== origin,
        (route) => route.abort('blockedbyclient'),
      );
      // Playwright's clock: time flows as usual, and a test can jump over timers instead of sleeping.
      if (settings.installClock) await context.clock.install();
      const page = await context.newPage();
      problems.push(recordPageProblems(page, settings.expected ?? []));
      return page;
    },
  };
}
