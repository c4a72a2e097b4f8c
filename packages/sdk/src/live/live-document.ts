import {
  HocuspocusProvider,
  HocuspocusProviderWebsocket,
  type HocuspocusProviderWebsocketConfiguration,
} from '@hocuspocus/provider';
import type { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import * as z from 'zod';
import { type Clock, systemClock } from '../state/clock.js';
import { Subscribable } from '../state/subscribable.js';

/** Where a live document's connection stands. */
export type LiveConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/** Someone else with the plan open (their awareness state). */
export interface LivePeer {
  /** Their Yjs client id (one per tab). */
  clientId: number;
  name: string;
  color: string;
}

/**
 * Why a live document is not being edited with the server: it refused the plan, the session ended (both
 * final), or the server holds as many plans open as it may (`busy`: the document tries again by itself,
 * with growing pauses, and the error clears once it is in).
 */
export interface LiveDocumentError {
  code: 'refused' | 'signed_out' | 'busy';
  /** Words to show: {@link LIVE_REFUSED}, {@link LIVE_DELETED}, {@link LIVE_SIGNED_OUT} or {@link LIVE_BUSY}. */
  message: string;
}

/** What a {@link LiveDocument} shows at one moment (a new object on every change). */
export interface LiveDocumentSnapshot {
  status: LiveConnectionStatus;
  /** The first exchange with the server is done: the document holds the server's state. */
  synced: boolean;
  /**
   * Every change made here is stored by the server (durable, not merely received). False while
   * changes are on their way or the connection is down: they are kept in this replica meanwhile.
   */
  saved: boolean;
  /** The others with the plan open, in a stable order. */
  peers: readonly LivePeer[];
  /**
   * The server lets this connection follow the plan but not change it (a blueprint someone else owns and
   * shares): it refuses changes made here, which then never count as saved. Lock the editor.
   */
  readOnly: boolean;
  error: LiveDocumentError | null;
  /**
   * Goes up each time the server says the plan's comments changed (someone commented, replied, resolved):
   * read them again (`client.comments.list`). Starts at 0.
   */
  commentsRevision: number;
}

/** Which kind of plan is live: a document, or a blueprint (co-edited the same way). */
export type LivePlanKind = 'document' | 'blueprint';

/** How to open a live document. */
export interface LiveDocumentOptions {
  /** The server's base URL (`https://plans.example.com`); the socket is `/ws/collab/` there. */
  baseUrl: string;
  /** The plan's uuid: a document's, or a blueprint's with `kind: 'blueprint'`. */
  documentId: string;
  /** Which kind of plan `documentId` names; a document by default. */
  kind?: LivePlanKind;
  /**
   * The session token, sent inside the protocol (never in the URL). Return `''` in a browser signed in
   * with the session cookie: the server then reads the cookie.
   */
  token: () => string | null | Promise<string | null>;
  /** Who you are to the others (shown beside your caret). */
  user?: { name: string; color: string };
  /** The Yjs document to fill; a new one by default. */
  document?: Y.Doc;
  /** A WebSocket implementation where the platform has none (Node before 22: `ws`). */
  WebSocket?: HocuspocusProviderWebsocketConfiguration['WebSocketPolyfill'];
  /**
   * How long to wait before the `attempt`-th retry (from 1) of a plan the server was too busy to open.
   * By default 1 s doubling to 30 s, with up to a quarter more at random so refused clients spread out.
   */
  busyRetryDelayMs?: (attempt: number) => number;
  /** The timers of the busy retry; default the real clock (the SDK's one `Clock`, as the chat and autosave take). */
  clock?: Clock;
  /**
   * How the socket reconnects after it drops: the first wait, doubled up to `maxDelayMs` (with jitter).
   * By default 1 s to 30 s.
   */
  reconnect?: { delayMs: number; maxDelayMs: number };
}

/** What a refused live document says: the server tells a missing plan and a stranger's apart to nobody. */
export const LIVE_REFUSED = 'This plan was not found, or you are not signed in to open it.';

/** Why the server closes a live plan that was deleted (a `refused` error: it is final). */
export const LIVE_DELETED = 'This plan was deleted.';

/**
 * Why the server closes a live plan whose sharing changed (a blueprint unpublished or made private): the
 * document connects again at once and is let in as far as the rules now allow (read-only, or refused).
 */
export const LIVE_ACCESS_CHANGED = 'Who may open this plan has changed.';

/** Why the server closes a live document whose session ended (on any instance). */
export const LIVE_SIGNED_OUT = 'Your session has ended. Sign in again.';

/**
 * Why the server does not open a plan now: it holds as many open as it may (its `LIVE_MAX_DOCUMENTS`).
 * The server sends these words; the document retries by itself.
 */
export const LIVE_BUSY = 'The server has too many plans open right now. Trying again shortly.';

function defaultBusyRetryDelayMs(attempt: number): number {
  const base = Math.min(30_000, 1_000 * 2 ** (attempt - 1));
  return base + Math.random() * base * 0.25;
}

const storedMessage = z.object({ type: z.literal('stored'), state_vector: z.string().max(1_000_000) });
const commentsMessage = z.object({ type: z.literal('comments') });

const peerState = z.object({
  user: z.object({ name: z.string().max(200), color: z.string().max(64) }),
});

/** A WebSocket class as the provider takes it (the browser's, or `ws` in Node). */
type WebSocketClass = NonNullable<HocuspocusProviderWebsocketConfiguration['WebSocketPolyfill']>;

/**
 * `WebSocket` made safe to close while connecting: the provider closes a socket that is still connecting
 * when it gives up on it (a stalled or reset network), and `ws` then emits an error with the provider's
 * listeners already gone, which in Node is an uncaught exception that ends the process.
 */
function tolerantWebSocket(Base: WebSocketClass): WebSocketClass {
  const Socket = Base as unknown as new (
    ...args: unknown[]
  ) => {
    readyState: number;
    close(code?: number, reason?: string): void;
    addEventListener?: (type: string, listener: () => void) => void;
  };
  return class TolerantWebSocket extends Socket {
    override close(code?: number, reason?: string): void {
      // 0 is CONNECTING: the abort's error is expected, and said nowhere else.
      if (this.readyState === 0) this.addEventListener?.('error', () => {});
      super.close(code, reason);
    }
  } as unknown as WebSocketClass;
}

/** Base64 to bytes, in browsers and Node alike. */
function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A plan open for live editing (docs/editor.md "Live plans"): a Yjs document kept in sync with the
 * server's over its `/ws/collab/` socket, with what a screen needs to show about it (connection,
 * whether your changes are stored, who else is there, why it was refused) on the SDK's one
 * subscribe/snapshot pattern. Bind an editor to {@link document} (Tiptap's Collaboration extension on the
 * fragment `LIVE_CONTENT_FIELD`); read and write the content with `readLiveContent`/`writeLiveContent`.
 *
 * "Saved" is honest: the server tells each replica which state it has stored (after its update log
 * write), and a replica is saved when everything it made itself is within it.
 */
