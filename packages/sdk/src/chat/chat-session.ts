import { Subscribable } from '../state/subscribable.js';
import { browserVisibility, type VisibilitySource } from '../state/visibility-source.js';
import {
  closeDecision,
  cumulativeChange,
  mergeHistory,
  owedAnswerDelay,
  reconnectDelay,
} from './chat-decisions.js';
import {
  type ChatAttachmentInfo,
  type ChatRole,
  type ChatSendOptions,
  type ChatWireContext,
  chatAttachmentsSchema,
  type HistoryEntry,
  type IncomingFrame,
  messageFrame,
  type OutgoingFrame,
  type ProposalStatus,
  parseIncomingFrame,
} from './chat-messages.js';
import { CHAT_TEXTS, CHAT_TIMINGS, DEFAULT_CHAT_QUEUE_LIMIT } from './chat-texts.js';
import {
  browserSocketFactory,
  type ChatClock,
  type ChatCloseEvent,
  type ChatLogger,
  type ChatSocket,
  type ChatSocketFactory,
  systemChatClock,
} from './chat-transport.js';
import { type ChatScope, chatSocketUrl } from './chat-url.js';

/** Connection status (C6). `idle`: never connected; `closed`: disconnected by the client. */
export type ChatConnectionStatus = 'idle' | 'connecting' | 'connected' | 'error' | 'closed';

/** Where a user message is on its way to the server (C11). */
export type ChatDelivery = 'queued' | 'sent' | 'failed';

/** One transcript entry (spec 001 §3 "Chat message"). */
export interface ChatMessage {
  readonly id: string;
  readonly role: ChatRole;
  readonly content: string;
  readonly timestamp: string;
  /** `true` while an AI answer streams. */
  readonly isPartial: boolean;
  readonly metadata: {
    /** The client id sent with a user message, for de-duplication (C11). */
    readonly clientId?: string;
    readonly delivery?: ChatDelivery;
    /**
     * The answer was cut short: stopped by the user (`end_of_response {interrupted}`, C41) or its stream lost with
     * the connection (C20) and not resumed (C52). UIs show "(interrupted)" after it.
     */
    readonly interrupted?: boolean;
    /** From history. */
    readonly serverId?: string;
    /** The files a user message carried: names and lengths, never the text (C42). */
    readonly attachments?: readonly ChatAttachmentInfo[];
  };
}

/** Tool execution state (C24). */
export type ToolExecutionState = 'idle' | 'awaiting_approval' | 'executing';

/** A tool proposal and the user's decision (C26). */
export interface ChatProposal {
  readonly toolId: string;
  readonly toolName: 'propose_full_subsection' | 'propose_partial_edits';
  readonly payload: Readonly<Record<string, unknown>>;
  readonly timestamp: string;
  /** The AI message that made it, from the frame's `message_id` (C44). */
  readonly messageId: string | null;
  readonly status: ProposalStatus;
  /** `null` while pending; the texts of spec 001 §4 once decided. */
  readonly message: string | null;
}

/** What `getSnapshot()` answers; a new frozen object after every visible change. */
export interface ChatSnapshot {
  readonly status: ChatConnectionStatus;
  /** The first 5 s after open (C8). */
  readonly stabilizing: boolean;
  readonly error: string | null;
  /** The scheduled reconnect, if any (C9). */
  readonly reconnect: { readonly attempt: number; readonly at: number } | null;
  readonly messages: readonly ChatMessage[];
  /** Waiting for an answer; sends are ignored meanwhile (C14). */
  readonly loading: boolean;
  /** Frames waiting for a connection (C12). */
  readonly queued: number;
  readonly historyLoading: boolean;
  readonly historyWarning: string | null;
  readonly toolGenerating: boolean;
  readonly toolExecution: {
    readonly state: ToolExecutionState;
    readonly message: string | null;
    readonly toolName: string | null;
  };
  readonly proposals: readonly ChatProposal[];
  readonly scope: Readonly<Required<ChatScope>>;
  /** The chat the server continues (from `authenticated`, `human` and history frames); null until it has one (C43). */
  readonly chatId: string | null;
  /** Who answers, as the server labels it (from `authenticated` and `ai` frames); null until known (C43). */
  readonly provider: string | null;
}

/** Stream events: only the new suffix of cumulative content (C19, C20). */
export type ChatStreamEvent =
  | { type: 'delta'; messageId: string; text: string }
  | { type: 'reset'; messageId: string; content: string }
  | { type: 'end'; messageId: string; interrupted: boolean };

/** Why `send` did nothing (C14–C16). */
export type ChatSendResult =
  | { ok: true; messageId: string; clientId: string; queued: boolean }
  | {
      ok: false;
      reason:
        | 'blank'
        | 'busy'
        | 'unauthenticated'
        | 'not_connected'
        | 'queue_full'
        | 'disposed'
        /** More than 3 attachments, a blank or over-long name, or a text over 100,000 characters (C42). */
        | 'invalid_attachment';
    };

