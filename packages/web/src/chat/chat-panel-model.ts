import {
  type AiProviderInfo,
  CHAT_TEXTS,
  type ChatAttachmentFile,
  type ChatSendResult,
  type ChatSession,
  type ChatSessionExtras,
  type ChatSummary,
  type PlanwrightClient,
  toErrorMessage,
} from '@planwright/sdk';
import { SnapshotStore } from '../workspace/snapshot-store';
import { type ChatSelection, chatScopeOf, chatTargetOf } from './chat-panel-rules';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';

/** The most files one message carries (contract 1b: the server refuses more). */
export const MAX_ATTACHMENTS = 3;

/** How many recent chats the history menu lists (spec 001 §2). */
export const RECENT_CHATS_PAGE_SIZE = 10;

/** Where the history menu's list stands (K6). */
export type RecentChats =
  | { readonly status: 'idle' }
  | { readonly status: 'loading' }
  | { readonly status: 'failed' }
  | { readonly status: 'ready'; readonly chats: readonly ChatSummary[] };

/** What the panel adds to the session's own snapshot. */
export interface ChatPanelSnapshot {
  readonly recent: RecentChats;
  /** `GET apps/ai/provider/`, the label's fallback (K7); `null` until (or unless) it answered. */
  readonly providerInfo: AiProviderInfo | null;
  readonly webSearch: boolean;
  readonly deepResearch: boolean;
  /** Files read for the next message (K11). */
  readonly attachments: readonly ChatAttachmentFile[];
  readonly attaching: boolean;
  /** A panel failure to show with Dismiss: a new chat that failed, a file that could not be read. */
  readonly notice: string | null;
}

/** The client calls the panel makes. */
export type ChatPanelClient = Pick<PlanwrightClient, 'chats' | 'ai' | 'chatSession'>;

export interface ChatPanelOptions {
  client: ChatPanelClient;
  documentUuid: string;
  selection: ChatSelection;
  /** The session's socket, clock, ids (tests inject the SDK's fake server here). */
  session?: ChatSessionExtras;
}

const INITIAL: ChatPanelSnapshot = Object.freeze({
  recent: Object.freeze({ status: 'idle' as const }),
  providerInfo: null,
  webSearch: false,
  deepResearch: false,
  attachments: Object.freeze([]),
  attaching: false,
  notice: null,
});

/**
 * The chat panel's behaviour (SPEC.md K1–K20), framework-free: one {@link ChatSession} per opened document
 * (K1) that follows the selection (K4), the recent chats (K6), new chat, the provider (K7), the send options
 * and the attached files (K9, K11). The session itself does the socket, the queue, history and proposals.
 */
export class ChatPanelModel extends SnapshotStore<ChatPanelSnapshot> {
  readonly session: ChatSession;
  private readonly client: ChatPanelClient;
  private readonly documentUuid: string;
  private selection: ChatSelection;
  private recentCall: AbortController | null = null;
  private readonly calls = new Set<AbortController>();
  private disposed = false;

  constructor(options: ChatPanelOptions) {
    super(INITIAL);
    this.client = options.client;
    this.documentUuid = options.documentUuid;
    this.selection = { ...options.selection };
    this.session = options.client.chatSession(
      chatScopeOf(this.documentUuid, this.selection),
      options.session,
    );
  }

  /** K1: opens the socket and asks who the provider is. */
  start(): void {
    if (this.disposed) return;
    this.session.connect();
    void this.call(async (signal) => {
      const info = await this.client.ai.provider({ signal });
      this.update({ providerInfo: info });
    }).catch(() => {
      // The label then comes from the session alone (K7); nothing to tell the user.
    });
  }

  /** K4: the chat follows the selected section or subsection; a new scope starts with its latest chat. */
  follow(selection: ChatSelection): void {
    const before = chatScopeOf(this.documentUuid, this.selection);
    const after = chatScopeOf(this.documentUuid, selection);
    this.selection = { ...selection };
    if (before.sectionUuid === after.sectionUuid && before.subsectionUuid === after.subsectionUuid) return;
    this.recentCall?.abort();
    this.update({ recent: INITIAL.recent });
    this.session.switchTo({ ...after, chatId: null });
  }

