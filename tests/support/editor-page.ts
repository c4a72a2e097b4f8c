import {
  createPlanwrightClient,
  type DocumentDetail,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ALLAUTH_PROTOCOL_ANSWERS, type BrowserHarness, type ExpectedConsoleError } from './browser.js';
import { signIn, verifiedAccount } from './browser-accounts.js';

/** The debounce of a document's autosave (SDK `DOCUMENT_SAVE_DEBOUNCE_MS`), jumped over with the page clock. */
export const SAVE_DEBOUNCE_MS = 1000;

/** The longest wait of one automatic save retry (SDK retry `maxMs`). */
export const LONGEST_RETRY_MS = 30_000;

/** A refused write: Chromium logs every 4xx/5xx answer to a `fetch` as a console error. */
export function failedAnswer(status: number, path: RegExp): ExpectedConsoleError {
  return {
    text: new RegExp(`^Failed to load resource: the server responded with a status of ${status} `),
    url: path,
  };
}

/** A document write the server refused as stale (412): the conflict tests expect it. */
export const STALE_DOCUMENT_WRITE = failedAnswer(412, /\/api\/v1\/documents\/[^/]+\/$/);

/** Requests that found no server (the restart test stops it on purpose). */
export const SERVER_DOWN: ExpectedConsoleError = {
  text: /^Failed to load resource: net::ERR_CONNECTION_REFUSED$/,
  url: /.*/,
};

/** Chromium's own log line when the live plan's socket finds no server (or the connection is reset). */
/** The chat panel's socket while the server is down: it keeps reconnecting while the page is visible (C50). */
export const CHAT_SOCKET_DOWN: ExpectedConsoleError = {
  text: /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws\/document\/.+' failed/,
  url: /.*/,
};

export const LIVE_SOCKET_DOWN: ExpectedConsoleError = {
  text: /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws\/collab' failed/,
  url: /.*/,
};

/**
 * A server that saves documents whole over REST (`LIVE_DOCUMENTS=off`): the `SaveController` path the web
 * app keeps for servers without live plans (autosave, drafts, the conflict dialog) is tested on it.
 */
export const REST_SAVING_SERVER = { env: { LIVE_DOCUMENTS: 'off' } } as const;

/** One signed-in browser profile with the user's session token for reading the server's side over HTTP. */
export interface EditorUser {
  readonly page: Page;
  /** The session token the web app stored after signing in. */
  readonly token: string;
  /** The SDK over the same session, for reading what the server holds. */
  readonly client: PlanwrightClient;
  /** Dialogs (`alert`, `confirm`, `prompt`) the page opened; `beforeunload` prompts are accepted, not listed. */
  readonly dialogs: readonly string[];
}

export interface EditorUserOptions {
  /** Console errors the test expects (allauth's protocol answers are always expected). */
  expected?: readonly ExpectedConsoleError[];
  /** Installs Playwright's clock in the profile, so the test jumps over the autosave's timers. */
  installClock?: boolean;
  context?: BrowserContextOptions;
}

/** Keeps a record of the page's dialogs; accepts `beforeunload` so a reload of a dirty editor goes on. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'beforeunload') {
      void dialog.accept();
      return;
    }
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

function clientFor(harness: BrowserHarness, token: string): PlanwrightClient {
  return createPlanwrightClient({ baseUrl: harness.server.url, tokenStore: new MemoryTokenStore({ token }) });
}

/**
 * A fresh verified account signed in through the sign-in form, in its own browser profile, on the
 * dashboard.
 */
export async function signedInEditorUser(
  harness: BrowserHarness,
  email: string,
  options: EditorUserOptions = {},
): Promise<EditorUser> {
  await verifiedAccount(harness.server, email);
  const page = await harness.openPage(options.context ?? {}, {
    expected: [ALLAUTH_PROTOCOL_ANSWERS, ...(options.expected ?? [])],
    installClock: options.installClock ?? false,
  });
  const dialogs = watchDialogs(page);
  await page.goto(`${harness.server.url}/account/signin`);
  await signIn(page, email);
  await page.waitForURL(`${harness.server.url}/dashboard`);
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  if (!token) throw new Error('signing in stored no session token');
  return { page, token, client: clientFor(harness, token), dialogs };
}

/**
 * A second browser profile (its own storage, so its own drafts: a second device, or a second tab that
 * shares nothing) signed in as the same user, from the first profile's stored session.
 */
export async function sameUserElsewhere(
  harness: BrowserHarness,
  user: EditorUser,
  options: EditorUserOptions = {},
): Promise<EditorUser> {
  const storageState = await user.page.context().storageState();
  const page = await harness.openPage(
    { ...options.context, storageState },
    { expected: [ALLAUTH_PROTOCOL_ANSWERS, ...(options.expected ?? [])], installClock: options.installClock },
  );
  const dialogs = watchDialogs(page);
  return { page, token: user.token, client: clientFor(harness, user.token), dialogs };
}

