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
import type {
  ChatMessage,
  ChatProposal,
  ChatProposalDraft,
  ChatSendResult,
  ChatSnapshot,
  ChatStreamEvent,
} from './chat-session.js';
import { CHAT_TEXTS, CHAT_TIMINGS } from './chat-texts.js';
import { type ChatScope, chatSocketUrl } from './chat-url.js';

/**
 * The chat session as a pure transition (`chatTransition(state, event, ports) → {state, effects, output}`), the
 * shape of `save/save-machine.ts`: every rule of `chat/SPEC.md` is decided here, and `ChatSession` only runs the
 * effects (sockets, timers, logs, stream events) through its injected socket factory and clock. Time, the jitter
 * draw, ids and the token come in as {@link ChatPorts}, so the same state, event and ports give the same answer.
 */

/** @internal The timers the session runs. */
export type ChatTimer =
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

/** @internal A frame waiting for a connection, and the user message it carries (C12). */
export interface QueuedFrame {
  readonly frame: OutgoingFrame;
  readonly messageId: string | null;
}

/** @internal What the snapshot shows, less the queue length and the scope (kept beside). */
export type ChatView = Omit<ChatSnapshot, 'queued' | 'scope'>;

/** @internal Everything the session knows. */
export interface ChatState {
  readonly view: ChatView;
  readonly scope: Required<ChatScope>;
  readonly queue: readonly QueuedFrame[];
  /** Messages handed to a socket whose storing the server has not confirmed yet, by client id (C47). */
  readonly unconfirmed: ReadonlyMap<string, QueuedFrame>;
  /** After a reconnect the queue waits for history, so a message lost on the wire goes first (C47). */
  readonly holdQueue: boolean;
  readonly historyKeys: ReadonlySet<string>;
  readonly historyRequestedAt: number;
  /** The user message whose answer history lacks, while C48 asks again for it. */
  readonly owedAnswer: {
    readonly messageId: string | null;
    readonly since: number;
    readonly polls: number;
  } | null;
  readonly streamingId: string | null;
  readonly streamingServerId: string | null;
  /** Messages sent on this socket still owed an `end_of_response`; `loading` while above 0 (C14). */
  readonly awaiting: number;
  /** The runtime's number of the current socket, of the one closing for a switch, and the next one's. */
  readonly socket: number | null;
  readonly closingSocket: number | null;
  readonly nextSocket: number;
  readonly open: boolean;
  readonly everOpened: boolean;
  readonly attempts: number;
  readonly suppressUntil: number;
  readonly switching: boolean;
  readonly disposed: boolean;
  /** The connection dropped and the session means to get it back (C50). */
  readonly retrying: boolean;
  readonly watchingVisibility: boolean;
  /** The token read at the last connect: the one `authenticate` carries (C7). */
  readonly connectToken: string;
  readonly timers: ReadonlySet<ChatTimer>;
}

/** @internal The session's fixed settings. */
export interface ChatConfig {
  readonly baseUrl: string;
  readonly queueLimit: number;
  readonly queueWhileDisconnected: boolean;
  readonly pongTimeoutMs: number;
}

/** @internal What the transition asks of the world while it decides: read when needed, in order. */
export interface ChatPorts {
  readonly now: number;
  /** A draw in [0, 1) for the reconnect jitter (C9). */
  random(): number;
  createId(): string;
  /** The token store's token, read at connect and send (C16). */
  token(): string | null;
  /** The page is visible and online (C50). */
  visible(): boolean;
}

/** @internal What happened. Socket events name the runtime's socket number. */
export type ChatEvent =
  | { type: 'connect' }
  | { type: 'disconnect' }
  | { type: 'dispose' }
  | { type: 'switchTo'; scope: Partial<ChatScope> }
  | { type: 'requestHistory'; force: boolean }
  | { type: 'send'; text: string; options: ChatSendOptions }
  | { type: 'stop' }
  | { type: 'decide'; toolId: string; action: 'accept' | 'reject' }
  | { type: 'visible' }
  | { type: 'opened'; socket: number }
  | { type: 'openFailed'; socket: number }
  | { type: 'frame'; socket: number; data: unknown }
  | { type: 'closed'; socket: number; code: number }
  | { type: 'socketError'; socket: number }
  | { type: 'transmitFailed'; socket: number; failure: TransmitFailure }
  /** Frames of one step that found their socket gone by the time they were to go out (it closed meanwhile). */
  | { type: 'unsent'; frames: readonly Unsent[] }
  | { type: 'timer'; name: ChatTimer };

/** @internal What a failed `socket.send` undoes (C32). */
export type TransmitFailure =
  | { kind: 'message'; messageId: string; clientId: string }
  | { kind: 'queued'; messageId: string }
  | { kind: 'history'; key: string }
  | { kind: 'other' }
  /** `authenticate`: the close that follows decides. */
  | { kind: 'ignore' };

/** @internal A frame not handed to any socket, and what it came from. */
export interface Unsent {
  readonly failure: TransmitFailure;
  /** Set when it came from the queue or a send: it goes back to the queue (C11: never silently lost). */
  readonly requeue: QueuedFrame | null;
}