/** Options for {@link ChatSession}. */
export interface ChatSessionOptions {
  /** The HTTP(S) or WS(S) base of the server, e.g. `https://app.example.com`. */
  baseUrl: string;
  scope: ChatScope;
  /** The stored session token, read at each connect and send (C16). */
  getToken: () => string | null;
  /** Default: `globalThis.WebSocket`, looked up at each connect. */
  socketFactory?: ChatSocketFactory;
  /** Default: `Date.now` and the global timers, looked up at each call. */
  clock?: ChatClock;
  /** For the reconnect jitter, in [0, 1); default `Math.random`. */
  random?: () => number;
  /** Client ids; default `crypto.randomUUID`. */
  createId?: () => string;
  /** Default `console`. */
  logger?: ChatLogger;
  /** Bound of the outgoing queue; default 100 (C12). */
  queueLimit?: number;
  /** Queue sends while disconnected (default `true`); `false` refuses them with "AI Agent is not connected". */
  queueWhileDisconnected?: boolean;
  /** How long after a ping a silent socket counts as stalled and is dropped (C46); default 10 s. */
  pongTimeoutMs?: number;
  /**
   * Whether the page is visible and online, and when it comes back (C50): reconnecting goes on while it is,
   * pauses while it is not, and tries at once when it returns. Default: the browser's `document.visibilityState`,
   * `online` and `focus` (always visible where there is no `document`, as in Node).
   */
  visibility?: VisibilitySource;
}

interface QueuedFrame {
  frame: OutgoingFrame;
  messageId: string | null;
}

type TimerName =
  | 'ping'
  | 'pongWait'
  | 'stabilize'
  | 'reconnect'
  | 'history'
  | 'historyTimeout'
  | 'answerPoll'
  | 'warningClear'
  | 'toolClear'
  | 'switchWait';

/** The spec 001 §4 text of a decided proposal; null while pending. */
function decisionText(status: ProposalStatus): string | null {
  if (status === 'pending') return null;
  return status === 'accepted' ? CHAT_TEXTS.changesApplied : CHAT_TEXTS.proposalRejected;
}

/** Names and lengths of sent attachments, as the transcript keeps them (C42). */
function attachmentInfo(attachments: readonly { name: string; content: string }[]): ChatAttachmentInfo[] {
  return attachments.map(({ name, content }) => ({ name, characters: content.length }));
}

function defaultId(): string {
  return globalThis.crypto.randomUUID();
}

function scopeKey(scope: Required<ChatScope>): string {
  return JSON.stringify([scope.documentUuid, scope.sectionUuid, scope.subsectionUuid]);
}

function fullScope(scope: ChatScope): Required<ChatScope> {
  return {
    documentUuid: scope.documentUuid,
    sectionUuid: scope.sectionUuid ?? null,
    subsectionUuid: scope.subsectionUuid ?? null,
    chatId: scope.chatId ?? null,
  };
}

/**
 * The realtime chat session of spec 001 §4 (`src/chat/SPEC.md`, C1–C40): connection states, authenticate and
 * ping, stabilisation, reconnect with backoff, a bounded queue, history, streamed answers as deltas, tool
 * execution and proposals. Socket, clock, randomness and ids are injected.
 *
 * @example
 * const chat = new ChatSession({ baseUrl: location.origin, scope: { documentUuid }, getToken: () => token });
 * chat.subscribe(() => render(chat.getSnapshot()));
 * chat.connect();
 * chat.send('Draft the goals', { webAccess: true });
 */
export class ChatSession extends Subscribable {
  private readonly clock: ChatClock;
  private readonly factory: ChatSocketFactory;
  private readonly random: () => number;
  private readonly createId: () => string;
  private readonly logger: ChatLogger;
  private readonly queueLimit: number;
  private readonly queueWhileDisconnected: boolean;
  private readonly baseUrl: string;
  private readonly getToken: () => string | null;
  private readonly timers = new Map<TimerName, unknown>();
  private readonly streamListeners = new Set<(event: ChatStreamEvent) => void>();

  private scope: Required<ChatScope>;
  private socket: ChatSocket | null = null;
  private closingSocket: ChatSocket | null = null;
  private open = false;
  private everOpened = false;
  private attempts = 0;
  private suppressUntil = 0;
  private switching = false;
  private disposed = false;
  private queue: QueuedFrame[] = [];
  /** Messages handed to a socket whose storing the server has not confirmed yet, by client id (C47). */
  private readonly unconfirmed = new Map<string, QueuedFrame>();
  /** After a reconnect the queue waits for history, so a message lost on the wire goes first (C47). */
  private holdQueue = false;
  private readonly pongTimeoutMs: number;
  private readonly visibility: VisibilitySource;
  private stopWatchingVisibility: (() => void) | null = null;
  /** The connection dropped and the session means to get it back (C50): by timer, or at once when the page returns. */
  private retrying = false;
  private readonly historyKeys = new Set<string>();
  private historyRequestedAt = 0;
  /** The user message whose answer history lacks, while C48 asks again for it. */
  private owedAnswer: { messageId: string | null; since: number; polls: number } | null = null;
  private streamingId: string | null = null;
  private streamingServerId: string | null = null;
  /** Messages sent on this socket still owed an `end_of_response`; `loading` while above 0 (C14). */
  private awaiting = 0;
  private state: Omit<ChatSnapshot, 'queued' | 'scope'>;
  private snapshot: ChatSnapshot;