/** A new document made from the seeded default blueprint ("Business Plan"), as the user. */
export async function createDefaultDocument(user: EditorUser): Promise<DocumentDetail> {
  return user.client.documents.create({});
}

/** The editor's address for a document, with an optional `?section=&subsection=` query. */
export function editorUrl(harness: BrowserHarness, uuid: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${harness.server.url}/dashboard/documents/${uuid}/edit${search ? `?${search}` : ''}`;
}

/** The workspace's main parts, by the names of the SPEC.md files. */
export interface EditorParts {
  readonly workspace: Locator;
  readonly editor: Locator;
  readonly sidebar: Locator;
  readonly status: Locator;
}

/** The workspace's parts on `page`. */
export function editorParts(page: Page): EditorParts {
  return {
    workspace: page.getByTestId('document-workspace'),
    editor: page.getByRole('textbox', { name: 'Document editor' }),
    sidebar: page.getByRole('navigation', { name: 'Sections' }),
    status: page.getByRole('status', { name: 'Save status' }),
  };
}

/**
 * A new default plan open in two editors of one user (two tabs or two devices): its uuid and its first
 * section's first two subsections.
 */
export async function openInBoth(
  harness: BrowserHarness,
  here: EditorUser,
  elsewhere: EditorUser,
): Promise<{ uuid: string; first: string; second: string }> {
  const document = await createDefaultDocument(here);
  const [first, second] = document.sections[0]?.subsections ?? [];
  if (!first || !second) throw new Error('the default plan has fewer than two subsections');
  await openEditor(harness, here.page, document.uuid);
  await openEditor(harness, elsewhere.page, document.uuid);
  return { uuid: document.uuid, first: first.uuid, second: second.uuid };
}

/** Opens the editor of a document and waits until the editor is there. */
export async function openEditor(
  harness: BrowserHarness,
  page: Page,
  uuid: string,
  query: Record<string, string> = {},
): Promise<EditorParts> {
  await page.goto(editorUrl(harness, uuid, query));
  const parts = editorParts(page);
  await parts.editor.waitFor();
  await parts.sidebar.waitFor();
  return parts;
}

/** The canvas element of a subsection (its controls and content), by uuid. */
export function canvasSubsection(page: Page, subsectionUuid: string): Locator {
  return page.locator(`.pw-subsection[data-subsection-uuid="${subsectionUuid}"]`);
}

/** The editable body of a subsection on the canvas (its title and its blocks). */
export function subsectionBody(page: Page, subsectionUuid: string): Locator {
  return canvasSubsection(page, subsectionUuid).locator('.pw-subsection-content');
}

/**
 * Waits until the editor has taken in where the browser put the caret: ProseMirror reads a caret moved by
 * a click or a key (End) on the next `selectionchange`, and a paste event dispatched before that would
 * land where the caret was. Reads the view through the element Tiptap hangs it on.
 */
export async function caretSettled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        type View = {
          posAtDOM(node: Node, offset: number): number;
          state: { selection: { head: number } };
        };
        const root = document.querySelector('[aria-label="Document editor"]') as
          | (Element & { editor?: { view?: View } })
          | null;
        const view = root?.editor?.view;
        const selection = document.getSelection();
        if (!view || !selection?.focusNode) return 'no editor or no caret';
        return view.posAtDOM(selection.focusNode, selection.focusOffset) === view.state.selection.head;
      }),
    )
    .toBe(true);
}

/** Puts the cursor at the end of the subsection's last paragraph by clicking it. */
export async function clickIntoSubsection(page: Page, subsectionUuid: string): Promise<void> {
  const paragraph = subsectionBody(page, subsectionUuid).locator('p').last();
  await paragraph.scrollIntoViewIfNeeded();
  await paragraph.click();
  await page.keyboard.press('End');
  await caretSettled(page);
}

/** Types `text` with real key presses at the end of a subsection's last paragraph. */
export async function typeInSubsection(page: Page, subsectionUuid: string, text: string): Promise<void> {
  await clickIntoSubsection(page, subsectionUuid);
  await page.keyboard.type(text);
}

/** What the save badge says, its lines joined by ` | ` (`Error saving | Offline — retrying`). */
export async function badgeText(page: Page): Promise<string> {
  const text = await editorParts(page).status.innerText();
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' | ');
}

/** The badge under a network failure whose automatic retry waits (W8). */
export const OFFLINE_BADGE = 'Error saving | Offline — retrying';

/**
 * Waits for the save badge (or another status that reads `Saved`) to read `Saved`. A live plan keeps
 * "Saving…" for a second after its last change is stored (`LIVE_SAVED_SETTLE_MS`), as long as
 * `expect.poll`'s default wait: polling with the default raced it and failed in CI.
 */
export async function badgeSaved(
  page: Page,
  status: () => Promise<string | null> = () => badgeText(page),
): Promise<void> {
  await expect.poll(status, { timeout: 15_000 }).toBe('Saved');
}

/** Jumps over the autosave's debounce with the page clock, then waits for the badge to read `Saved`. */
export async function waitForSaved(page: Page): Promise<void> {
  await page.clock.runFor(SAVE_DEBOUNCE_MS + 100);
  await badgeSaved(page);
}

/** The sidebar row of a section or subsection (its `li`), by uuid. */
export function sidebarItem(page: Page, uuid: string): Locator {
  const { sidebar } = editorParts(page);
  return sidebar.locator(`li[data-section-uuid="${uuid}"], li[data-subsection-uuid="${uuid}"]`).first();
}

/**
 * Waits until no structure call runs: the editor is read-only during one (W19) and a second action
 * meanwhile is ignored, so a test waits for this before the next action.
 */
export async function structureIdle(page: Page): Promise<void> {
  const { editor } = editorParts(page);
  await expect.poll(() => editor.getAttribute('contenteditable'), { timeout: 15_000 }).toBe('true');
}

/** Picks an entry of a sidebar item's actions menu (`Actions for {title}`). */
export async function sidebarAction(page: Page, title: string, action: string): Promise<void> {
  const { sidebar } = editorParts(page);
  await sidebar.getByRole('button', { name: `Actions for ${title}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** Section titles with their subsection titles, in order, as the server's `sections` tell them. */
export interface ServerOutline {
  title: string;
  subsections: string[];
}

/** The server's outline of a document, read over HTTP. */
export async function serverOutline(user: EditorUser, uuid: string): Promise<ServerOutline[]> {
  const document = await user.client.documents.get(uuid);
  return document.sections.map((section) => ({
    title: section.title,
    subsections: section.subsections.map((subsection) => subsection.title),
  }));
}

/** The plain text of every text node under `node` (a content tree read from the server). */
export function textOf(node: unknown): string {
  if (typeof node !== 'object' || node === null) return '';
  const record = node as { text?: unknown; content?: unknown };
  if (typeof record.text === 'string') return record.text;
  return Array.isArray(record.content) ? record.content.map(textOf).join('') : '';
}

/** Finds the node of a section or subsection by uuid in a content tree. */
export function nodeByUuid(root: unknown, uuid: string): unknown {
  if (typeof root !== 'object' || root === null) return undefined;
  const record = root as { attrs?: { uuid?: unknown }; content?: unknown };
  if (record.attrs?.uuid === uuid) return root;
  if (!Array.isArray(record.content)) return undefined;
  for (const child of record.content) {
    const found = nodeByUuid(child, uuid);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every node of a content tree, depth first (for looking for marks and node types). */
export function allNodes(root: unknown): unknown[] {
  if (typeof root !== 'object' || root === null) return [];
  const content = (root as { content?: unknown }).content;
  return [root, ...(Array.isArray(content) ? content.flatMap(allNodes) : [])];
}

/** The text of a subsection's body on the server (its title left out). */
export async function serverSubsectionText(user: EditorUser, uuid: string, subsectionUuid: string) {
  const document = await user.client.documents.get(uuid);
  const node = nodeByUuid(document.content, subsectionUuid) as { content?: unknown[] } | undefined;
  return (node?.content ?? []).slice(1).map(textOf).join('\n');
}

/** What a clipboard carries for a paste. */
export interface ClipboardPayload {
  html?: string;
  text?: string;
}

/**
 * Pastes at the editor's cursor as a browser does: a real `paste` event with a `DataTransfer` carrying
 * `text/html` and `text/plain`, dispatched on the focused element (which must be inside the editor).
 * Answers whether the editor took the event (`preventDefault` called).
 */
export async function pasteAtCursor(page: Page, payload: ClipboardPayload): Promise<boolean> {
  return page.evaluate(({ html, text }) => {
    const target = document.activeElement;
    if (!(target instanceof HTMLElement) || !target.closest('[aria-label="Document editor"]')) {
      throw new Error('the editor does not have the focus');
    }
    const data = new DataTransfer();
    if (html !== undefined) data.setData('text/html', html);
    if (text !== undefined) data.setData('text/plain', text);
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    target.dispatchEvent(event);
    return event.defaultPrevented;
  }, payload);
}

/** Headings of a content node as `[level, text]` (subsection titles as level 2). */
export function headingsOf(node: unknown): [number, string][] {
  return allNodes(node).flatMap((child) => {
    const record = child as { type?: unknown; attrs?: { level?: unknown } };
    if (record.type === 'subsectionHeading') return [[2, textOf(child)] as [number, string]];
    if (record.type !== 'heading') return [];
    return [[Number(record.attrs?.level), textOf(child)] as [number, string]];
  });
}

/** Every mark of a content tree with its attributes (`{type, attrs}`). */
export function marksOf(root: unknown): { type: string; attrs?: Record<string, unknown> }[] {
  return allNodes(root).flatMap((node) => {
    const marks = (node as { marks?: unknown }).marks;
    return Array.isArray(marks) ? (marks as { type: string; attrs?: Record<string, unknown> }[]) : [];
  });
}