  /** K6: reads the scope's recent chats (up to 10, newest first); a failure empties the list. */
  async loadRecent(): Promise<void> {
    this.recentCall?.abort();
    const controller = new AbortController();
    this.recentCall = controller;
    this.update({ recent: { status: 'loading' } });
    try {
      const page = await this.call(
        (signal) =>
          this.client.chats.list(
            {
              ...chatTargetOf(chatScopeOf(this.documentUuid, this.selection)),
              pageSize: RECENT_CHATS_PAGE_SIZE,
            },
            { signal },
          ),
        controller,
      );
      if (this.recentCall !== controller) return;
      this.update({ recent: { status: 'ready', chats: page.items.slice(0, RECENT_CHATS_PAGE_SIZE) } });
    } catch {
      if (this.recentCall === controller && !this.disposed) this.update({ recent: { status: 'failed' } });
    }
  }

  /** K8: a new, untitled chat about the current scope, switched to; a failure says so. */
  async newChat(): Promise<boolean> {
    const scope = chatScopeOf(this.documentUuid, this.selection);
    try {
      const chat = await this.call((signal) => this.client.chats.create(chatTargetOf(scope), { signal }));
      if (this.disposed) return false;
      this.session.switchTo({ ...scope, chatId: chat.id });
      this.update({ recent: INITIAL.recent, notice: null });
      return true;
    } catch {
      if (!this.disposed) this.update({ notice: CHAT_TEXTS.newChatFailed });
      return false;
    }
  }

  /** K8: switches to a chat of the history menu. */
  openChat(chatId: string): void {
    const scope = chatScopeOf(this.documentUuid, this.selection);
    this.session.switchTo({ ...scope, chatId });
  }

  /** K9: Web Search feeds `webAccess` of the next sends. */
  setWebSearch(on: boolean): void {
    this.update({ webSearch: on });
  }

  /** K9: Deep Research feeds `research` of the next sends. */
  setDeepResearch(on: boolean): void {
    this.update({ deepResearch: on });
  }

  /** K11: reads a .md, .txt or .docx file into text for the next message; the server's refusal is shown. */
  async attach(file: File): Promise<void> {
    if (this.getSnapshot().attachments.length >= MAX_ATTACHMENTS) {
      this.update({ notice: TEXTS.tooManyAttachments });
      return;
    }
    this.update({ attaching: true, notice: null });
    try {
      const read = await this.call((signal) => this.client.ai.readAttachment(file, { signal }));
      if (this.disposed) return;
      this.update({ attachments: [...this.getSnapshot().attachments, read].slice(0, MAX_ATTACHMENTS) });
    } catch (error) {
      if (!this.disposed) this.update({ notice: `${TEXTS.attachFailed}: ${toErrorMessage(error)}` });
    } finally {
      if (!this.disposed) this.update({ attaching: false });
    }
  }

  /** K11: takes a file back off the next message. */
  removeAttachment(index: number): void {
    this.update({ attachments: this.getSnapshot().attachments.filter((_, at) => at !== index) });
  }

  /** K9, K11: sends the message with the toggles and the attached files, which are then cleared. */
  send(text: string): ChatSendResult {
    const { webSearch, deepResearch, attachments } = this.getSnapshot();
    const result = this.session.send(text, {
      webAccess: webSearch,
      research: deepResearch,
      ...(attachments.length > 0
        ? { attachments: attachments.map(({ name, content }) => ({ name, content })) }
        : {}),
    });
    if (result.ok) this.update({ attachments: INITIAL.attachments });
    else if (result.reason === 'invalid_attachment') this.update({ notice: TEXTS.attachmentRefused });
    return result;
  }

  /** K10: asks the server to stop the answer being streamed. */
  stop(): boolean {
    return this.session.stop();
  }

  dismissNotice(): void {
    this.update({ notice: null });
  }

  /** K1: closes the socket and drops every call still out. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const controller of this.calls) controller.abort();
    this.calls.clear();
    this.session.dispose();
  }

  private async call<T>(
    run: (signal: AbortSignal) => Promise<T>,
    controller = new AbortController(),
  ): Promise<T> {
    if (this.disposed) throw new Error('disposed');
    this.calls.add(controller);
    try {
      return await run(controller.signal);
    } finally {
      this.calls.delete(controller);
    }
  }
}