export class LiveDocument extends Subscribable {
  /** The shared state. */
  readonly document: Y.Doc;
  readonly #provider: HocuspocusProvider;
  readonly #socket: HocuspocusProviderWebsocket;
  #snapshot: LiveDocumentSnapshot = {
    status: 'connecting',
    synced: false,
    saved: true,
    peers: [],
    readOnly: false,
    error: null,
    commentsRevision: 0,
  };
  /** How far the server has stored this replica's own changes (its clock in the stored state vector). */
  #storedOwnClock = 0;
  #destroyed = false;
  /** Stopped by {@link disconnect} until {@link connect}: nothing reconnects by itself meanwhile. */
  #paused = false;
  #busyRetries = 0;
  #busyRetry: unknown;
  readonly #clock: Clock;
  readonly #busyRetryDelayMs: (attempt: number) => number;

  constructor(options: LiveDocumentOptions) {
    super();
    this.#busyRetryDelayMs = options.busyRetryDelayMs ?? defaultBusyRetryDelayMs;
    this.#clock = options.clock ?? systemClock;
    this.document = options.document ?? new Y.Doc();
    const url = `${options.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/ws/collab/`;
    this.#socket = new HocuspocusProviderWebsocket({
      url,
      ...(options.reconnect
        ? {
            delay: options.reconnect.delayMs,
            minDelay: options.reconnect.delayMs,
            maxDelay: options.reconnect.maxDelayMs,
          }
        : {}),
      ...(options.WebSocket ? { WebSocketPolyfill: tolerantWebSocket(options.WebSocket) } : {}),
    });
    this.#provider = new HocuspocusProvider({
      websocketProvider: this.#socket,
      name: `${options.kind ?? 'document'}/${options.documentId}`,
      document: this.document,
      token: async () => (await options.token()) ?? '',
      onStatus: ({ status }) => {
        // A reconnect the socket scheduled before disconnect() (its own timer, which disconnect does not
        // cancel) is stopped as soon as it starts.
        if (this.#paused && status !== 'disconnected') this.#socket.disconnect();
        else this.#update({ status });
      },
      onAuthenticated: ({ scope }) => this.#update({ readOnly: scope === 'readonly' }),
      onSynced: ({ state }) => {
        if (state && this.#snapshot.error?.code === 'busy') {
          this.#busyRetries = 0;
          this.#update({ synced: state, error: null });
        } else this.#update({ synced: state });
      },
      // The server says no more than "permission-denied", for a missing plan and a stranger's alike.
      onAuthenticationFailed: ({ reason }) => {
        if (reason === LIVE_BUSY) this.#retryWhenBusy();
        else if (this.#snapshot.error?.code !== 'signed_out')
          this.#update({ error: { code: 'refused', message: LIVE_REFUSED } });
      },
      onClose: ({ event }) => {
        // An ended session is final: stop reconnecting with a token that no longer works.
        if (event.reason === LIVE_SIGNED_OUT) {
          this.#update({ error: { code: 'signed_out', message: LIVE_SIGNED_OUT } });
          this.#socket.disconnect();
        } else if (event.reason === LIVE_DELETED) {
          this.#update({ error: { code: 'refused', message: LIVE_DELETED } });
          this.#socket.disconnect();
        } else if (event.reason === LIVE_ACCESS_CHANGED) {
          // Asked again at once, not when the socket notices the silence (30 s).
          this.#reconnect();
        }
      },
      onStateless: ({ payload }) => this.#stored(payload),
      onUnsyncedChanges: () => this.#update({}),
      onAwarenessChange: ({ states }) => this.#update({ peers: this.#peersOf(states) }),
    });
    if (options.user) this.#provider.setAwarenessField('user', options.user);
    this.document.on('update', this.#onUpdate);
    this.#provider.attach();
  }

  /**
   * Presence shared with the others (who is here, where their caret is): bind an editor's caret plugin to
   * it (y-tiptap's `yCursorPlugin`). Your own entry carries `user` ({@link LiveDocumentOptions.user}).
   */
  get awareness(): Awareness {
    const { awareness } = this.#provider;
    if (!awareness) throw new Error('This live document has no awareness.');
    return awareness;
  }

  /** The current state; the same object until something changes. */
  readonly getSnapshot = (): LiveDocumentSnapshot => this.#snapshot;

  /** Changes who you are to the others. */
  setUser(user: { name: string; color: string }): void {
    this.#provider.setAwarenessField('user', user);
  }

  /** Resolves once everything made here is stored by the server (at once when it already is). */
  whenSaved(): Promise<void> {
    if (this.#snapshot.saved) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.#snapshot.saved || this.#destroyed) {
          stop();
          resolve();
        }
      });
    });
  }

  /**
   * Stops syncing for now (a tab hidden for a while): the connection closes and nothing reconnects by itself,
   * so the server may unload the plan and give its place to another. Changes made meanwhile are kept in
   * {@link document} and sent on {@link connect}.
   */
  disconnect(): void {
    if (this.#destroyed) return;
    this.#paused = true;
    this.#clock.clearTimeout(this.#busyRetry);
    this.#socket.disconnect();
  }

  /**
   * Syncs again after {@link disconnect}: both sides exchange what the other lacks. Does nothing once the
   * plan was refused or the session ended (those are final).
   */
  connect(): void {
    if (this.#destroyed || !this.#paused) return;
    this.#paused = false;
    const code = this.#snapshot.error?.code;
    if (code === 'refused' || code === 'signed_out') return;
    void this.#socket.connect();
  }

  /** Closes the connection; the Yjs document stays usable (and unsynced). */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#clock.clearTimeout(this.#busyRetry);
    this.document.off('update', this.#onUpdate);
    this.#provider.destroy();
    this.#socket.destroy();
    this.#update({ status: 'disconnected' });
  }

  /** The server was too busy to open the plan: a new connection later asks again. */
  #retryWhenBusy(): void {
    this.#update({ error: { code: 'busy', message: LIVE_BUSY } });
    this.#clock.clearTimeout(this.#busyRetry);
    this.#busyRetries += 1;
    this.#busyRetry = this.#clock.setTimeout(() => {
      if (this.#destroyed || this.#paused) return;
      this.#reconnect();
    }, this.#busyRetryDelayMs(this.#busyRetries));
  }

  /**
   * A new connection, which authenticates the plan anew. The server forgets a refused or closed document
   * only with its connection: close it, then connect anew (at once when it is closed already: no
   * "disconnect" would come).
   */
  #reconnect(): void {
    if (this.#paused) return;
    if (this.#snapshot.status !== 'connected') {
      void this.#socket.connect();
      return;
    }
    const reconnect = () => {
      this.#socket.off('disconnect', reconnect);
      if (!this.#destroyed && !this.#paused) void this.#socket.connect();
    };
    this.#socket.on('disconnect', reconnect);
    this.#socket.disconnect();
  }

  readonly #onUpdate = (): void => {
    this.#update({});
  };

  #stored(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (commentsMessage.safeParse(parsed).success) {
      this.#update({ commentsRevision: this.#snapshot.commentsRevision + 1 });
      return;
    }
    const message = storedMessage.safeParse(parsed);
    if (!message.success) return;
    let vector: Map<number, number>;
    try {
      vector = Y.decodeStateVector(fromBase64(message.data.state_vector));
    } catch {
      return;
    }
    this.#storedOwnClock = Math.max(this.#storedOwnClock, vector.get(this.document.clientID) ?? 0);
    this.#update({});
  }

  #peersOf(states: ReadonlyArray<{ clientId: number; [key: string]: unknown }>): LivePeer[] {
    const peers: LivePeer[] = [];
    for (const state of states) {
      if (state.clientId === this.document.clientID) continue;
      const parsed = peerState.safeParse(state);
      if (parsed.success) peers.push({ clientId: state.clientId, ...parsed.data.user });
    }
    return peers.sort((a, b) => a.clientId - b.clientId);
  }

  #update(changes: Partial<LiveDocumentSnapshot>): void {
    // Carets move the others' awareness often: an unchanged list of peers is not a change.
    if (changes.peers && samePeers(changes.peers, this.#snapshot.peers)) delete changes.peers;
    const ownClock = Y.getState(this.document.store, this.document.clientID);
    const saved = ownClock <= this.#storedOwnClock && !this.#provider?.hasUnsyncedChanges;
    const next = { ...this.#snapshot, ...changes, saved };
    const same = (Object.keys(next) as Array<keyof LiveDocumentSnapshot>).every(
      (key) => next[key] === this.#snapshot[key],
    );
    if (same) return;
    this.#snapshot = next;
    this.notify();
  }
}

function samePeers(a: readonly LivePeer[], b: readonly LivePeer[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (peer, i) => peer.clientId === b[i]?.clientId && peer.name === b[i]?.name && peer.color === b[i]?.color,
    )
  );
}

/** Opens a plan for live editing: see {@link LiveDocument}. */
export function openLiveDocument(options: LiveDocumentOptions): LiveDocument {
  return new LiveDocument(options);
}
