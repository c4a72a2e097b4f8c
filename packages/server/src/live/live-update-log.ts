import * as Y from 'yjs';
import type { LivePlan } from '../storage/live-state-repository.js';
import type { Storage } from '../storage/storage.js';

/** How the log waits before trying again after the database refused an append. */
export interface LogTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * One live document's way into the database: every update is pushed here as it happens, and written
 * to the plan's update log in order. Updates that arrive while a write is in flight are merged into one
 * row (a burst of typing is one insert, not one per key). When the database refuses, the same updates
 * are tried again with backoff, and nothing is dropped: the people typing keep their own copies too,
 * and re-send what the server lacks when they reconnect.
 */
export class LiveUpdateLog {
  #pending: Uint8Array[] = [];
  #writing: Promise<void> | undefined;
  #retry: { handle: unknown; attempt: number } | undefined;
  #waiters: Array<{ resolve: () => void; reject: (error: unknown) => void; failFast: boolean }> = [];
  #closed = false;
  #lastError: unknown;

  constructor(
    private readonly storage: Pick<Storage, 'liveStates'>,
    private readonly plan: LivePlan,
    private readonly options: {
      now: () => Date;
      timers: LogTimers;
      /** Told of each failed append (it is retried). */
      onError?: (error: unknown) => void;
      /** The live document's state vector when a batch is taken: what is stored once the batch is. */
      stateVector?: () => Uint8Array;
      /** Told, after each append, the state vector now stored (everything up to it is durable). */
      onStored?: (stateVector: Uint8Array) => void;
    },
  ) {}

  /** Whether updates are waiting to be stored. */
  get unstored(): boolean {
    return this.#pending.length > 0 || this.#writing !== undefined;
  }

  /** Queues an update for the log. */
  push(update: Uint8Array): void {
    if (this.#closed) return;
    this.#pending.push(update);
    if (!this.#writing && !this.#retry) this.#write();
  }

  /**
   * Resolves once every update pushed so far is stored. Rejects with the database's error when an
   * append failed and `failFast` is set (a REST write answers only once its change is durable).
   */
  whenStored(options: { failFast?: boolean } = {}): Promise<void> {
    if (!this.unstored) return Promise.resolve();
    if (options.failFast && this.#retry) return Promise.reject(this.#lastError);
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject, failFast: options.failFast === true });
    });
  }

  /** Stops retrying; waiting updates are left (the clients still have them). */
  close(): void {
    this.#closed = true;
    if (this.#retry) this.options.timers.clearTimeout(this.#retry.handle);
    this.#retry = undefined;
  }

  #write(): void {
    const batch = this.#pending.splice(0);
    if (batch.length === 0) {
      this.#settle();
      return;
    }
    const update = batch.length === 1 ? (batch[0] as Uint8Array) : Y.mergeUpdates(batch);
    // Every update pushed so far is in this batch or stored before it: the vector now is what it stores.
    const covered = this.options.stateVector?.();
    this.#writing = this.storage.liveStates.append(this.plan, update, this.options.now()).then(
      () => {
        this.#writing = undefined;
        this.#retry = undefined;
        if (covered && this.#pending.length === 0) this.options.onStored?.(covered);
        if (this.#pending.length > 0) this.#write();
        else this.#settle();
      },
      (error: unknown) => {
        this.#writing = undefined;
        this.#lastError = error;
        this.options.onError?.(error);
        // Put the batch back in front, as one update: order does not matter to Yjs, but nothing is lost.
        this.#pending.unshift(update);
        // Those who asked to know fail now; the others wait for the retry.
        const failing = this.#waiters.filter((waiter) => waiter.failFast);
        this.#waiters = this.#waiters.filter((waiter) => !waiter.failFast);
        for (const waiter of failing) waiter.reject(error);
        if (this.#closed) return;
        const attempt = (this.#retry?.attempt ?? -1) + 1;
        const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 5000;
        this.#retry = {
          attempt,
          handle: this.options.timers.setTimeout(() => {
            if (this.#retry) this.#retry = { ...this.#retry, handle: undefined };
            this.#write();
          }, delay),
        };
      },
    );
  }

  #settle(): void {
    if (this.unstored) return;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }
}
