/** The close event the session reads. */
export interface ChatCloseEvent {
  code: number;
  reason?: string;
}

/**
 * The WebSocket subset the session uses (C4): a browser `WebSocket` fits as is; the in-memory pair of
 * `@planwright/sdk/testing` too.
 */
export interface ChatSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: ChatCloseEvent) => void) | null;
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

/** Time as the session uses it; the shape of `SaveClock`. */
export interface ChatClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock, reading the globals at each call so fake timers installed later apply. */
export const systemChatClock: ChatClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Where the session logs what spec 001 §8 says is "logged only". */
export interface ChatLogger {
  warn(message: string): void;
  error(message: string): void;
}
