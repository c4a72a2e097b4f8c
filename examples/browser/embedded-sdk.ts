/**
 * Planwright inside your own web page, without React or any framework: sign in with the allauth browser
 * client (cookie session + CSRF), list the plans with their progress, open one and show its sections,
 * write a subsection with the SDK's autosave (`SaveController`), and ask the AI about it over the realtime
 * chat (`ChatSession` on the browser's WebSocket).
 *
 * The page must be served from the same origin as the API (the server sends no CORS headers): `serve.mjs`
 * is a small reverse proxy that does this. Every text from the server is rendered with `textContent`,
 * never `innerHTML`. Rules: INT-E6… in ../SPEC.md.
 */
// First: it must run before the SDK's modules are evaluated (see the file).
import './zod-jitless.js';
import {
  type ChatSession,
  type ChatSnapshot,
  createPlanwrightClient,
  DOCUMENT_SAVE_DEBOUNCE_MS,
  type DocumentDetail,
  type DocumentSummary,
  documentTitle,
  formatProgressShort,
  PlanwrightError,
  SaveController,
  type SaveSnapshot,
  signInErrorMessage,
} from '@planwright/sdk';
import { documentToMarkdown } from '@planwright/sdk/formats';
import type { DocumentJson } from '@planwright/sdk/model';
import { applyFullSubsection } from '@planwright/sdk/proposals';

/** The browser client: the session is the HttpOnly `sessionid` cookie; its answers also carry the token
 * that `/api/v1/` and the chat socket use, kept in memory only (a reload asks `auth.session()` again). */
const client = createPlanwrightClient({ baseUrl: '', authClient: 'browser' });

/** The element with that id, of that type; a page that lacks it is a bug of this file, not of the user. */
function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no #${id}`);
  return found;
}

const ui = {
  status: element('status', HTMLParagraphElement),
  signInForm: element('sign-in', HTMLFormElement),
  email: element('email', HTMLInputElement),
  password: element('password', HTMLInputElement),
  signInError: element('sign-in-error', HTMLParagraphElement),
  plans: element('plans', HTMLElement),
  who: element('who', HTMLSpanElement),
  signOut: element('sign-out', HTMLButtonElement),
  planList: element('plan-list', HTMLUListElement),
  plan: element('plan', HTMLElement),
  planTitle: element('plan-title', HTMLHeadingElement),
  planProgress: element('plan-progress', HTMLParagraphElement),
  sections: element('sections', HTMLOListElement),
  planText: element('plan-text', HTMLPreElement),
  subsection: element('subsection', HTMLSelectElement),
  subsectionText: element('subsection-text', HTMLTextAreaElement),
  saveStatus: element('save-status', HTMLParagraphElement),
  chatMessages: element('chat-messages', HTMLOListElement),
  chatForm: element('chat-form', HTMLFormElement),
  chatInput: element('chat-input', HTMLInputElement),
  chatStatus: element('chat-status', HTMLParagraphElement),
};

/** One line for a failure: the SDK's message and suggestion, or any other error's message. */
function failureText(error: unknown): string {
  if (PlanwrightError.isInstance(error))
    return error.suggestion ? `${error.message} ${error.suggestion}` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Runs an action of the page; a failure is shown in the status line instead of going unhandled. */
function run(action: () => Promise<void>): void {
  action().catch((error: unknown) => {
    ui.status.textContent = failureText(error);
  });
}

/** A new element holding `text` as text (INT-E8: never parsed as HTML). */
function textElement<K extends keyof HTMLElementTagNameMap>(tag: K, text: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  made.textContent = text;
  return made;
}

// --- Signing in ---------------------------------------------------------------------------------------

function showSignIn(message = ''): void {
  ui.plans.hidden = true;
  ui.plan.hidden = true;
  ui.signInForm.hidden = false;
  ui.signInError.textContent = message;
  ui.status.textContent = '';
}

ui.signInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    ui.signInError.textContent = '';
    // Fetches the CSRF cookie first when there is none yet (auth SPEC A4), then signs in.
    const result = await client.auth.login({ email: ui.email.value.trim(), password: ui.password.value });
    const problem = signInErrorMessage(result);
    if (problem !== null || result.kind !== 'authenticated') {
      ui.signInError.textContent = problem ?? 'Sign-in failed.';
      return;
    }
    ui.password.value = '';
    await showPlans(result.user.email);
  });
});