  constructor(options: ChatSessionOptions) {
    super();
    this.clock = options.clock ?? systemChatClock;
    this.factory = options.socketFactory ?? browserSocketFactory;
    this.random = options.random ?? (() => Math.random());
    this.createId = options.createId ?? defaultId;
    this.logger = options.logger ?? {
      warn: (message) => globalThis.console.warn(message),
      error: (message) => globalThis.console.error(message),
    };
    const limit = options.queueLimit ?? DEFAULT_CHAT_QUEUE_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('queueLimit must be a positive integer');
    this.queueLimit = limit;
    this.queueWhileDisconnected = options.queueWhileDisconnected ?? true;
    this.pongTimeoutMs = options.pongTimeoutMs ?? CHAT_TIMINGS.pongTimeoutMs;
    this.visibility = options.visibility ?? browserVisibility;
    this.baseUrl = options.baseUrl;
    this.getToken = options.getToken;
    this.scope = fullScope(options.scope);
    this.state = {
      status: 'idle',
      stabilizing: false,
      error: null,
      reconnect: null,
      messages: [],
      loading: false,
      historyLoading: false,
      historyWarning: null,
      toolGenerating: false,
      toolExecution: { state: 'idle', message: null, toolName: null },
      proposals: [],
      chatId: null,
      provider: null,
    };
    this.snapshot = this.build();
  }

  /** The current state; the same frozen object until something visible changes. */
  readonly getSnapshot = (): ChatSnapshot => this.snapshot;

  /** Listens to stream deltas (C19); returns the function that stops it. */
  onStream(listener: (event: ChatStreamEvent) => void): () => void {
    this.streamListeners.add(listener);
    return () => {
      this.streamListeners.delete(listener);
    };
  }

  /** Opens the connection; does nothing while one is opening or open, or a switch waits (C28, C29). */
  connect(): void {
    if (this.disposed || this.socket || this.timers.has('switchWait')) return;
    // Listened to from the first connect (not the constructor): a session never connected holds no listener.
    this.stopWatchingVisibility ??= this.visibility.onVisible(() => this.resumeWhenVisible());
    const token = this.getToken();
    if (!token) {
      this.set({ status: 'error', error: CHAT_TEXTS.notAuthenticated, reconnect: null });
      return;
    }
    this.clearTimer('reconnect');
    if (!this.everOpened && this.attempts === 0) {
      this.suppressUntil = this.clock.now() + CHAT_TIMINGS.initialErrorSuppressionMs;
    }
    let socket: ChatSocket;
    try {
      socket = this.factory(chatSocketUrl(this.baseUrl, this.scope));
    } catch {
      this.set({ status: 'error', error: CHAT_TEXTS.connectFailed, reconnect: null });
      return;
    }
    this.socket = socket;
    this.open = false;
    socket.onopen = () => {
      if (this.socket === socket) this.handleOpen(socket, token);
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      // Any frame proves the connection is alive (C46).
      this.clearTimer('pongWait');
      this.handleFrame(event.data);
    };
    socket.onclose = (event) => this.handleClose(socket, event);
    socket.onerror = () => {
      // Errors are followed by a close, which decides; only log outside the suppression window (C8).
      if (this.socket === socket && this.clock.now() >= this.suppressUntil)
        this.logger.warn('Chat socket error');
    };
    this.set({ status: 'connecting', reconnect: null });
  }

  /** Closes the connection on purpose: no reconnect; the queue is kept for the next connect (C22). */
  disconnect(): void {
    const socket = this.socket;
    this.stopConnectionTimers();
    this.clearTimer('reconnect');
    this.clearTimer('switchWait');
    this.switching = false;
    this.retrying = false;
    this.socket = null;
    this.open = false;
    this.endStream(true);
    this.awaiting = 0;
    this.set({
      status: 'closed',
      stabilizing: false,
      reconnect: null,
      loading: false,
      toolGenerating: false,
    });
    if (socket) this.closeQuietly(socket);
  }

  /** Disconnects and stops every timer; later calls do nothing. */
  dispose(): void {
    this.disconnect();
    for (const name of [...this.timers.keys()]) this.clearTimer(name);
    this.stopWatchingVisibility?.();
    this.stopWatchingVisibility = null;
    this.disposed = true;
  }

