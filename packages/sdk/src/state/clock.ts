/**
 * Time as every stateful SDK object uses it: the current time and one-shot timers. One interface for the chat
 * session, the autosave controller and the live document, so one simulated clock (`ManualClock` of
 * `@planwright/sdk/testing`) drives them all in tests.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; answers a handle for {@link Clock.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer set with {@link Clock.setTimeout}. */
  clearTimeout(handle: unknown): void;
}

/** The real clock; each call reads the global when it runs, so fake timers installed later apply. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