/** @internal What the runtime does. */
export type ChatEffect =
  | { type: 'open'; socket: number; url: string }
  | { type: 'transmit'; socket: number; data: string; failure: TransmitFailure; requeue: QueuedFrame | null }
  /** A client close (1000 "client"); a socket already closed is ignored. */
  | { type: 'close'; socket: number }
  | { type: 'startTimer'; name: ChatTimer; ms: number }
  | { type: 'clearTimer'; name: ChatTimer }
  | { type: 'log'; level: 'warn' | 'error'; message: string }
  | { type: 'stream'; event: ChatStreamEvent }
  | { type: 'watchVisibility' }
  | { type: 'unwatchVisibility' };

/** @internal What a call answers (`send`, `stop`, `acceptProposal`…). */
export type ChatOutput = ChatSendResult | boolean | undefined;

/** @internal One step. */
export interface ChatStep {
  readonly state: ChatState;
  readonly effects: readonly ChatEffect[];
  readonly output: ChatOutput;
}

/** The spec 001 §4 text of a decided proposal; null while pending. */
function decisionText(status: ProposalStatus): string | null {
  if (status === 'pending') return null;
  return status === 'accepted' ? CHAT_TEXTS.changesApplied : CHAT_TEXTS.proposalRejected;
}

/** Names and lengths of sent attachments, as the transcript keeps them (C42). */
function attachmentInfo(attachments: readonly { name: string; content: string }[]): ChatAttachmentInfo[] {
  return attachments.map(({ name, content }) => ({ name, characters: content.length }));
}

/** @internal */
export function scopeKey(scope: Required<ChatScope>): string {
  return JSON.stringify([scope.documentUuid, scope.sectionUuid, scope.subsectionUuid]);
}

/** @internal */
export function fullScope(scope: ChatScope): Required<ChatScope> {
  return {
    documentUuid: scope.documentUuid,
    sectionUuid: scope.sectionUuid ?? null,
    subsectionUuid: scope.subsectionUuid ?? null,
    chatId: scope.chatId ?? null,
  };
}

/** @internal The state of a session never connected. */
export function initialChatState(scope: ChatScope): ChatState {
  return {
    view: {
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
      drafts: [],
      chatId: null,
      provider: null,
    },
    scope: fullScope(scope),
    queue: [],
    unconfirmed: new Map(),
    holdQueue: false,
    historyKeys: new Set(),
    historyRequestedAt: 0,
    owedAnswer: null,
    streamingId: null,
    streamingServerId: null,
    awaiting: 0,
    socket: null,
    closingSocket: null,
    nextSocket: 1,
    open: false,
    everOpened: false,
    attempts: 0,
    suppressUntil: 0,
    switching: false,
    disposed: false,
    retrying: false,
    watchingVisibility: false,
    connectToken: '',
    timers: new Set(),
  };
}

/**
 * @internal The transition: the rules of `chat/SPEC.md` (cited beside each branch) applied to one event. The
 * state passed in is never changed.
 */