  /**
   * Switches the chat scope or the chat (C29): the old socket is closed, the transcript and proposals cleared,
   * and the new connection opens once the old one has closed, or after 800 ms at most.
   */
  switchTo(scope: Partial<ChatScope>): void {
    if (this.disposed) return;
    const next = fullScope({ ...this.scope, ...scope });
    if (next.chatId !== this.scope.chatId || scopeKey(next) !== scopeKey(this.scope)) {
      this.historyKeys.delete(scopeKey(next));
    }
    this.scope = next;
    this.failQueued();
    this.unconfirmed.clear();
    this.holdQueue = false;
    this.owedAnswer = null;
    this.endStream(true);
    const socket = this.socket;
    this.stopConnectionTimers();
    this.clearTimer('reconnect');
    this.clearTimer('history');
    this.clearTimer('historyTimeout');
    this.socket = null;
    this.open = false;
    this.everOpened = false;
    this.attempts = 0;
    this.retrying = false;
    this.switching = true;
    this.awaiting = 0;
    this.set({
      status: 'connecting',
      error: null,
      stabilizing: false,
      reconnect: null,
      messages: [],
      loading: false,
      historyLoading: false,
      toolGenerating: false,
      proposals: [],
      toolExecution: { state: 'idle', message: null, toolName: null },
      chatId: null,
      provider: null,
    });
    this.startTimer('switchWait', CHAT_TIMINGS.switchWaitMs, () => this.finishSwitch());
    if (socket) {
      this.closingSocket = socket;
      this.closeQuietly(socket);
    } else {
      this.finishSwitch();
    }
  }

  /** Requests history now (forced) or when not yet requested for this scope (C17). */
  requestHistory(options: { force?: boolean } = {}): void {
    const key = scopeKey(this.scope);
    if (!options.force && this.historyKeys.has(key)) return;
    if (!this.open || !this.socket) {
      if (options.force) this.historyKeys.delete(key);
      return;
    }
    this.historyKeys.add(key);
    this.historyRequestedAt = this.clock.now();
    this.clearTimer('history');
    // Armed before sending: a transport may answer synchronously, inside `send`.
    this.startTimer('historyTimeout', CHAT_TIMINGS.historyTimeoutMs, () => {
      this.set({ historyLoading: false, historyWarning: CHAT_TEXTS.historyTimeout });
      // Without history the lost ones cannot be told apart: send what waits rather than hold it forever.
      this.releaseQueue();
      this.startTimer('warningClear', CHAT_TIMINGS.warningClearMs, () => this.clearWarningIfConnected());
    });
    this.set({ historyLoading: true });
    if (!this.transmit({ type: 'history', content: this.scope.chatId ?? '' })) {
      this.clearTimer('historyTimeout');
      this.historyKeys.delete(key);
      this.set({ historyLoading: false });
    }
  }

  /**
   * Sends a user message (C11–C16). Blank text or a send while loading is ignored; no token gives "You are not
   * authenticated. Please log in."; while disconnected it is queued (or refused with "AI Agent is not connected"
   * when queueing is off); a full queue refuses it with a system message.
   */
  send(text: string, options: ChatSendOptions = {}): ChatSendResult {
    if (this.disposed) return { ok: false, reason: 'disposed' };
    if (text.trim() === '') return { ok: false, reason: 'blank' };
    if (this.state.loading) return { ok: false, reason: 'busy' };
    const attachments = chatAttachmentsSchema.safeParse(options.attachments ?? []);
    if (!attachments.success) return { ok: false, reason: 'invalid_attachment' };
    if (!this.getToken()) {
      this.set({ error: CHAT_TEXTS.notAuthenticated });
      return { ok: false, reason: 'unauthenticated' };
    }
    const connected = this.open && this.socket !== null;
    if (!connected && !this.queueWhileDisconnected) {
      this.set({ error: CHAT_TEXTS.notConnected });
      return { ok: false, reason: 'not_connected' };
    }
    if (!connected && this.queue.length >= this.queueLimit) {
      this.addMessage('system', CHAT_TEXTS.sendFailed);
      return { ok: false, reason: 'queue_full' };
    }
    const clientId = this.createId();
    const messageId = `user-${clientId}`;
    const frame = messageFrame(text, clientId, options, this.context());
    this.pushMessage({
      id: messageId,
      role: 'user',
      content: text,
      timestamp: new Date(this.clock.now()).toISOString(),
      isPartial: false,
      metadata: {
        clientId,
        delivery: 'queued',
        ...(attachments.data.length > 0 ? { attachments: attachmentInfo(attachments.data) } : {}),
      },
    });
    if (connected) {
      this.transmit(frame, messageId);
      return { ok: true, messageId, clientId, queued: false };
    }
    this.queue.push({ frame, messageId });
    this.set({});
    // A send is how the user resumes after a normal close or a give-up (C15).
    if (!this.socket && !this.timers.has('reconnect') && !this.switching) this.connect();
    return { ok: true, messageId, clientId, queued: true };
  }

  /**
   * Asks the server to stop the answer being streamed (the Stop button, C41). The server ends it with
   * `end_of_response`; what was streamed so far stays. Returns false when no answer is streaming.
   */
  stop(): boolean {
    if (!this.state.loading || !this.open || !this.socket) return false;
    this.transmit({ type: 'stop', client_id: this.createId() });
    return true;
  }

  /**
   * Accepts a pending proposal, or one rejected earlier (C26, C45): call it after applying it successfully;
   * sends `tool_approval`. An accepted proposal is final.
   */
  acceptProposal(toolId: string): boolean {
    return this.decide(toolId, 'accept');
  }

