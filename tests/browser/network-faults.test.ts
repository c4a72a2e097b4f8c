/**
 * The web app through network faults (issue 10): real Chromium that reaches the real server only through
 * tests/support/fault-proxy.ts (the page is opened at the proxy's address), faults drawn from a seeded PRNG
 * (NF1), and the server's side read with the SDK straight from the server. NF1–NF5 are the SDK/CLI rules in
 * tests/integration/network-faults.test.ts.
 *
 * NF6 Autosave. Text typed while every connection is reset and new ones are refused shows the badge
 *     `Error saving | Offline — retrying` (spec 001 §4, web W8); once connections pass again the
 *     controller's retry saves it (SDK S7, S8). A fault in the middle of a save (the request held then reset
 *     before the server saw it; held past the 30 s write time-out, S27; or stored by the server with its
 *     answer lost, S11) also ends with the badge `Saved`, no conflict shown, and the server holding exactly
 *     the typed text.
 *     The server saves whole documents over REST here (`LIVE_DOCUMENTS=off`), the path these faults test;
 *     a live plan through the same faults is tests/browser/live-editing.test.ts and, below the browser,
 *     LF1–LF3 in tests/integration/live-faults.test.ts.
 * NF7 Chat. With the offline AI provider, messages sent while the proxy resets the WebSocket (before or right
 *     after a send) reach the server once: the panel shows its `Connection Error` banner while it waits to
 *     reconnect (web K18, SDK C21), reconnects (C9) and resynchronises (C47), and at the end every user
 *     message and every answer shows exactly once, in order, as the server's stored history has them.
 */
import {
  ChatSession,
  type ChatSnapshot,
  createPlanwrightClient,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import { ManualClock } from '@planwright/sdk/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserHarness,
  type ExpectedConsoleError,
  launchBrowser,
  type PageProblems,
  recordPageProblems,
} from '../support/browser.js';
import { aiMessages, chatPanel, chatReady, firstParts, sendChatMessage } from '../support/chat-page.js';
import { nodeSocketFactory } from '../support/chat-session-node.js';
import {
  badgeText,
  type EditorUser,
  LONGEST_RETRY_MS,
  OFFLINE_BADGE,
  openEditor,
  REST_SAVING_SERVER,
  SAVE_DEBOUNCE_MS,
  STALE_DOCUMENT_WRITE,
  serverSubsectionText,
  signedInEditorUser,
  typeInSubsection,
  waitForSaved,
} from '../support/editor-page.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { seededRandom, seedFrom } from '../support/seeded-random.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const SEED = seedFrom('NETFAULT_SEED');
const random = seededRandom(SEED);

