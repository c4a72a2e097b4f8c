import { type Clock, systemClock } from '../state/clock.js';

/** The close event the session reads. */
export interface ChatCloseEvent {
  /** The WebSocket close code (1000 normal, 1006 dropped, 4xxx the server's). */
  code: number;
  /** The close reason the peer sent, if any. */
  reason?: string;
}

/**
 * The WebSocket subset the session uses (C4): a browser `WebSocket` fits as is; the in-memory pair of
 * `@planwright/sdk/testing` too.
 */
export interface ChatSocket {
  /** Sends one text frame. */
  send(data: string): void;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
  /** Set by the session: runs once the connection is open. */
  onopen: ((event: unknown) => void) | null;
  /** Set by the session: runs for each frame received. */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Set by the session: runs once the connection is closed, cleanly or not. */
  onclose: ((event: ChatCloseEvent) => void) | null;
  /** Set by the session: runs when the connection fails (a close follows). */
  onerror: ((event: unknown) => void) | null;
}

/** Opens a socket to `url`; may throw (a bad URL, no WebSocket available). */
export type ChatSocketFactory = (url: string) => ChatSocket;

/** The default factory: `globalThis.WebSocket`, looked up at each call so a polyfill installed later applies. */
export const browserSocketFactory: ChatSocketFactory = (url) => {
  const Ctor = (globalThis as { WebSocket?: new (url: string) => ChatSocket }).WebSocket;
  if (!Ctor) throw new Error('No WebSocket implementation is available in this environment.');
  return new Ctor(url);
};

/** Time as the session uses it: the SDK's one {@link Clock}. */
export type ChatClock = Clock;

/** The real clock (the SDK's `systemClock`), reading the globals at each call so fake timers installed later apply. */
export const systemChatClock: ChatClock = systemClock;

/** Where the session logs what spec 001 §8 says is "logged only". */
export interface ChatLogger {
  /** Something went wrong and the session recovered. */
  warn(message: string): void;
  /** Something went wrong that the session could not recover from. */
  error(message: string): void;
}