  /** Rejects a pending proposal; sends `tool_approval` (C26). */
  rejectProposal(toolId: string): boolean {
    return this.decide(toolId, 'reject');
  }

  // ---- internals ----

  private decide(toolId: string, action: 'accept' | 'reject'): boolean {
    const proposal = this.state.proposals.find((p) => p.toolId === toolId);
    // A rejected proposal may still be accepted later; an accepted one is final (C45).
    const open = proposal?.status === 'pending' || (proposal?.status === 'rejected' && action === 'accept');
    if (proposal === undefined || !open) return false;
    const decided: ChatProposal = {
      ...proposal,
      status: action === 'accept' ? 'accepted' : 'rejected',
      message: decisionText(action === 'accept' ? 'accepted' : 'rejected'),
    };
    const proposals = this.state.proposals.map((p) => (p.toolId === toolId ? decided : p));
    const stillPending = proposals.some((p) => p.status === 'pending');
    this.set({
      proposals,
      toolExecution: stillPending
        ? this.state.toolExecution
        : { state: 'idle', message: null, toolName: this.state.toolExecution.toolName },
    });
    const frame: OutgoingFrame = {
      type: 'tool_approval',
      tool_id: toolId,
      action,
      client_id: this.createId(),
    };
    if (this.open && this.socket) this.transmit(frame);
    else if (this.queue.length < this.queueLimit) {
      this.queue.push({ frame, messageId: null });
      this.set({});
      if (!this.socket && !this.timers.has('reconnect') && !this.switching) this.connect();
    } else this.addMessage('system', CHAT_TEXTS.sendFailed);
    return true;
  }

  private handleOpen(socket: ChatSocket, token: string): void {
    const reopened = this.everOpened;
    this.retrying = false;
    this.open = true;
    this.everOpened = true;
    try {
      socket.send(JSON.stringify({ type: 'authenticate', token } satisfies OutgoingFrame));
    } catch {
      // The close that follows decides what happens next.
    }
    this.schedulePing();
    this.startTimer('stabilize', CHAT_TIMINGS.stabilizationMs, () => {
      // Only a connection that stayed up through the window resets the backoff (C8, C9).
      this.attempts = 0;
      this.set({ stabilizing: false });
    });
    const keepWarning = this.state.historyWarning !== null && this.timers.has('warningClear');
    this.set({
      status: 'connected',
      error: null,
      reconnect: null,
      stabilizing: true,
      historyWarning: keepWarning ? this.state.historyWarning : null,
    });
    if (reopened) {
      // Answers finished and messages stored while the socket was down: ask history again (C47).
      this.historyKeys.delete(scopeKey(this.scope));
      this.holdQueue = this.unconfirmed.size > 0;
    }
    if (!this.holdQueue) this.flushQueue();
    if (!this.historyKeys.has(scopeKey(this.scope))) {
      this.startTimer('history', CHAT_TIMINGS.historyDelayMs, () => this.requestHistory());
    }
  }

  private schedulePing(): void {
    this.startTimer('ping', CHAT_TIMINGS.pingMs, () => {
      if (!this.open || !this.socket) return;
      const socket = this.socket;
      // A socket that stays silent after a ping is stalled: drop it and reconnect (C46). Armed before
      // sending: a transport may answer synchronously, inside `send`.
      this.startTimer('pongWait', this.pongTimeoutMs, () => this.dropStalled(socket));
      this.transmit({ type: 'ping', timestamp: this.clock.now() });
      this.schedulePing();
    });
  }

  private dropStalled(socket: ChatSocket): void {
    if (this.socket !== socket) return;
    this.logger.warn('Chat connection stalled');
    this.handleClose(socket, { code: 1006 });
    this.closeQuietly(socket);
  }

  /** Ends C47's hold: the queue goes out in order. */
  private releaseQueue(): void {
    if (!this.holdQueue) return;
    this.holdQueue = false;
    this.flushQueue();
  }

  private flushQueue(): void {
    while (this.queue.length > 0 && this.open && this.socket && !this.holdQueue) {
      const entry = this.queue.shift() as QueuedFrame;
      this.transmit(entry.frame, entry.messageId);
    }
    this.set({});
  }

  /** Sends one frame on the open socket; a throw marks the message failed with a system message (C32). */
  private transmit(frame: OutgoingFrame, messageId: string | null = null): boolean {
    const socket = this.socket;
    if (!socket) return false;
    try {
      socket.send(JSON.stringify(frame));
    } catch {
      if (messageId)
        this.updateMessage(messageId, (m) => ({ ...m, metadata: { ...m.metadata, delivery: 'failed' } }));
      this.addMessage('system', CHAT_TEXTS.sendFailed);
      return false;
    }
    if (messageId) {
      if (frame.type === 'message') this.unconfirmed.set(frame.client_id, { frame, messageId });
      this.awaiting += 1;
      this.updateMessage(messageId, (m) => ({ ...m, metadata: { ...m.metadata, delivery: 'sent' } }));
      this.set({ loading: true });
    }
    return true;
  }