export function chatTransition(
  state: ChatState,
  event: ChatEvent,
  config: ChatConfig,
  ports: ChatPorts,
): ChatStep {
  const step = new Step(state, config, ports);
  const output = step.run(event);
  return { state: step.result(), effects: step.effects, output };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One transition's working copy: the old state copied on write, and the effects asked for so far. */
class Step {
  readonly effects: ChatEffect[] = [];
  private readonly s: Mutable<ChatState>;
  private readonly unconfirmed: Map<string, QueuedFrame>;
  private readonly historyKeys: Set<string>;
  private readonly timers: Set<ChatTimer>;
  private queue: QueuedFrame[];

  constructor(
    state: ChatState,
    private readonly config: ChatConfig,
    private readonly ports: ChatPorts,
  ) {
    this.s = { ...state };
    this.unconfirmed = new Map(state.unconfirmed);
    this.historyKeys = new Set(state.historyKeys);
    this.timers = new Set(state.timers);
    this.queue = [...state.queue];
  }

  result(): ChatState {
    return {
      ...this.s,
      queue: this.queue,
      unconfirmed: this.unconfirmed,
      historyKeys: this.historyKeys,
      timers: this.timers,
    };
  }

  run(event: ChatEvent): ChatOutput {
    switch (event.type) {
      case 'connect':
        this.connect();
        return undefined;
      case 'disconnect':
        this.disconnect();
        return undefined;
      case 'dispose':
        this.disconnect();
        for (const name of [...this.timers]) this.clearTimer(name);
        if (this.s.watchingVisibility) this.effects.push({ type: 'unwatchVisibility' });
        this.s.watchingVisibility = false;
        this.s.disposed = true;
        return undefined;
      case 'switchTo':
        this.switchTo(event.scope);
        return undefined;
      case 'requestHistory':
        this.requestHistory(event.force);
        return undefined;
      case 'send':
        return this.send(event.text, event.options);
      case 'stop':
        // C41: only while an answer is owed on an open socket.
        if (!this.s.view.loading || !this.s.open || this.s.socket === null) return false;
        this.transmit({ type: 'stop', client_id: this.ports.createId() });
        return true;
      case 'decide':
        return this.decide(event.toolId, event.action);
      case 'visible':
        this.resumeWhenVisible();
        return undefined;
      case 'opened':
        if (event.socket === this.s.socket) this.handleOpen();
        return undefined;
      case 'openFailed':
        if (event.socket !== this.s.socket) return undefined;
        // C4: a factory that throws.
        this.s.socket = null;
        this.set({ status: 'error', error: CHAT_TEXTS.connectFailed, reconnect: null });
        return undefined;
      case 'frame':
        if (event.socket !== this.s.socket) return undefined;
        // Any frame proves the connection is alive (C46).
        this.clearTimer('pongWait');
        this.handleFrame(event.data);
        return undefined;
      case 'closed':
        this.handleClose(event.socket, event.code);
        return undefined;
      case 'socketError':
        // Errors are followed by a close, which decides; only logged outside the suppression window (C8).
        if (event.socket === this.s.socket && this.ports.now >= this.s.suppressUntil)
          this.log('warn', 'Chat socket error');
        return undefined;
      case 'transmitFailed':
        this.transmitFailed(event.failure);
        return undefined;
      case 'unsent':
        this.unsent(event.frames);
        return undefined;
      case 'timer':
        if (!this.timers.has(event.name)) return undefined;
        this.timers.delete(event.name);
        this.timerFired(event.name);
        return undefined;
    }
  }

  // ---- calls ----

  /** C28, C29, C16: one connect at a time; a token is needed. */
  private connect(): void {
    if (this.s.disposed || this.s.socket !== null || this.timers.has('switchWait')) return;
    if (!this.s.watchingVisibility) {
      // Listened to from the first connect: a session never connected holds no listener (C50).
      this.s.watchingVisibility = true;
      this.effects.push({ type: 'watchVisibility' });
    }
    const token = this.ports.token();
    if (!token) {
      this.set({ status: 'error', error: CHAT_TEXTS.notAuthenticated, reconnect: null });
      return;
    }
    this.s.connectToken = token;
    this.clearTimer('reconnect');
    if (!this.s.everOpened && this.s.attempts === 0) {
      this.s.suppressUntil = this.ports.now + CHAT_TIMINGS.initialErrorSuppressionMs;
    }
    const socket = this.s.nextSocket;
    this.s.nextSocket += 1;
    this.s.socket = socket;
    this.s.open = false;
    this.effects.push({ type: 'open', socket, url: chatSocketUrl(this.config.baseUrl, this.s.scope) });
    this.set({ status: 'connecting', reconnect: null });
  }

  /** C22: no reconnect; the queue is kept. */
  private disconnect(): void {
    const socket = this.s.socket;
    this.stopConnectionTimers();
    this.clearTimer('reconnect');
    this.clearTimer('switchWait');
    this.s.switching = false;
    this.s.retrying = false;
    this.s.socket = null;
    this.s.open = false;
    this.endStream(true);
    this.s.awaiting = 0;
    this.set({
      status: 'closed',
      stabilizing: false,
      reconnect: null,
      loading: false,
      toolGenerating: false,
      drafts: [],
    });
    if (socket !== null) this.effects.push({ type: 'close', socket });
  }

  /** C29. */
  private switchTo(scope: Partial<ChatScope>): void {
    if (this.s.disposed) return;
    const next = fullScope({ ...this.s.scope, ...scope });
    if (next.chatId !== this.s.scope.chatId || scopeKey(next) !== scopeKey(this.s.scope)) {
      this.historyKeys.delete(scopeKey(next));
    }
    this.s.scope = next;
    this.failQueued();
    this.unconfirmed.clear();
    this.s.holdQueue = false;
    this.s.owedAnswer = null;
    this.endStream(true);
    const socket = this.s.socket;
    this.stopConnectionTimers();
    this.clearTimer('reconnect');
    this.clearTimer('history');
    this.clearTimer('historyTimeout');
    this.s.socket = null;
    this.s.open = false;
    this.s.everOpened = false;
    this.s.attempts = 0;
    this.s.retrying = false;
    this.s.switching = true;
    this.s.awaiting = 0;
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
      drafts: [],
      toolExecution: { state: 'idle', message: null, toolName: null },
      chatId: null,
      provider: null,
    });
    this.startTimer('switchWait', CHAT_TIMINGS.switchWaitMs);
    if (socket !== null) {
      this.s.closingSocket = socket;
      this.effects.push({ type: 'close', socket });
    } else {
      this.finishSwitch();
    }
  }

  /** C17. */
  private requestHistory(force: boolean): void {
    const key = scopeKey(this.s.scope);
    if (!force && this.historyKeys.has(key)) return;
    if (!this.s.open || this.s.socket === null) {
      if (force) this.historyKeys.delete(key);
      return;
    }
    this.historyKeys.add(key);
    this.s.historyRequestedAt = this.ports.now;
    this.clearTimer('history');
    this.startTimer('historyTimeout', CHAT_TIMINGS.historyTimeoutMs);
    this.set({ historyLoading: true });
    this.transmit({ type: 'history', content: this.s.scope.chatId ?? '' }, { kind: 'history', key });
  }

  /** C11–C16, C33, C42. */
  private send(text: string, options: ChatSendOptions): ChatSendResult {
    if (this.s.disposed) return { ok: false, reason: 'disposed' };
    if (text.trim() === '') return { ok: false, reason: 'blank' };
    if (this.s.view.loading) return { ok: false, reason: 'busy' };
    const attachments = chatAttachmentsSchema.safeParse(options.attachments ?? []);
    if (!attachments.success) return { ok: false, reason: 'invalid_attachment' };
    if (!this.ports.token()) {
      this.set({ error: CHAT_TEXTS.notAuthenticated });
      return { ok: false, reason: 'unauthenticated' };
    }
    const connected = this.s.open && this.s.socket !== null;
    if (!connected && !this.config.queueWhileDisconnected) {
      this.set({ error: CHAT_TEXTS.notConnected });
      return { ok: false, reason: 'not_connected' };
    }
    if (!connected && this.queue.length >= this.config.queueLimit) {
      this.addMessage('system', CHAT_TEXTS.sendFailed);
      return { ok: false, reason: 'queue_full' };
    }
    const clientId = this.ports.createId();
    const messageId = `user-${clientId}`;
    const frame = messageFrame(text, clientId, options, this.context());
    this.pushMessage({
      id: messageId,
      role: 'user',
      content: text,
      timestamp: new Date(this.ports.now).toISOString(),
      isPartial: false,
      metadata: {
        clientId,
        delivery: 'queued',
        ...(attachments.data.length > 0 ? { attachments: attachmentInfo(attachments.data) } : {}),
      },
    });
    if (connected) {
      this.transmit(frame, undefined, messageId);
      return { ok: true, messageId, clientId, queued: false };
    }
    this.queue.push({ frame, messageId });
    // A send is how the user resumes after a normal close (C15).
    if (this.s.socket === null && !this.timers.has('reconnect') && !this.s.switching) this.connect();
    return { ok: true, messageId, clientId, queued: true };
  }

  /** C26, C45. */
  private decide(toolId: string, action: 'accept' | 'reject'): boolean {
    const proposal = this.s.view.proposals.find((p) => p.toolId === toolId);
    const open = proposal?.status === 'pending' || (proposal?.status === 'rejected' && action === 'accept');
    if (proposal === undefined || !open) return false;
    const status = action === 'accept' ? 'accepted' : 'rejected';
    const decided: ChatProposal = { ...proposal, status, message: decisionText(status) };
    const proposals = this.s.view.proposals.map((p) => (p.toolId === toolId ? decided : p));
    const stillPending = proposals.some((p) => p.status === 'pending');
    this.set({
      proposals,
      toolExecution: stillPending
        ? this.s.view.toolExecution
        : { state: 'idle', message: null, toolName: this.s.view.toolExecution.toolName },
    });
    const frame: OutgoingFrame = {
      type: 'tool_approval',
      tool_id: toolId,
      action,
      client_id: this.ports.createId(),
    };
    if (this.s.open && this.s.socket !== null) this.transmit(frame);
    else if (this.queue.length < this.config.queueLimit) {
      this.queue.push({ frame, messageId: null });
      if (this.s.socket === null && !this.timers.has('reconnect') && !this.s.switching) this.connect();
    } else this.addMessage('system', CHAT_TEXTS.sendFailed);
    return true;
  }

  /** C50: the page is back; a connection the session wants is tried at once. */
  private resumeWhenVisible(): void {
    if (this.s.disposed || !this.s.retrying || this.s.socket !== null || this.s.switching) return;
    if (!this.ports.visible()) return;
    this.clearTimer('reconnect');
    this.connect();
  }

  // ---- socket events ----

  /** C7, C8, C17, C47. */
  private handleOpen(): void {
    const reopened = this.s.everOpened;
    const token = this.s.connectToken;
    this.s.retrying = false;
    this.s.open = true;
    this.s.everOpened = true;
    this.transmit({ type: 'authenticate', token }, { kind: 'ignore' });
    this.startTimer('ping', CHAT_TIMINGS.pingMs);
    this.startTimer('stabilize', CHAT_TIMINGS.stabilizationMs);
    const keepWarning = this.s.view.historyWarning !== null && this.timers.has('warningClear');
    this.set({
      status: 'connected',
      error: null,
      reconnect: null,
      stabilizing: true,
      historyWarning: keepWarning ? this.s.view.historyWarning : null,
    });
    if (reopened) {
      // Answers finished and messages stored while the socket was down: ask history again (C47).
      this.historyKeys.delete(scopeKey(this.s.scope));
      this.s.holdQueue = this.unconfirmed.size > 0;
    }
    if (!this.s.holdQueue) this.flushQueue();
    if (!this.historyKeys.has(scopeKey(this.s.scope))) {
      this.startTimer('history', CHAT_TIMINGS.historyDelayMs);
    }
  }

  /** C21–C23, C27, C29, C50. */
  private handleClose(socket: number, code: number): void {
    if (socket === this.s.closingSocket) {
      this.s.closingSocket = null;
      if (this.s.switching) this.finishSwitch();
      return;
    }
    if (socket !== this.s.socket) return;
    const wasStabilizing = this.timers.has('stabilize');
    this.s.socket = null;
    this.s.open = false;
    this.stopConnectionTimers();
    this.endStream(true);
    this.abandonHistoryRequest();
    this.s.holdQueue = false;
    this.s.awaiting = 0;
    this.set({ stabilizing: false, loading: false, toolGenerating: false });
    const decision = closeDecision(code, this.s.everOpened);
    if (decision.kind === 'final') {
      if (decision.authFailed) this.log('error', CHAT_TEXTS.authFailedLog);
      this.set({ status: 'error', error: decision.error });
      return;
    }
    this.scheduleReconnect(wasStabilizing);
  }

  /** C32: what a failed `socket.send` undoes. */
  private transmitFailed(failure: TransmitFailure): void {
    if (failure.kind === 'ignore') return;
    if (failure.kind === 'message' || failure.kind === 'queued') {
      if (failure.kind === 'message') this.unconfirmed.delete(failure.clientId);
      this.s.awaiting = Math.max(0, this.s.awaiting - 1);
      this.updateMessage(failure.messageId, (m) => ({
        ...m,
        metadata: { ...m.metadata, delivery: 'failed' },
      }));
      this.set({ loading: this.s.awaiting > 0 });
    }
    if (failure.kind === 'history') {
      this.clearTimer('historyTimeout');
      this.historyKeys.delete(failure.key);
      this.set({ historyLoading: false });
    }
    this.addMessage('system', CHAT_TEXTS.sendFailed);
  }

  /** Frames that never left (their socket closed first, in the same step): back to the front of the queue. */
  private unsent(frames: readonly Unsent[]): void {
    const back: QueuedFrame[] = [];
    for (const { failure, requeue } of frames) {
      if (failure.kind === 'message') this.unconfirmed.delete(failure.clientId);
      if (failure.kind === 'message' || failure.kind === 'queued') {
        this.s.awaiting = Math.max(0, this.s.awaiting - 1);
        this.updateMessage(failure.messageId, (m) => ({
          ...m,
          metadata: { ...m.metadata, delivery: 'queued' },
        }));
      }
      if (failure.kind === 'history') this.historyKeys.delete(failure.key);
      if (requeue) back.push(requeue);
    }
    this.queue = [...back, ...this.queue];
    this.set({ loading: this.s.awaiting > 0 });
  }

  private timerFired(name: ChatTimer): void {
    switch (name) {
      case 'ping': {
        if (!this.s.open || this.s.socket === null) return;
        // C46: a socket silent after a ping is stalled.
        this.startTimer('pongWait', this.config.pongTimeoutMs);
        this.transmit({ type: 'ping', timestamp: this.ports.now });
        this.startTimer('ping', CHAT_TIMINGS.pingMs);
        return;
      }
      case 'pongWait': {
        const socket = this.s.socket;
        if (socket === null) return;
        this.log('warn', 'Chat connection stalled');
        this.handleClose(socket, 1006);
        this.effects.push({ type: 'close', socket });
        return;
      }
      case 'stabilize':
        // Only a connection that stayed up through the window resets the backoff (C8, C9).
        this.s.attempts = 0;
        this.set({ stabilizing: false });
        return;
      case 'reconnect':
        // C50: nobody looking, or offline: the attempt waits for the page to return.
        if (this.ports.visible()) this.connect();
        // Nothing scheduled any more: said as a drop is (C21's text; a send resumes, C15).
        else this.set({ status: 'error', error: CHAT_TEXTS.disconnectedResume, reconnect: null });
        return;
      case 'history':
        this.requestHistory(false);
        return;
      case 'historyTimeout':
        this.set({ historyLoading: false, historyWarning: CHAT_TEXTS.historyTimeout });
        // Without history the lost ones cannot be told apart: send what waits rather than hold it (C47).
        this.releaseQueue();
        this.startTimer('warningClear', CHAT_TIMINGS.warningClearMs);
        return;
      case 'answerPoll':
        this.askHistoryQuietly();
        return;
      case 'warningClear':
        if (this.s.open) this.set({ historyWarning: null });
        return;
      case 'toolClear':
        this.set({ toolExecution: { ...this.s.view.toolExecution, message: null } });
        return;
      case 'switchWait':
        this.finishSwitch();
        return;
    }
  }

  // ---- frames ----

  private handleFrame(data: unknown): void {
    const frame = parseIncomingFrame(data);
    if (frame.type === 'invalid') {
      this.log('warn', `Ignored chat frame: ${frame.reason}`);
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
        if (frame.provider !== null && frame.provider !== this.s.view.provider) {
          this.set({ provider: frame.provider });
        }
        this.applyAi(frame.content, frame.messageId);
        return;
      case 'end_of_response':
        // A duplicate's answer went to an earlier socket: it ends no answer streaming here (C52).
        // Stopped by the user (C41): what streamed stays, marked (C51).
        if (!frame.duplicate) this.endStream(frame.interrupted);
        this.s.awaiting = Math.max(0, this.s.awaiting - 1);
        // C54: a draft never completed (refused, stopped) goes with its answer.
        this.set({ loading: this.s.awaiting > 0, toolGenerating: false, drafts: [] });
        // A resend the server already had (C47): its answer went to the earlier socket, so fetch it (C48).
        if (frame.duplicate) this.askHistoryQuietly();
        return;
      case 'human':
        if (frame.chatId !== null && frame.chatId !== this.s.view.chatId) this.set({ chatId: frame.chatId });
        // The server stored it: it is never resent (C47).
        if (frame.clientId) this.unconfirmed.delete(frame.clientId);
        // C38: our own echo is not added again.
        if (frame.clientId && this.s.view.messages.some((m) => m.metadata.clientId === frame.clientId))
          return;
        this.addMessage('user', frame.content);
        return;
      case 'system':
        this.addMessage('system', frame.content);
        return;
      case 'history':
        if (frame.chatId !== null && frame.chatId !== this.s.view.chatId) this.set({ chatId: frame.chatId });
        this.applyHistory(frame.messages);
        return;
      case 'tool_generating': {
        const { toolId, partialPayload } = frame;
        const toolName = frame.toolName;
        // C54: a proposal streaming in: its arguments so far, under the id its complete proposal will have.
        if (
          toolId === null ||
          (toolName !== 'propose_full_subsection' && toolName !== 'propose_partial_edits')
        ) {
          this.set({ toolGenerating: true });
          return;
        }
        if (this.s.view.proposals.some((p) => p.toolId === toolId)) return;
        const draft: ChatProposalDraft = {
          toolId,
          toolName,
          payload: partialPayload ?? this.s.view.drafts.find((d) => d.toolId === toolId)?.payload ?? {},
          messageId: frame.messageId,
        };
        const others = this.s.view.drafts.filter((d) => d.toolId !== toolId);
        this.set({ toolGenerating: true, drafts: [...others, draft] });
        return;
      }
      case 'tool_call': {
        // C55: a tool the AI runs on the server shows in its answer, which starts here if no text came yet.
        const find = () =>
          this.s.view.messages.find((m) => m.role === 'ai' && m.metadata.serverId === frame.messageId);
        if (find() === undefined) this.applyAi('', frame.messageId);
        const target = find();
        if (target === undefined) return;
        this.updateMessage(target.id, (m) => {
          const calls = m.toolCalls ?? [];
          const known = calls.some((call) => call.callId === frame.call.callId);
          return {
            ...m,
            toolCalls: known
              ? calls.map((call) => (call.callId === frame.call.callId ? frame.call : call))
              : [...calls, frame.call],
          };
        });
        return;
      }
      case 'tool_proposal': {
        this.clearTimer('toolClear');
        // C54: the complete proposal replaces its draft.
        if (this.s.view.drafts.some((d) => d.toolId === frame.toolId)) {
          this.set({ drafts: this.s.view.drafts.filter((d) => d.toolId !== frame.toolId) });
        }
        // C37: a known tool id is ignored.
        const known = this.s.view.proposals.some((p) => p.toolId === frame.toolId);
        const proposals = known
          ? this.s.view.proposals
          : [
              ...this.s.view.proposals,
              {
                toolId: frame.toolId,
                toolName: frame.toolName as ChatProposal['toolName'],
                payload: frame.payload,
                timestamp: frame.timestamp ?? new Date(this.ports.now).toISOString(),
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
            message: frame.content ?? frame.toolName ?? this.s.view.toolExecution.message,
            toolName: frame.toolName ?? this.s.view.toolExecution.toolName,
          },
        });
        return;
      case 'tool_complete':
        this.set({
          toolExecution: {
            state: 'idle',
            message: frame.content ?? this.s.view.toolExecution.message,
            toolName: frame.toolName ?? this.s.view.toolExecution.toolName,
          },
        });
        // C25.
        this.startTimer('toolClear', CHAT_TIMINGS.toolCompleteClearMs);
        return;
      case 'unknown':
        // C40.
        return;
    }
  }

  /** C19, C52. */
  private applyAi(content: string, serverId: string | null): void {
    if (this.s.streamingId && serverId && this.s.streamingServerId && serverId !== this.s.streamingServerId) {
      this.endStream(false);
    }
    // The same answer resumed on a new socket (C52): it continues in its message, never a second one.
    const resumed =
      !this.s.streamingId && serverId
        ? this.s.view.messages.find((m) => m.role === 'ai' && m.metadata.serverId === serverId)
        : undefined;
    if (resumed) {
      this.s.streamingId = resumed.id;
      this.s.streamingServerId = serverId;
      const { interrupted: _cut, ...metadata } = resumed.metadata;
      this.updateMessage(resumed.id, (m) => ({ ...m, isPartial: true, metadata }));
    }
    if (!this.s.streamingId) {
      const id = `ai-${this.ports.createId()}`;
      this.s.streamingId = id;
      this.s.streamingServerId = serverId;
      this.pushMessage({
        id,
        role: 'ai',
        content: '',
        timestamp: new Date(this.ports.now).toISOString(),
        isPartial: true,
        metadata: serverId ? { serverId } : {},
      });
    }
    if (this.s.awaiting === 0) {
      // An answer streaming here is owed, whichever socket asked (C52): sends wait for it (C14).
      this.s.awaiting = 1;
      this.set({ loading: true });
    }
    const id = this.s.streamingId;
    const change = cumulativeChange(this.s.view.messages.find((m) => m.id === id)?.content ?? '', content);
    if (change.kind === 'same' || change.kind === 'stale') return;
    this.updateMessage(id, (m) => ({ ...m, content }));
    this.stream(
      change.kind === 'delta'
        ? { type: 'delta', messageId: id, text: change.text }
        : { type: 'reset', messageId: id, content },
    );
  }

  /** C20, C51. */
  private endStream(interrupted: boolean): void {
    const id = this.s.streamingId;
    if (!id) return;
    this.s.streamingId = null;
    this.s.streamingServerId = null;
    this.updateMessage(id, (m) => ({
      ...m,
      isPartial: false,
      metadata: interrupted ? { ...m.metadata, interrupted: true } : m.metadata,
    }));
    this.stream({ type: 'end', messageId: id, interrupted });
  }

  /** C18, C47, C48. */
  private applyHistory(entries: readonly HistoryEntry[]): void {
    this.clearTimer('historyTimeout');
    this.requeueLost(entries);
    const fromHistory: ChatMessage[] = entries.map((entry, index) => ({
      id: entry.id ? `history-${entry.id}` : `history-${index}-${this.ports.createId()}`,
      role: entry.role,
      content: entry.content,
      timestamp: entry.timestamp ?? new Date(this.ports.now).toISOString(),
      isPartial: false,
      metadata: {
        ...(entry.id ? { serverId: entry.id } : {}),
        ...(entry.clientId ? { clientId: entry.clientId } : {}),
        ...(entry.attachments ? { attachments: entry.attachments } : {}),
        ...(entry.interrupted ? { interrupted: true } : {}),
      },
      ...(entry.toolCalls ? { toolCalls: entry.toolCalls } : {}),
    }));
    const messages = mergeHistory(this.s.view.messages, fromHistory, {
      streamingId: this.s.streamingId,
      askedAt: this.s.historyRequestedAt,
    }).map((m) => Object.freeze(m));
    this.set({ messages, historyLoading: false });
    // Flushed after the merge, so the requeued messages keep their place in the transcript (C47).
    this.releaseQueue();
    this.followOwedAnswer(entries);
  }

  /** C48. */
  private followOwedAnswer(entries: readonly HistoryEntry[]): void {
    const last = entries.at(-1);
    if (last?.role !== 'user') {
      this.s.owedAnswer = null;
      this.clearTimer('answerPoll');
      return;
    }
    const now = this.ports.now;
    const owed =
      this.s.owedAnswer?.messageId === last.id
        ? this.s.owedAnswer
        : { messageId: last.id, since: now, polls: 0 };
    const delay = owedAnswerDelay(owed.polls, owed.since, now);
    if (delay === null) {
      this.s.owedAnswer = owed;
      this.clearTimer('answerPoll');
      return;
    }
    this.s.owedAnswer = { ...owed, polls: owed.polls + 1 };
    this.startTimer('answerPoll', delay);
  }

  /** C48's request: no "Loading history" and no time-out warning. */
  private askHistoryQuietly(): void {
    if (this.s.open && this.s.socket !== null)
      this.transmit({ type: 'history', content: this.s.scope.chatId ?? '' });
  }

  /** C47: a message handed to a socket that dropped before the server stored it goes back to the front. */
  private requeueLost(entries: readonly HistoryEntry[]): void {
    const stored = new Set(entries.map((entry) => entry.clientId).filter((id) => id !== null));
    const lost: QueuedFrame[] = [];
    for (const [clientId, entry] of [...this.unconfirmed]) {
      if (!stored.has(clientId) && this.s.holdQueue) lost.push(entry);
      if (stored.has(clientId) || this.s.holdQueue) this.unconfirmed.delete(clientId);
    }
    if (lost.length === 0) return;
    const ids = new Set(lost.map((entry) => entry.messageId));
    this.queue = [...lost, ...this.queue];
    this.set({
      messages: this.s.view.messages.map((m) =>
        ids.has(m.id) ? Object.freeze({ ...m, metadata: { ...m.metadata, delivery: 'queued' as const } }) : m,
      ),
    });
  }

  // ---- connection helpers ----

  /** C9, C50: the next attempt after a capped, jittered backoff, for as long as it takes. */
  private scheduleReconnect(wasStabilizing: boolean): void {
    this.s.retrying = true;
    this.s.attempts += 1;
    const delay = reconnectDelay(this.s.attempts, this.ports.random());
    const now = this.ports.now;
    const quiet = wasStabilizing || now < this.s.suppressUntil;
    this.startTimer('reconnect', delay);
    this.set({
      status: quiet ? 'connecting' : 'error',
      error: quiet ? this.s.view.error : CHAT_TEXTS.disconnectedResume,
      reconnect: { attempt: this.s.attempts, at: now + delay },
    });
  }

  private failQueued(): void {
    const ids = new Set(this.queue.map((q) => q.messageId).filter((id): id is string => id !== null));
    this.queue = [];
    if (ids.size === 0) return;
    this.set({
      messages: this.s.view.messages.map((m) =>
        ids.has(m.id) ? Object.freeze({ ...m, metadata: { ...m.metadata, delivery: 'failed' as const } }) : m,
      ),
    });
  }

  private finishSwitch(): void {
    if (!this.s.switching) return;
    this.s.switching = false;
    this.clearTimer('switchWait');
    this.s.closingSocket = null;
    this.connect();
  }

  private abandonHistoryRequest(): void {
    if (!this.timers.has('historyTimeout')) return;
    // The answer can no longer arrive on this socket: ask again after the next connect.
    this.clearTimer('historyTimeout');
    this.historyKeys.delete(scopeKey(this.s.scope));
    this.set({ historyLoading: false });
  }

  /** Ends C47's hold: the queue goes out in order. */
  private releaseQueue(): void {
    if (!this.s.holdQueue) return;
    this.s.holdQueue = false;
    this.flushQueue();
  }

  private flushQueue(): void {
    while (this.queue.length > 0 && this.s.open && this.s.socket !== null && !this.s.holdQueue) {
      const entry = this.queue.shift() as QueuedFrame;
      this.transmit(entry.frame, undefined, entry.messageId, true);
    }
  }

  /**
   * Hands one frame to the open socket (as sent, C11); a `socket.send` that throws comes back as `transmitFailed`
   * and is undone (C32).
   */
  private transmit(
    frame: OutgoingFrame,
    failure?: TransmitFailure,
    messageId: string | null = null,
    fromQueue = false,
  ): void {
    const socket = this.s.socket;
    if (socket === null) return;
    let undo: TransmitFailure = failure ?? { kind: 'other' };
    if (messageId) {
      if (frame.type === 'message') {
        this.unconfirmed.set(frame.client_id, { frame, messageId });
        undo = { kind: 'message', messageId, clientId: frame.client_id };
      } else undo = { kind: 'queued', messageId };
      this.s.awaiting += 1;
      this.updateMessage(messageId, (m) => ({ ...m, metadata: { ...m.metadata, delivery: 'sent' } }));
      this.set({ loading: true });
    }
    const requeue = messageId !== null || fromQueue ? { frame, messageId } : null;
    this.effects.push({ type: 'transmit', socket, data: JSON.stringify(frame), failure: undo, requeue });
  }

  private stopConnectionTimers(): void {
    this.clearTimer('ping');
    this.clearTimer('pongWait');
    this.clearTimer('stabilize');
    this.clearTimer('history');
    // The next open asks history again (C47), which picks C48 up where it stopped.
    this.clearTimer('answerPoll');
  }

  private context(): ChatWireContext {
    return {
      document_uuid: this.s.scope.documentUuid,
      section_uuid: this.s.scope.sectionUuid,
      subsection_uuid: this.s.scope.subsectionUuid,
      chat_id: this.s.scope.chatId,
    };
  }

  // ---- state and effects ----

  private startTimer(name: ChatTimer, ms: number): void {
    this.timers.add(name);
    this.effects.push({ type: 'startTimer', name, ms });
  }

  private clearTimer(name: ChatTimer): void {
    if (!this.timers.delete(name)) return;
    this.effects.push({ type: 'clearTimer', name });
  }

  private log(level: 'warn' | 'error', message: string): void {
    this.effects.push({ type: 'log', level, message });
  }

  private stream(event: ChatStreamEvent): void {
    this.effects.push({ type: 'stream', event });
  }

  private set(change: Partial<ChatView>): void {
    this.s.view = { ...this.s.view, ...change };
  }

  private addMessage(role: ChatRole, content: string): void {
    this.pushMessage({
      id: `${role}-${this.ports.createId()}`,
      role,
      content,
      timestamp: new Date(this.ports.now).toISOString(),
      isPartial: false,
      metadata: {},
    });
  }

  private pushMessage(message: ChatMessage): void {
    this.set({ messages: [...this.s.view.messages, Object.freeze(message)] });
  }

  private updateMessage(id: string, change: (m: ChatMessage) => ChatMessage): void {
    this.set({ messages: this.s.view.messages.map((m) => (m.id === id ? Object.freeze(change(m)) : m)) });
  }
}