ui.signOut.addEventListener('click', () => {
  run(async () => {
    await closePlan();
    await client.auth.logout();
    showSignIn();
  });
});

// --- The plan list ------------------------------------------------------------------------------------

async function showPlans(email: string): Promise<void> {
  ui.signInForm.hidden = true;
  ui.plans.hidden = false;
  ui.who.textContent = email;
  const { items, total } = await client.documents.list({ pageSize: 100, ordering: '-updated_at' });
  ui.planList.replaceChildren(...items.map(planItem));
  ui.status.textContent = total > items.length ? `Showing ${items.length} of ${total} plans.` : '';
  if (items.length === 0) ui.planList.append(textElement('li', 'No plans yet.'));
}

function planItem(summary: DocumentSummary): HTMLLIElement {
  const item = document.createElement('li');
  const open = textElement('button', documentTitle(summary));
  open.type = 'button';
  open.addEventListener('click', () => run(() => openPlan(summary.uuid)));
  item.append(open, ` ${formatProgressShort(summary.progress)} finalized`);
  return item;
}

// --- One plan: sections, a subsection's autosave, and its chat ----------------------------------------

interface OpenPlan {
  /** The server's copy as last read or saved: the base every edit is applied to. */
  detail: DocumentDetail;
  saving: SaveController<DocumentJson>;
  chat: ChatSession | null;
  unsubscribe: (() => void)[];
}

let open: OpenPlan | null = null;

async function openPlan(uuid: string): Promise<void> {
  await closePlan();
  const detail = await client.documents.get(uuid);
  const saving = new SaveController<DocumentJson>({
    debounceMs: DOCUMENT_SAVE_DEBOUNCE_MS,
    // INT-E9: the subsection's new text is applied to the server's last copy as the AI's proposals are.
    read: () => withSubsectionText(current().detail, ui.subsection.value, ui.subsectionText.value),
    write: async (content, { ifMatch, keepalive, signal }) => {
      const saved = await client.documents.update(
        uuid,
        { content },
        { ifMatch: ifMatch ?? undefined, keepalive, signal },
      );
      current().detail = saved;
      showPlanText(saved);
      return saved;
    },
  });
  saving.loaded(detail.content ?? { type: 'doc', content: [] }, detail.revision);
  open = {
    detail,
    saving,
    chat: null,
    unsubscribe: [saving.subscribe(() => showSave(saving.getSnapshot()))],
  };

  ui.plan.hidden = false;
  ui.planTitle.textContent = documentTitle(detail);
  ui.planProgress.textContent = `${formatProgressShort(detail.progress)} subsections finalized`;
  ui.sections.replaceChildren(
    ...detail.sections.map((section) => {
      const item = textElement('li', section.title);
      const subsections = document.createElement('ul');
      subsections.append(
        ...section.subsections.map((sub) => textElement('li', `${sub.title}${sub.finalized ? ' ✓' : ''}`)),
      );
      item.append(subsections);
      return item;
    }),
  );
  ui.subsection.replaceChildren(
    ...detail.sections.flatMap((section) =>
      section.subsections.map((sub) => {
        const option = textElement('option', `${section.title} › ${sub.title}`);
        option.value = sub.uuid;
        option.dataset.section = section.uuid;
        return option;
      }),
    ),
  );
  ui.subsectionText.value = '';
  showPlanText(detail);
  showSave(saving.getSnapshot());
  connectChat();
}

function current(): OpenPlan {
  if (!open) throw new Error('no plan is open');
  return open;
}