  private handleClose(socket: ChatSocket, event: ChatCloseEvent): void {
    if (socket === this.closingSocket) {
      this.closingSocket = null;
      if (this.switching) this.finishSwitch();
      return;
    }
    if (socket !== this.socket) return;
    const code = typeof event?.code === 'number' ? event.code : 1006;
    const wasStabilizing = this.timers.has('stabilize');
    this.socket = null;
    this.open = false;
    this.stopConnectionTimers();
    this.endStream(true);
    this.abandonHistoryRequest();
    this.holdQueue = false;
    this.awaiting = 0;
    this.set({ stabilizing: false, loading: false, toolGenerating: false });
    const decision = closeDecision(code, this.everOpened);
    if (decision.kind === 'final') {
      if (decision.authFailed) this.logger.error(CHAT_TEXTS.authFailedLog);
      this.set({ status: 'error', error: decision.error });
      return;
    }
    this.scheduleReconnect(wasStabilizing);
  }

  /**
   * C9, C50: the next attempt after a capped, jittered backoff, for as long as it takes: a server outage of any
   * length ends with the chat back, without the user sending. While the page is hidden or offline the due attempt
   * waits for it to return ({@link resumeWhenVisible}).
   */
  private scheduleReconnect(wasStabilizing: boolean): void {
    this.retrying = true;
    this.attempts += 1;
    const delay = reconnectDelay(this.attempts, this.random());
    const at = this.clock.now() + delay;
    const quiet = wasStabilizing || this.clock.now() < this.suppressUntil;
    this.startTimer('reconnect', delay, () => this.reconnectIfVisible());
    this.set({
      status: quiet ? 'connecting' : 'error',
      error: quiet ? this.state.error : CHAT_TEXTS.disconnectedResume,
      reconnect: { attempt: this.attempts, at },
    });
  }

  /** A due attempt (C50): nobody is looking, or the device is offline, so it waits for the page to return. */
  private reconnectIfVisible(): void {
    if (this.visibility.isVisible()) {
      this.connect();
      return;
    }
    this.set({ reconnect: null });
  }

  /** The page is visible, online or focused again (C50): a connection the session wants back is tried at once. */
  private resumeWhenVisible(): void {
    if (this.disposed || !this.retrying || this.socket || this.switching) return;
    if (!this.visibility.isVisible()) return;
    this.clearTimer('reconnect');
    this.connect();
  }

  private failQueued(): void {
    const ids = new Set(this.queue.map((q) => q.messageId).filter((id): id is string => id !== null));
    this.queue = [];
    if (ids.size === 0) return;
    this.set({
      messages: this.state.messages.map((m) =>
        ids.has(m.id) ? { ...m, metadata: { ...m.metadata, delivery: 'failed' as const } } : m,
      ),
    });
  }

  private finishSwitch(): void {
    if (!this.switching) return;
    this.switching = false;
    this.clearTimer('switchWait');
    this.closingSocket = null;
    this.connect();
  }

  private abandonHistoryRequest(): void {
    if (!this.timers.has('historyTimeout')) return;
    // The answer can no longer arrive on this socket: ask again after the next connect.
    this.clearTimer('historyTimeout');
    this.historyKeys.delete(scopeKey(this.scope));
    this.set({ historyLoading: false });
  }

  private clearWarningIfConnected(): void {
    if (this.open) this.set({ historyWarning: null });
  }

  private handleFrame(data: unknown): void {
    const frame = parseIncomingFrame(data);
    if (frame.type === 'invalid') {
      this.logger.warn(`Ignored chat frame: ${frame.reason}`);
      return;
    }
    this.apply(frame);
  }

