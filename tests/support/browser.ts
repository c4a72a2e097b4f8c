import { type Browser, chromium, type Page } from 'playwright-core';

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
 * answers) and 400 a refused input the page shows in words. Only those, and only from `/_allauth/`.
 */
export const ALLAUTH_PROTOCOL_ANSWERS: ExpectedConsoleError = {
  text: /^Failed to load resource: the server responded with a status of 40[01] /,
  url: /\/_allauth\/(app|browser)\/v1\//,
};
