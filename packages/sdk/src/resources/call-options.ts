/** Options every resource call takes. */
export interface CallOptions {
  /** Aborts the call; it then rejects with an `AbortedError`. */
  signal?: AbortSignal;
}