/** What Chromium logs itself when the proxy resets or refuses a connection (the faults this file makes). */
const CONNECTION_FAULTS: readonly ExpectedConsoleError[] = [
  {
    text: /^Failed to load resource: net::ERR_(CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE|SOCKET_NOT_CONNECTED)$/,
    url: /.*/,
  },
  { text: /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws\/document\/.+' failed/, url: /.*/ },
];

/** How long a poll waits: a first answer on a loaded 2-core CI machine can take seconds. */
const SETTLE = { timeout: 15_000 };

let server: TestServer;
let proxy: FaultProxy;
let browser: Browser;
const contexts: BrowserContext[] = [];
const problems: PageProblems[] = [];

beforeAll(async () => {
  console.log(`browser network-faults seed: ${SEED} (replay with NETFAULT_SEED=${SEED})`);
  [server, browser] = await Promise.all([startTestServer(REST_SAVING_SERVER), launchBrowser()]);
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
});
afterEach(async () => {
  proxy.resume();
  const seen = problems.flatMap((recorded) => recorded.list);
  await Promise.all(contexts.map((context) => context.close()));
  contexts.length = 0;
  problems.length = 0;
  expect(seen, 'console errors or page errors').toEqual([]);
});

/**
 * The browser's view of the server: the proxy's address. Pages may reach nothing else; the sign-in and
 * editor helpers open their pages here, and the outbox is the real server's.
 */
const viaProxy: BrowserHarness = {
  get server() {
    return { ...server, url: proxy.url };
  },
  async openPage(options = {}, settings = {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    contexts.push(context);
    await context.route(
      (url) => url.origin !== proxy.url,
      (route) => route.abort('blockedbyclient'),
    );
    if (settings.installClock) await context.clock.install();
    const page = await context.newPage();
    problems.push(recordPageProblems(page, [...CONNECTION_FAULTS, ...(settings.expected ?? [])]));
    return page;
  },
};

/** The SDK over the user's session, straight to the server (never through the proxy). */
function directClient(user: EditorUser): PlanwrightClient {
  return createPlanwrightClient({
    baseUrl: server.url,
    tokenStore: new MemoryTokenStore({ token: user.token }),
  });
}

/** Fisher–Yates with the seeded PRNG. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

type SaveFault = 'reset-held' | 'stall-timeout' | 'landed-answer-lost';
const SAVE_FAULTS: readonly SaveFault[] = ['reset-held', 'stall-timeout', 'landed-answer-lost'];

describe('the web app in Chromium through a faulty network', () => {
  it('NF1 NF6: autosave shows the error while the network is down and saves the typed text once it is back', async () => {
    const user = await signedInEditorUser(viaProxy, 'netfault-save@example.com', {
      installClock: true,
      // A save that landed with its answer lost: its retry meets its own revision (S11), a 412 Chromium logs.
      expected: [STALE_DOCUMENT_WRITE],
    });
    const client = directClient(user);
    const document = await client.documents.create({});
    const { subsection } = firstParts(document);
    const { page } = user;
    await openEditor(viaProxy, page, document.uuid);
    expect(page.url().startsWith(proxy.url)).toBe(true);

    let typed = 'Before the faults.';
    await typeInSubsection(page, subsection.uuid, typed);
    await waitForSaved(page);
    expect(await serverSubsectionText({ ...user, client }, document.uuid, subsection.uuid)).toBe(typed);

    // Down: every open connection reset, new ones refused (reset as they arrive).
    proxy.refuse();
    proxy.resetAll();
    await page.keyboard.type(' Offline one.');
    typed += ' Offline one.';
    await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
    await expect.poll(() => badgeText(page), SETTLE).toBe(OFFLINE_BADGE);
    await page.keyboard.type(' Offline two.');
    typed += ' Offline two.';
    proxy.resume();
    // The waiting retry (at most 30 s away on the page's clock) carries everything typed meanwhile.
    await page.clock.runFor(LONGEST_RETRY_MS);
    await expect.poll(() => badgeText(page), SETTLE).toBe('Saved');
    expect(await serverSubsectionText({ ...user, client }, document.uuid, subsection.uuid)).toBe(typed);

    // A fault in the middle of a save, each kind once, in a seeded order.
    // Document saves the page sends, and those Chromium gave up on (an aborted fetch logs no console error).
    const saves: string[] = [];
    const abandoned: string[] = [];
    const isSave = (method: string, url: string) => method === 'PATCH' && url.includes('/api/v1/documents/');
    page.on('request', (request) => {
      if (isSave(request.method(), request.url())) saves.push(request.url());
    });
    page.on('requestfailed', (request) => {
      if (isSave(request.method(), request.url())) abandoned.push(request.failure()?.errorText ?? '');
    });
    const order = shuffled(SAVE_FAULTS);
    for (const [round, fault] of order.entries()) {
      const before = (await client.documents.get(document.uuid)).revision;
      proxy.stallAll();
      const words = ` Round ${round} ${fault}.`;
      await page.keyboard.type(words);
      typed += words;
      await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
      // The save is out, its request held by the proxy.
      await expect.poll(() => badgeText(page), SETTLE).toBe('Saving…');
      // Refused too: Chromium resends a request whose reused connection was reset before any answer.
      if (fault === 'reset-held') {
        proxy.refuse();
        proxy.resetAll();
      }
      if (fault === 'stall-timeout') {
        const sent = saves.length;
        const aborted = abandoned.length;
        // S27: no answer within 30 s (the page's clock) aborts the save, and its retry (S8, at most 1 s
        // later, so the badge's `Offline — retrying` may last too short to see) goes out again.
        await page.clock.runFor(30_000);
        await expect
          .poll(
            async () => {
              await page.clock.runFor(500);
              return { aborted: abandoned.length > aborted, retried: saves.length > sent };
            },
            { ...SETTLE, message: `stall-timeout (seed ${SEED})` },
          )
          .toEqual({ aborted: true, retried: true });
        expect(abandoned.at(-1)).toBe('net::ERR_ABORTED');
      }
      if (fault === 'landed-answer-lost') {
        // Deliver the request (whole, even bytes still on their way), hold the answer, and reset once the
        // server has stored the save.
        proxy.resume();
        proxy.stallAnswers();
        await expect
          .poll(async () => (await client.documents.get(document.uuid)).revision, SETTLE)
          .toBeGreaterThan(before ?? 0);
        proxy.resetAll();
      }
      if (fault === 'reset-held')
        await expect
          .poll(() => badgeText(page), { ...SETTLE, message: `${fault} (seed ${SEED})` })
          .toBe(OFFLINE_BADGE);
      proxy.resume();
      await expect
        .poll(
          async () => {
            await page.clock.runFor(2_000);
            return badgeText(page);
          },
          { timeout: 20_000 },
        )
        .toBe('Saved');
      expect(
        await serverSubsectionText({ ...user, client }, document.uuid, subsection.uuid),
        `seed ${SEED}, ${fault}`,
      ).toBe(typed);
    }
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(user.dialogs).toEqual([]);
  });

  it('NF1 NF7: the chat panel reconnects through WebSocket resets and shows every message once, as stored', async () => {
    const user = await signedInEditorUser(viaProxy, 'netfault-chat@example.com', { installClock: true });
    const client = directClient(user);
    const document = await client.documents.create({});
    const { section, subsection } = firstParts(document);
    const { page } = user;
    await openEditor(viaProxy, page, document.uuid, { section: section.uuid, subsection: subsection.uuid });
    await chatReady(page);
    const chat = chatPanel(page);
    // From here the page's time moves only when the test moves it: past the stabilisation window (C8), so
    // a drop shows the banner while the reconnect waits.
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 6_000);

    const faults = shuffled<ChatFault>(['none', 'reset-before', 'reset-after', 'reset-after']);
    const questions: string[] = [];
    for (const [i, fault] of faults.entries()) {
      const question = `Question ${i} (${fault})`;
      questions.push(question);
      if (fault === 'reset-before') proxy.resetAll();
      await sendChatMessage(page, question);
      if (fault === 'reset-after') proxy.resetAll();
      if (fault !== 'none') {
        await expect
          .poll(() => chat.banner.count(), { ...SETTLE, message: `banner after ${fault} (seed ${SEED})` })
          .toBe(1);
        expect(await chat.banner.textContent()).toContain('Chat disconnected.');
      }
      // Reconnected (C9 on the page's clock), resynchronised (C47), the banner gone (K18), and answered.
      await expect
        .poll(
          async () => {
            await page.clock.runFor(500);
            const status = await chat.panel.getAttribute('data-status');
            if (status !== 'connected') return `status ${status}`;
            if ((await chat.banner.count()) > 0) return 'banner';
            const last = aiMessages(page).last();
            if ((await aiMessages(page).count()) === 0) return 'no answer';
            if ((await last.getAttribute('data-partial')) === 'true') return 'streaming';
            return (await last.textContent())?.includes(asked(question)) ? 'answered' : 'waiting';
          },
          { timeout: 20_000, message: `answer ${i} after ${fault} (seed ${SEED})` },
        )
        .toBe('answered');
      // Past the new connection's stabilisation window before the next fault.
      for (let step = 0; step < 3; step += 1) await page.clock.runFor(2_000);
    }

    const shown = await panelTranscript(page);
    const stored = await storedTranscript(client, document.uuid, section.uuid, subsection.uuid, user.token);
    const expected = questions.flatMap((question) => [
      ['user', question],
      ['ai', asked(question)],
    ]);
    const label = `seed ${SEED}, faults ${faults.join(', ')}`;
    expect(
      stored.map(([role, text]) => [role, role === 'ai' ? quoted(text) : text]),
      label,
    ).toEqual(expected);
    // No message left `Not sent`, `(interrupted)` or `Waiting for the connection` (K13).
    expect(shown.footers, label).toEqual([]);
    expect(
      shown.rows.map(([role, text]) => [role, role === 'ai' ? quoted(text) : text]),
      label,
    ).toEqual(expected);
  });
});

type ChatFault = 'none' | 'reset-before' | 'reset-after';

/** The line of an offline answer that quotes the question it answers. */
function asked(question: string): string {
  return `You asked: “${question}”`;
}

/** The `You asked: “…”` line of an answer, or the whole text when it has none. */
function quoted(text: string): string {
  return /You asked: “[^”]*”/.exec(text)?.[0] ?? text;
}

/** The panel's user and AI messages as `[role, bubble text]`, in order, and the footers shown under any. */
async function panelTranscript(
  page: Page,
): Promise<{ rows: (readonly [string, string])[]; footers: string[] }> {
  const { messages } = chatPanel(page);
  const seen = await messages.evaluateAll((nodes) =>
    nodes.map((node) => ({
      role: node.getAttribute('data-role') ?? '',
      text: node.querySelector(':scope > [dir="auto"]')?.textContent ?? '',
      footer: node.querySelector(':scope > .chat-footer')?.textContent ?? null,
    })),
  );
  return {
    rows: seen
      .filter(({ role }) => role === 'user' || role === 'ai')
      .map(({ role, text }) => [role, text] as const),
    footers: seen.flatMap(({ footer }) => (footer === null ? [] : [footer])),
  };
}

/** The stored history of the subsection's one chat, read by an SDK session straight from the server. */
async function storedTranscript(
  client: PlanwrightClient,
  documentUuid: string,
  sectionUuid: string,
  subsectionUuid: string,
  token: string,
): Promise<(readonly [string, string])[]> {
  const chats = await client.chats.list({ target: 'subsection', objectId: subsectionUuid, documentUuid });
  expect(chats.items).toHaveLength(1);
  const clock = new ManualClock();
  const reader = new ChatSession({
    baseUrl: server.url,
    scope: { documentUuid, sectionUuid, subsectionUuid, chatId: chats.items[0]?.id ?? null },
    getToken: () => token,
    socketFactory: nodeSocketFactory,
    clock,
    logger: { warn: () => {}, error: () => {} },
  });
  try {
    reader.connect();
    const end = Date.now() + 10_000;
    const ready = (s: ChatSnapshot) => s.messages.length > 0 && !s.historyLoading;
    while (!ready(reader.getSnapshot())) {
      if (Date.now() > end) throw new Error(`timed out reading the stored history (seed ${SEED})`);
      clock.advance(250);
      await new Promise<void>((resolve) => setTimeout(resolve, 10));
    }
    return reader
      .getSnapshot()
      .messages.filter((message) => message.role !== 'system')
      .map((message) => [message.role, message.content] as const);
  } finally {
    reader.dispose();
  }
}