/** Saves what is unsaved and lets go of the plan's controller and chat. */
async function closePlan(): Promise<void> {
  const closing = open;
  if (!closing) return;
  open = null;
  await closing.saving.flush();
  for (const stop of closing.unsubscribe) stop();
  closing.saving.dispose();
  closing.chat?.dispose();
}

/** The document with the subsection's body replaced by `markdown`; throws (a refused save) when it cannot. */
function withSubsectionText(detail: DocumentDetail, subsectionUuid: string, markdown: string): DocumentJson {
  const applied = applyFullSubsection(detail.content, {
    tool: 'propose_full_subsection',
    target: subsectionUuid,
    content: { format: 'markdown', text: markdown },
  });
  if (!applied.ok) throw new Error(applied.message);
  return applied.document;
}

function showPlanText(detail: DocumentDetail): void {
  ui.planText.textContent = detail.content ? documentToMarkdown(detail.content) : '';
}

/** The save badge of spec 001 §4, in words. */
function showSave(snapshot: SaveSnapshot<DocumentJson>): void {
  if (snapshot.conflict) ui.saveStatus.textContent = 'Someone else changed this plan: reload it.';
  else if (snapshot.failure) ui.saveStatus.textContent = `Not saved: ${snapshot.failure.message}`;
  else if (snapshot.status === 'saving' || snapshot.dirty) ui.saveStatus.textContent = 'Saving…';
  else if (snapshot.status === 'saved') ui.saveStatus.textContent = 'Saved';
  else ui.saveStatus.textContent = snapshot.lastSavedAt === null ? '' : 'All changes saved';
}

ui.subsectionText.addEventListener('input', () => open?.saving.edit());
// Before the page goes away, whatever is unsaved leaves with `keepalive` (S6).
window.addEventListener('pagehide', () => void open?.saving.flush({ keepalive: true }));

ui.subsection.addEventListener('change', () => {
  run(async () => {
    const plan = current();
    // The text typed so far belongs to the subsection it was typed for: save it before switching.
    await plan.saving.flush();
    ui.subsectionText.value = '';
    connectChat();
  });
});

// --- The chat about the chosen subsection -------------------------------------------------------------

function connectChat(): void {
  const plan = current();
  plan.chat?.dispose();
  const option = ui.subsection.selectedOptions[0];
  if (!option) {
    plan.chat = null;
    return;
  }
  // INT-E10: the browser's own WebSocket (the default socket factory), on this page's origin.
  const chat = client.chatSession({
    documentUuid: plan.detail.uuid,
    sectionUuid: option.dataset.section ?? null,
    subsectionUuid: option.value,
  });
  plan.chat = chat;
  // A replaced chat may still report while it closes: only the open one is shown.
  plan.unsubscribe.push(chat.subscribe(() => open?.chat === chat && showChat(chat.getSnapshot())));
  showChat(chat.getSnapshot());
  chat.connect();
}

function showChat(snapshot: ChatSnapshot): void {
  ui.chatMessages.replaceChildren(
    ...snapshot.messages.map((message) =>
      textElement('li', `${message.role === 'ai' ? 'AI' : 'You'}: ${message.content}`),
    ),
  );
  const pending = snapshot.proposals.filter((proposal) => proposal.status === 'pending').length;
  const state = snapshot.error ?? (snapshot.loading ? 'The AI is answering…' : snapshot.status);
  ui.chatStatus.textContent =
    pending > 0 ? `${state}. ${pending} proposal(s) to review in Planwright.` : state;
}

ui.chatForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const chat = open?.chat;
  if (!chat) return;
  const sent = chat.send(ui.chatInput.value);
  if (sent.ok) ui.chatInput.value = '';
  else ui.chatStatus.textContent = `Not sent (${sent.reason}).`;
});

// --- Start: a session cookie from an earlier visit signs in without the form --------------------------

run(async () => {
  const session = await client.auth.session();
  if (session.kind === 'authenticated') await showPlans(session.user.email);
  else showSignIn();
});
