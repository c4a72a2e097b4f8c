/** Options every resource call takes. */
export interface CallOptions {
  /** Aborts the call; it then rejects with an `AbortedError`. */
  signal?: AbortSignal;
  /**
   * Lets the request outlive the page (`fetch`'s `keepalive`), for a save on page hide. Browsers refuse
   * keepalive bodies over 64 KiB, so a bigger body is sent without it (H17).
   */
  keepalive?: boolean;
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
