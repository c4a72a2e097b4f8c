import { Subscribable } from '../state/subscribable.js';
import { browserVisibility, type VisibilitySource } from '../state/visibility-source.js';
import {
  type ChatConfig,
  type ChatEffect,
  type ChatEvent,
  type ChatOutput,
  type ChatPorts,
  type ChatState,
  type ChatTimer,
  chatTransition,
  initialChatState,
  type Unsent,
} from './chat-machine.js';
import type {
  ChatAttachmentInfo,
  ChatRole,
  ChatSendOptions,
  ChatToolCall,
  ProposalStatus,
} from './chat-messages.js';
import { CHAT_TIMINGS, DEFAULT_CHAT_QUEUE_LIMIT } from './chat-texts.js';
import {
  browserSocketFactory,
  type ChatClock,
  type ChatLogger,
  type ChatSocket,
  type ChatSocketFactory,
  systemChatClock,
} from './chat-transport.js';
import type { ChatScope } from './chat-url.js';

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
  /** The tools the AI ran on the server for this answer, in the order they started (C55); absent when none. */
  readonly toolCalls?: readonly ChatToolCall[];
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

/** A proposal still being written (C54): what its arguments hold so far. */
export interface ChatProposalDraft {
  /** The id its complete {@link ChatProposal} will have. */
  readonly toolId: string;
  readonly toolName: ChatProposal['toolName'];
  /** The arguments so far (strings may stop mid-word; the last edit may be incomplete). */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly messageId: string | null;
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
  /**
   * Proposals the AI is still writing (C54): their arguments so far, replaced by the {@link ChatProposal} of the
   * same `toolId` once complete, and gone at the answer's end.
   */
  readonly drafts: readonly ChatProposalDraft[];
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

function defaultId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * The realtime chat session of spec 001 §4 (`src/chat/SPEC.md`, C1–C53): connection states, authenticate and
 * ping, stabilisation, reconnect with backoff while the page is visible, a bounded queue, history, streamed
 * answers as deltas, tool execution and proposals. Socket, clock, randomness, ids and visibility are injected.
 *
 * Every rule is decided by the pure `chatTransition` (`chat-machine.ts`); this class is its runtime: it feeds it
 * the calls, socket events and timers, and carries out what it answers (open, send, close, timers, logs, stream
 * events).
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
  private readonly getToken: () => string | null;
  private readonly visibility: VisibilitySource;
  private readonly config: ChatConfig;
  private readonly timers = new Map<ChatTimer, unknown>();
  private readonly sockets = new Map<number, ChatSocket>();
  private readonly streamListeners = new Set<(event: ChatStreamEvent) => void>();
  private stopWatchingVisibility: (() => void) | null = null;
  private state: ChatState;
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
    this.config = {
      baseUrl: options.baseUrl,
      queueLimit: limit,
      queueWhileDisconnected: options.queueWhileDisconnected ?? true,
      pongTimeoutMs: options.pongTimeoutMs ?? CHAT_TIMINGS.pongTimeoutMs,
    };
    this.visibility = options.visibility ?? browserVisibility;
    this.getToken = options.getToken;
    this.state = initialChatState(options.scope);
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
    this.dispatch({ type: 'connect' });
  }

  /** Closes the connection on purpose: no reconnect; the queue is kept for the next connect (C22). */
  disconnect(): void {
    this.dispatch({ type: 'disconnect' });
  }

  /** Disconnects and stops every timer; later calls do nothing. */
  dispose(): void {
    this.dispatch({ type: 'dispose' });
  }

  /**
   * Switches the chat scope or the chat (C29): the old socket is closed, the transcript and proposals cleared,
   * and the new connection opens once the old one has closed, or after 800 ms at most.
   */
  switchTo(scope: Partial<ChatScope>): void {
    this.dispatch({ type: 'switchTo', scope });
  }

  /** Requests history now (forced) or when not yet requested for this scope (C17). */
  requestHistory(options: { force?: boolean } = {}): void {
    this.dispatch({ type: 'requestHistory', force: options.force === true });
  }

  /**
   * Sends a user message (C11–C16). Blank text or a send while loading is ignored; no token gives "You are not
   * authenticated. Please log in."; while disconnected it is queued (or refused with "AI Agent is not connected"
   * when queueing is off); a full queue refuses it with a system message.
   */
  send(text: string, options: ChatSendOptions = {}): ChatSendResult {
    return this.dispatch({ type: 'send', text, options }) as ChatSendResult;
  }

  /**
   * Asks the server to stop the answer being streamed (the Stop button, C41). The server ends it with
   * `end_of_response {interrupted}`; what was streamed so far stays, marked (C51). Returns false when no answer
   * is streaming.
   */
  stop(): boolean {
    return this.dispatch({ type: 'stop' }) === true;
  }

  /**
   * Accepts a pending proposal, or one rejected earlier (C26, C45): call it after applying it successfully;
   * sends `tool_approval`. An accepted proposal is final.
   */
  acceptProposal(toolId: string): boolean {
    return this.dispatch({ type: 'decide', toolId, action: 'accept' }) === true;
  }

  /** Rejects a pending proposal; sends `tool_approval` (C26). */
  rejectProposal(toolId: string): boolean {
    return this.dispatch({ type: 'decide', toolId, action: 'reject' }) === true;
  }

  // ---- the runtime ----

  /**
   * Runs one event through the transition and carries out its effects, in order. A socket may answer inside
   * `send`: that event runs at once (nested), as the network would have it, on the state already committed.
   */
  private dispatch(event: ChatEvent): ChatOutput {
    const before = this.state;
    const ports: ChatPorts = {
      now: this.clock.now(),
      random: this.random,
      createId: this.createId,
      token: this.getToken,
      visible: () => this.visibility.isVisible(),
    };
    const step = chatTransition(before, event, this.config, ports);
    this.state = step.state;
    const changed =
      step.state.view !== before.view ||
      step.state.queue.length !== before.queue.length ||
      step.state.scope !== before.scope;
    if (changed) this.snapshot = this.build();
    const unsent: Unsent[] = [];
    for (const effect of step.effects) this.run(effect, unsent);
    if (unsent.length > 0) this.dispatch({ type: 'unsent', frames: unsent });
    if (changed) this.notify();
    return step.output;
  }

  private run(effect: ChatEffect, unsent: Unsent[]): void {
    switch (effect.type) {
      case 'open':
        this.open(effect.socket, effect.url);
        return;
      case 'transmit': {
        const socket = this.sockets.get(effect.socket);
        // Its socket closed earlier in this step (a server that answered inside an earlier send): not sent.
        if (!socket || this.state.socket !== effect.socket || !this.state.open) {
          unsent.push({ failure: effect.failure, requeue: effect.requeue });
          return;
        }
        try {
          socket.send(effect.data);
        } catch {
          this.dispatch({ type: 'transmitFailed', socket: effect.socket, failure: effect.failure });
        }
        return;
      }
      case 'close': {
        const socket = this.sockets.get(effect.socket);
        try {
          socket?.close(1000, 'client');
        } catch {
          // Already closed: nothing to do.
        }
        return;
      }
      case 'startTimer': {
        this.clearTimer(effect.name);
        const handle = this.clock.setTimeout(() => {
          if (this.timers.get(effect.name) !== handle) return;
          this.timers.delete(effect.name);
          this.dispatch({ type: 'timer', name: effect.name });
        }, effect.ms);
        this.timers.set(effect.name, handle);
        return;
      }
      case 'clearTimer':
        this.clearTimer(effect.name);
        return;
      case 'log':
        this.logger[effect.level](effect.message);
        return;
      case 'stream':
        for (const listener of [...this.streamListeners]) listener(effect.event);
        return;
      case 'watchVisibility':
        this.stopWatchingVisibility ??= this.visibility.onVisible(() => this.dispatch({ type: 'visible' }));
        return;
      case 'unwatchVisibility':
        this.stopWatchingVisibility?.();
        this.stopWatchingVisibility = null;
        return;
    }
  }

  private open(id: number, url: string): void {
    let socket: ChatSocket;
    try {
      socket = this.factory(url);
    } catch {
      this.dispatch({ type: 'openFailed', socket: id });
      return;
    }
    this.sockets.set(id, socket);
    socket.onopen = () => this.dispatch({ type: 'opened', socket: id });
    socket.onmessage = (event) => this.dispatch({ type: 'frame', socket: id, data: event.data });
    socket.onclose = (event) => {
      this.sockets.delete(id);
      this.dispatch({
        type: 'closed',
        socket: id,
        code: typeof event?.code === 'number' ? event.code : 1006,
      });
    };
    socket.onerror = () => this.dispatch({ type: 'socketError', socket: id });
  }

  private clearTimer(name: ChatTimer): void {
    const handle = this.timers.get(name);
    if (handle === undefined) return;
    this.timers.delete(name);
    this.clock.clearTimeout(handle);
  }

  private build(): ChatSnapshot {
    return Object.freeze({
      ...this.state.view,
      queued: this.state.queue.length,
      scope: Object.freeze({ ...this.state.scope }),
    });
  }
}