  private apply(frame: IncomingFrame): void {
    switch (frame.type) {
      case 'authenticated':
        this.set({ chatId: frame.chatId, provider: frame.provider });
        return;
      case 'ai':
        if (frame.provider !== null && frame.provider !== this.state.provider) {
          this.set({ provider: frame.provider });
        }
        this.applyAi(frame.content, frame.messageId);
        return;
      case 'end_of_response':
        // A duplicate's answer went to an earlier socket: it ends no answer streaming here (C52).
        // Stopped by the user (C41): what streamed stays, marked (C51).
        if (!frame.duplicate) this.endStream(frame.interrupted);
        this.awaiting = Math.max(0, this.awaiting - 1);
        this.set({ loading: this.awaiting > 0, toolGenerating: false });
        // A resend the server already had (C47): its answer went to the earlier socket, so fetch it (C48).
        if (frame.duplicate) this.askHistoryQuietly();
        return;
      case 'human':
        if (frame.chatId !== null && frame.chatId !== this.state.chatId) this.set({ chatId: frame.chatId });
        // The server stored it: it is never resent (C47).
        if (frame.clientId) this.unconfirmed.delete(frame.clientId);
        if (frame.clientId && this.state.messages.some((m) => m.metadata.clientId === frame.clientId)) return;
        this.addMessage('user', frame.content);
        return;
      case 'system':
        this.addMessage('system', frame.content);
        return;
      case 'history':
        if (frame.chatId !== null && frame.chatId !== this.state.chatId) this.set({ chatId: frame.chatId });
        this.applyHistory(frame.messages);
        return;
      case 'tool_generating':
        this.set({ toolGenerating: true });
        return;
      case 'tool_proposal': {
        this.clearTimer('toolClear');
        const known = this.state.proposals.some((p) => p.toolId === frame.toolId);
        const proposals = known
          ? this.state.proposals
          : [
              ...this.state.proposals,
              {
                toolId: frame.toolId,
                toolName: frame.toolName as ChatProposal['toolName'],
                payload: frame.payload,
                timestamp: frame.timestamp ?? new Date(this.clock.now()).toISOString(),
                messageId: frame.messageId,
                status: frame.status,
                message: decisionText(frame.status),
              },
            ];
        // A proposal decided earlier (replayed with history) asks nothing of the user (C44).
        if (frame.status !== 'pending') {
          this.set({ proposals });
          return;
        }
        this.set({
          proposals,
          toolGenerating: false,
          toolExecution: {
            state: 'awaiting_approval',
            message: CHAT_TEXTS.reviewProposed,
            toolName: frame.toolName,
          },
        });
        return;
      }
      case 'tool_executing':
        this.clearTimer('toolClear');
        this.set({
          toolGenerating: false,
          toolExecution: {
            state: 'executing',
            message: frame.content ?? frame.toolName ?? this.state.toolExecution.message,
            toolName: frame.toolName ?? this.state.toolExecution.toolName,
          },
        });
        return;
      case 'tool_complete':
        this.set({
          toolExecution: {
            state: 'idle',
            message: frame.content ?? this.state.toolExecution.message,
            toolName: frame.toolName ?? this.state.toolExecution.toolName,
          },
        });
        this.startTimer('toolClear', CHAT_TIMINGS.toolCompleteClearMs, () =>
          this.set({ toolExecution: { ...this.state.toolExecution, message: null } }),
        );
        return;
      case 'unknown':
        return;
    }
  }

  private applyAi(content: string, serverId: string | null): void {
    if (this.streamingId && serverId && this.streamingServerId && serverId !== this.streamingServerId) {
      this.endStream(false);
    }
    // The same answer resumed on a new socket (C52): it continues in its message, never a second one.
    const resumed =
      !this.streamingId && serverId
        ? this.state.messages.find((m) => m.role === 'ai' && m.metadata.serverId === serverId)
        : undefined;
    if (resumed) {
      this.streamingId = resumed.id;
      this.streamingServerId = serverId;
      const { interrupted: _cut, ...metadata } = resumed.metadata;
      this.updateMessage(resumed.id, (m) => ({ ...m, isPartial: true, metadata }));
    }
    if (!this.streamingId) {
      const id = `ai-${this.createId()}`;
      this.streamingId = id;
      this.streamingServerId = serverId;
      this.pushMessage({
        id,
        role: 'ai',
        content: '',
        timestamp: new Date(this.clock.now()).toISOString(),
        isPartial: true,
        metadata: serverId ? { serverId } : {},
      });
    }
    if (this.awaiting === 0) {
      // An answer streaming here is owed, whichever socket asked (C52): sends wait for it (C14).
      this.awaiting = 1;
      this.set({ loading: true });
    }
    const id = this.streamingId;
    const change = cumulativeChange(this.state.messages.find((m) => m.id === id)?.content ?? '', content);
    // A stale, shorter frame, or nothing new: the text already shown stays (C19).
    if (change.kind === 'same' || change.kind === 'stale') return;
    this.updateMessage(id, (m) => ({ ...m, content }));
    this.emit(
      change.kind === 'delta'
        ? { type: 'delta', messageId: id, text: change.text }
        : { type: 'reset', messageId: id, content },
    );
  }

  private endStream(interrupted: boolean): void {
    const id = this.streamingId;
    if (!id) return;
    this.streamingId = null;
    this.streamingServerId = null;
    this.updateMessage(id, (m) => ({
      ...m,
      isPartial: false,
      metadata: interrupted ? { ...m.metadata, interrupted: true } : m.metadata,
    }));
    this.emit({ type: 'end', messageId: id, interrupted });
  }

  private applyHistory(entries: readonly HistoryEntry[]): void {
    this.clearTimer('historyTimeout');
    this.requeueLost(entries);
    const fromHistory: ChatMessage[] = entries.map((entry, index) => ({
      id: entry.id ? `history-${entry.id}` : `history-${index}-${this.createId()}`,
      role: entry.role,
      content: entry.content,
      timestamp: entry.timestamp ?? new Date(this.clock.now()).toISOString(),
      isPartial: false,
      metadata: {
        ...(entry.id ? { serverId: entry.id } : {}),
        ...(entry.clientId ? { clientId: entry.clientId } : {}),
        ...(entry.attachments ? { attachments: entry.attachments } : {}),
        ...(entry.interrupted ? { interrupted: true } : {}),
      },
    }));
    const messages = mergeHistory(this.state.messages, fromHistory, {
      streamingId: this.streamingId,
      askedAt: this.historyRequestedAt,
    });
    this.set({ messages, historyLoading: false });
    // Flushed after the merge, so the requeued messages keep their place in the transcript (C47).
    this.releaseQueue();
    this.followOwedAnswer(entries);
  }

