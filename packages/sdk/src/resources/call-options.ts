/** Options every resource call takes. */
export interface CallOptions {
  /** Aborts the call; it then rejects with an `AbortedError`. */
  signal?: AbortSignal;
}

/** Options of a call that changes a document or blueprint. */
export type WriteOptions = CallOptions & {
  /**
   * The revision the change was made against (the `revision` of the last read). Sent as
   * `If-Match: "<n>"`; when the server holds another revision the call rejects with a
   * `RevisionConflictError` and nothing is written. Left out, the write always goes through.
   */
  ifMatch?: number;
};