  /**
   * C48: history that ends in a user message owes that message's answer. It is being made for a socket
   * that is gone (a reconnect, a reload) and will reach none, so history is asked again, quietly and less
   * often each time, until an answer follows the message or `answerWaitMs` has passed since it was first
   * seen owed (an answer whose server died never comes).
   */
  private followOwedAnswer(entries: readonly HistoryEntry[]): void {
    const last = entries.at(-1);
    if (last?.role !== 'user') {
      this.owedAnswer = null;
      this.clearTimer('answerPoll');
      return;
    }
    const now = this.clock.now();
    if (this.owedAnswer?.messageId !== last.id)
      this.owedAnswer = { messageId: last.id, since: now, polls: 0 };
    const owed = this.owedAnswer;
    const delay = owedAnswerDelay(owed.polls, owed.since, now);
    if (delay === null) {
      this.clearTimer('answerPoll');
      return;
    }
    owed.polls += 1;
    this.startTimer('answerPoll', delay, () => this.askHistoryQuietly());
  }

  /** C48's request: no "Loading history" and no time-out warning, as the transcript shows what there is. */
  private askHistoryQuietly(): void {
    if (this.open && this.socket) this.transmit({ type: 'history', content: this.scope.chatId ?? '' });
  }

  /**
   * C47: a message handed to a socket that dropped before the server stored it is not in history; it goes back to
   * the front of the queue with its client id (the server ignores a copy it already has, CH7).
   */
  private requeueLost(entries: readonly HistoryEntry[]): void {
    const stored = new Set(entries.map((entry) => entry.clientId).filter((id) => id !== null));
    const lost: QueuedFrame[] = [];
    for (const [clientId, entry] of this.unconfirmed) {
      if (!stored.has(clientId) && this.holdQueue) lost.push(entry);
      if (stored.has(clientId) || this.holdQueue) this.unconfirmed.delete(clientId);
    }
    if (lost.length > 0) {
      const ids = new Set(lost.map((entry) => entry.messageId));
      this.queue = [...lost, ...this.queue];
      this.state = {
        ...this.state,
        messages: this.state.messages.map((m) =>
          ids.has(m.id)
            ? Object.freeze({ ...m, metadata: { ...m.metadata, delivery: 'queued' as const } })
            : m,
        ),
      };
    }
  }

  private context(): ChatWireContext {
    return {
      document_uuid: this.scope.documentUuid,
      section_uuid: this.scope.sectionUuid,
      subsection_uuid: this.scope.subsectionUuid,
      chat_id: this.scope.chatId,
    };
  }

  private addMessage(role: ChatRole, content: string): void {
    this.pushMessage({
      id: `${role}-${this.createId()}`,
      role,
      content,
      timestamp: new Date(this.clock.now()).toISOString(),
      isPartial: false,
      metadata: {},
    });
  }

  private pushMessage(message: ChatMessage): void {
    this.set({ messages: [...this.state.messages, Object.freeze(message)] });
  }

  private updateMessage(id: string, change: (m: ChatMessage) => ChatMessage): void {
    this.set({ messages: this.state.messages.map((m) => (m.id === id ? Object.freeze(change(m)) : m)) });
  }

  private emit(event: ChatStreamEvent): void {
    for (const listener of [...this.streamListeners]) listener(event);
  }

  private closeQuietly(socket: ChatSocket): void {
    try {
      socket.close(1000, 'client');
    } catch {
      // Already closed: nothing to do.
    }
  }

  private stopConnectionTimers(): void {
    this.clearTimer('ping');
    this.clearTimer('pongWait');
    this.clearTimer('stabilize');
    this.clearTimer('history');
    // The next open asks history again (C47), which picks C48 up where it stopped.
    this.clearTimer('answerPoll');
  }

  private startTimer(name: TimerName, ms: number, fn: () => void): void {
    this.clearTimer(name);
    const handle = this.clock.setTimeout(() => {
      if (this.timers.get(name) !== handle) return;
      this.timers.delete(name);
      fn();
    }, ms);
    this.timers.set(name, handle);
  }

  private clearTimer(name: TimerName): void {
    const handle = this.timers.get(name);
    if (handle === undefined) return;
    this.timers.delete(name);
    this.clock.clearTimeout(handle);
  }

  private set(change: Partial<Omit<ChatSnapshot, 'queued' | 'scope'>>): void {
    this.state = { ...this.state, ...change };
    const next = this.build();
    this.snapshot = next;
    this.notify();
  }

  private build(): ChatSnapshot {
    return Object.freeze({
      ...this.state,
      queued: this.queue.length,
      scope: Object.freeze({ ...this.scope }),
    });
  }
}
