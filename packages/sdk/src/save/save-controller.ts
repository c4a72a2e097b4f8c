import { AbortedError } from '../errors/aborted-error.js';
import { jsonEqual } from '../model/json-equal.js';
import { revisionOf } from '../resources/revision.js';
import { type Clock, systemClock } from '../state/clock.js';
import { Subscribable } from '../state/subscribable.js';
import type { Draft, DraftStore } from './draft-store.js';
import { conflictRevisionOf, saveFailureOf } from './save-failure.js';
import {
  type Boxed,
  initialSaveState,
  type SaveEffect,
  type SaveEvent,
  type SaveState,
  type SaveTimer,
  type SaveTiming,
  saveSnapshotOf,
  transitionSave,
  unansweredFlights,
} from './save-machine.js';
import { SAVE_WRITE_TIMEOUT_MS, SAVED_TO_IDLE_MS, type SaveSnapshot } from './save-snapshot.js';

/** Time as the controller uses it: the SDK's one {@link Clock}. */
export type SaveClock = Clock;

/**
 * What a successful write answers; a transport may resolve with its whole answer (a `DocumentDetail` has
 * `revision`), only `revision` is read. The type parameter (the content type) is kept for the API's shape.
 */
export interface SaveTransportResult<_C> {
  /** The resource's new revision; `null` when the server did not say. */
  revision: number | null;
}

/** What `write` is told besides the content. */
export interface SaveWriteContext {
  /** The base revision, to send as `If-Match`; `null` when unknown (send none). */
  ifMatch: number | null;
  /** `true` when the page is being hidden: pass it to `fetch` so the request outlives the page. */
  keepalive: boolean;
  /** Never aborted by the controller today; passed so a transport can wire it through. */
  signal: AbortSignal;
}

/** What a write aside is told (S26). */
export interface SaveAsideContext {
  /** The base revision when it starts, to send as `If-Match`; `null` when unknown (send none). */
  ifMatch: number | null;
  /** Never aborted by the controller (not even by `dispose()`: the write may already have landed). */
  signal: AbortSignal;
}

/** What a write aside answers (S26). */
export interface SaveAsideResult<T> {
  /** The resource's revision after the write; `null` when the server did not say (the base stays). */
  revision: number | null;
  /** Handed back to the caller by `writeAside()`. */
  value: T;
}

/** A write aside the runtime holds until it has run and settled. */
interface PendingAside {
  write: (context: SaveAsideContext) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Retry policy for network failures (S8). */
export interface SaveRetryOptions {
  /** Default 1000. */
  baseMs?: number;
  /** Default 30000. */
  maxMs?: number;
  /** Default 8. */
  maxAttempts?: number;
}

/** Options for {@link SaveController}. */
export interface SaveControllerOptions<C> {
  /**
   * Reads the editor's current content. Called lazily, only when a save or a draft write happens: serialising a
   * 3,000-block tree per keystroke is too slow. A throw is a `rejected` failure.
   */
  read: () => C;
  /**
   * Writes it. `ifMatch` is the base revision (`null` when unknown). Rejects with `RevisionConflictError` on 412,
   * `NetworkError` on transport failure, `ApiError` otherwise.
   *
   * @example
   * write: (content, { ifMatch, keepalive, signal }) =>
   *   client.documents.update(uuid, { content }, { ifMatch: ifMatch ?? undefined, keepalive, signal })
   */
  write: (content: C, context: SaveWriteContext) => Promise<SaveTransportResult<C>>;
  /** Fetches the server's current version for a conflict's `theirs` (optional; without it `theirs` stays null). */
  fetchLatest?: (signal: AbortSignal) => Promise<{ content: C; revision: number | null }>;
  /** {@link DOCUMENT_SAVE_DEBOUNCE_MS} or {@link BLUEPRINT_SAVE_DEBOUNCE_MS}. */
  debounceMs: number;
  /** Default {@link SAVED_TO_IDLE_MS}. */
  savedToIdleMs?: number;
  /** Defaults: `baseMs` 1000, `maxMs` 30000, `maxAttempts` 8; full jitter. */
  retry?: SaveRetryOptions;
  /**
   * A save with no answer after this long is aborted (its `signal` fires with a `TimeoutError`) and handled as a
   * network failure, retried (S27); default {@link SAVE_WRITE_TIMEOUT_MS}. A stalled connection never hangs saving.
   */
  writeTimeoutMs?: number;
  /** Defaults to `Date.now` and the global timers, looked up at each call. */
  clock?: SaveClock;
  /** For the retry jitter, in [0, 1); default `Math.random`. */
  random?: () => number;
  /** The browser-storage copy of unsaved content; without it nothing is stored. */
  drafts?: DraftStore<C>;
  /**
   * Tells a draft or the editor's content from the server's copy (S11, S15, S17); default: JSON equality that
   * ignores the order of keys (PostgreSQL's jsonb answers them in its own order).
   */
  equals?: (a: C, b: C) => boolean;
}

function checkMs(name: string, value: number, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new RangeError(`${name} must be a finite number of at least ${min}, got ${String(value)}`);
  }
  return value;
}

function timingOf<C>(options: SaveControllerOptions<C>): SaveTiming {
  const retry = options.retry ?? {};
  return {
    debounceMs: checkMs('debounceMs', options.debounceMs, 0),
    savedToIdleMs: checkMs('savedToIdleMs', options.savedToIdleMs ?? SAVED_TO_IDLE_MS, 0),
    retry: {
      baseMs: checkMs('retry.baseMs', retry.baseMs ?? 1000, 0),
      maxMs: checkMs('retry.maxMs', retry.maxMs ?? 30_000, 0),
      maxAttempts: Math.floor(checkMs('retry.maxAttempts', retry.maxAttempts ?? 8, 0)),
    },
  };
}

/** Why a write aside that never ran was refused: the controller was disposed first (S26). */
function disposedError(): AbortedError {
  return new AbortedError({ reason: new DOMException('The save controller was disposed.', 'AbortError') });
}

/** A listener's error must not stop the controller half-way; it surfaces like any uncaught error. */
function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

function sameSnapshot<C>(a: SaveSnapshot<C>, b: SaveSnapshot<C>): boolean {
  return (
    a.status === b.status &&
    a.dirty === b.dirty &&
    a.loading === b.loading &&
    a.revision === b.revision &&
    a.inFlight === b.inFlight &&
    a.conflict === b.conflict &&
    a.failure === b.failure &&
    a.retry === b.retry &&
    a.restoredDraft === b.restoredDraft &&
    a.lastSavedAt === b.lastSavedAt
  );
}

/**
 * The autosave controller (`src/save/SPEC.md`): debounced saves of the editor's content, one at a time,
 * `If-Match` on every write, conflicts reported instead of overwritten, network failures retried with backoff,
 * unsaved content kept in browser storage until the server confirms it, and the status badge of spec 001 §4.
 *
 * The rules live in a pure transition function; this class runs its effects through the injected ports.
 *
 * @example
 * const save = new SaveController({
 *   read: () => editor.getJSON(),
 *   write: (content, { ifMatch, keepalive, signal }) =>
 *     client.documents.update(uuid, { content }, { ifMatch: ifMatch ?? undefined, keepalive, signal }),
 *   fetchLatest: async (signal) => {
 *     const latest = await client.documents.get(uuid, { signal });
 *     return { content: latest.content, revision: latest.revision };
 *   },
 *   debounceMs: DOCUMENT_SAVE_DEBOUNCE_MS,
 *   drafts: createStorageDraftStore({ storage: () => localStorage, key: draftKey('document', uuid), parse }),
 * });
 * save.beginLoading();
 * const doc = await client.documents.get(uuid);
 * const draft = save.loaded(doc.content, doc.revision);
 * editor.commands.setContent(draft ? draft.content : doc.content);
 * editor.on('update', () => save.edit());
 * addEventListener('pagehide', () => void save.flush({ keepalive: true }));
 */
export class SaveController<C> extends Subscribable {
  private readonly options: SaveControllerOptions<C>;
  private readonly timing: SaveTiming;
  private readonly clock: SaveClock;
  private readonly writeTimeoutMs: number;
  /** The time-out of each save out (S27), cleared by its answer or by `dispose()`. */
  private readonly writeTimeouts = new Set<unknown>();
  private state: SaveState<C> = initialSaveState<C>();
  private snapshot: SaveSnapshot<C> = Object.freeze(saveSnapshotOf(this.state));
  private readonly queue: SaveEvent<C>[] = [];
  private running = false;
  private readonly timers = new Map<SaveTimer, { handle: unknown; token: number }>();
  private timerToken = 0;
  private readonly waiters = new Map<number, (ok: boolean) => void>();
  private nextWaiter = 1;
  /** The draft this controller wrote last, to confirm it cheaply (S17). */
  private lastDraft: Draft<C> | null = null;
  private fetchAbort: AbortController | null = null;
  private readonly asides = new Map<number, PendingAside>();
  private nextAside = 1;

  constructor(options: SaveControllerOptions<C>) {
    super();
    this.options = options;
    this.timing = timingOf(options);
    this.clock = options.clock ?? systemClock;
    this.writeTimeoutMs = checkMs('writeTimeoutMs', options.writeTimeoutMs ?? SAVE_WRITE_TIMEOUT_MS, 1);
  }

  /** The current state; the same frozen object until something visible changes. */
  readonly getSnapshot = (): SaveSnapshot<C> => this.snapshot;

  /** A resource load starts: saving is suppressed and pending timers cleared (S13). */
  beginLoading(): void {
    this.dispatch({ type: 'beginLoading' });
  }

  /**
   * The editor now holds `content` at server `revision` (initial load, reload, or after a structure call answered
   * a new tree). Ends loading. On the first call only, a stored draft that differs from `content` is returned
   * (and `restoredDraft` set) for the caller to put in the editor; the controller then treats it as dirty with
   * `If-Match` = `draft.baseRevision`, so a changed server gives a conflict, not an overwrite (S15).
   */
  loaded(content: C, revision: number | null): Draft<C> | null {
    if (this.state.disposed) return null;
    const restored = this.state.loads === 0 ? this.draftToRestore(content) : null;
    this.dispatch({
      type: 'loaded',
      revision: revisionOf(revision),
      restored: restored && {
        baseRevision: revisionOf(restored.baseRevision),
        savedAt: Number.isFinite(restored.savedAt) ? restored.savedAt : this.now(),
      },
    });
    return restored;
  }

  /** The load failed: status `error` (S16). After an earlier successful load, autosave resumes. */
  loadFailed(error: unknown): void {
    this.dispatch({ type: 'loadFailed', failure: saveFailureOf(error, 'Failed to load') });
  }

  /** The editor changed (call on every doc-changing transaction; cheap: no serialisation). Ignored while loading. */
  edit(): void {
    this.dispatch({ type: 'edit' });
  }

  /**
   * Saves now (forced): resolves `true` when everything edited up to this call is confirmed, `false` on failure or
   * conflict. Writes the draft synchronously first. While a save is in flight, waits for it and then saves the
   * rest. Pass `keepalive` on page hide (S6, S22).
   */
  flush(options: { keepalive?: boolean } = {}): Promise<boolean> {
    if (this.state.disposed) return Promise.resolve(false);
    return this.waitFor((waiter) => ({ type: 'flush', waiter, keepalive: options.keepalive === true }));
  }

  /** Writes the draft to storage synchronously when there is unsaved content (page hide without network). */
  persistDraft(): void {
    this.dispatch({ type: 'persistDraft' });
  }

  /** Retries a failed save now (e.g. on the browser's `online` event), starting a fresh series of retries. */
  retryNow(): void {
    this.dispatch({ type: 'retryNow' });
  }

  /**
   * Settles a conflict (S12). `'theirs'` returns their version for the caller to put in the editor and pass to
   * `loaded()` (`null` when it was not fetched: load it yourself); the draft is discarded. `'mine'` saves the
   * editor's content with `If-Match` = their revision (an overwrite the user chose), resolving like `flush()`.
   */
  resolveConflict(choice: 'theirs'): { content: C; revision: number | null } | null;
  resolveConflict(choice: 'mine'): Promise<boolean>;
  resolveConflict(
    choice: 'theirs' | 'mine',
  ): { content: C; revision: number | null } | null | Promise<boolean> {
    if (choice === 'mine') {
      if (this.state.disposed) return Promise.resolve(false);
      return this.waitFor((waiter) => ({ type: 'resolveMine', waiter }));
    }
    const conflict = this.state.conflict;
    const theirs =
      conflict !== null && conflict.theirs !== null
        ? { content: conflict.theirs, revision: conflict.theirRevision }
        : null;
    this.dispatch({ type: 'resolveTheirs' });
    return theirs;
  }

  /** Hides the restored-draft notice (S15). */
  dismissRestoredDraft(): void {
    this.dispatch({ type: 'dismissRestoredDraft' });
  }

  /**
   * S26: runs `write` — a write that changes the resource's revision on the server but not the content this
   * controller saves (a section's settings, a title) — between saves, and adopts its revision.
   *
   * It starts once no content save or other write aside is out (and no load runs), in call order, sharing
   * the line fairly with content saves; none starts while it runs. `ifMatch` is the base revision when it
   * starts. On success its `revision` becomes the base revision (when the base has not moved meanwhile), so
   * the next content save sends the new `If-Match`; unsaved edits stay unsaved. Resolves with `value`.
   * A failure (a 412 included: the caller reports it, it is no controller conflict) rejects with the
   * write's error and changes nothing. An answer that is not an object rejects with a `TypeError`.
   * After `dispose()`, a write aside not yet started rejects with an `AbortedError` and never runs.
   *
   * @example
   * const section = await save.writeAside(async ({ ifMatch, signal }) => {
   *   const answer = await client.blueprints.sections.update(uuid, sid, { user_hint: hint },
   *     { ifMatch: ifMatch ?? undefined, signal });
   *   return { revision: answer.revision, value: answer };
   * });
   */
  writeAside<T>(write: (context: SaveAsideContext) => Promise<SaveAsideResult<T>>): Promise<T> {
    if (this.state.disposed) return Promise.reject(disposedError());
    const id = this.nextAside++;
    const done = new Promise<T>((resolve, reject) => {
      this.asides.set(id, { write, resolve: resolve as (value: unknown) => void, reject });
    });
    this.dispatch({ type: 'writeAside', id });
    return done;
  }

  /** Clears timers, resolves pending flushes `false`, and ignores the answer of a save still out (S20). */
  dispose(): void {
    for (const timeout of this.writeTimeouts) this.clock.clearTimeout(timeout);
    this.writeTimeouts.clear();
    this.dispatch({ type: 'dispose' });
  }

  private waitFor(event: (waiter: number) => SaveEvent<C>): Promise<boolean> {
    const waiter = this.nextWaiter++;
    const done = new Promise<boolean>((resolve) => {
      this.waiters.set(waiter, resolve);
    });
    this.dispatch(event(waiter));
    return done;
  }

  private draftToRestore(content: C): Draft<C> | null {
    const drafts = this.options.drafts;
    if (!drafts) return null;
    const draft = this.attempt(() => drafts.read(), null);
    if (draft === null || typeof draft !== 'object') return null;
    // A comparison that throws counts as "different": restoring an equal draft costs a save, losing one costs work.
    if (this.attempt(() => this.equals(draft.content, content), false)) {
      this.attempt(() => drafts.clear(), undefined);
      return null;
    }
    return draft;
  }

  private equals(a: C, b: C): boolean {
    return this.options.equals ? this.options.equals(a, b) === true : jsonEqual(a, b);
  }

  private attempt<T>(run: () => T, fallback: T): T {
    try {
      return run();
    } catch {
      return fallback;
    }
  }

  /**
   * Runs events one after another: an effect may raise an event (a `read()` that throws), which waits for the
   * current one to finish. Listeners hear once, after the queue is empty.
   */
  private dispatch(event: SaveEvent<C>): void {
    this.queue.push(event);
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
        const { state, effects } = transitionSave(this.timing, this.state, next, this.now());
        this.state = state;
        for (const effect of effects) this.run(effect);
      }
    } finally {
      this.running = false;
    }
    this.publish();
  }

  private publish(): void {
    const next = saveSnapshotOf(this.state);
    if (sameSnapshot(next, this.snapshot)) return;
    this.snapshot = Object.freeze(next);
    try {
      this.notify();
    } catch (error) {
      reportLater(error);
    }
  }

  private now(): number {
    return this.clock.now();
  }

  private run(effect: SaveEffect<C>): void {
    switch (effect.type) {
      case 'setTimer':
        this.setTimer(effect.timer, effect.ms);
        break;
      case 'clearTimer':
        this.clearTimer(effect.timer);
        break;
      case 'write':
        this.write(effect.id, effect.ifMatch, effect.keepalive);
        break;
      case 'persistDraft':
        this.persist(effect.content, effect.baseRevision);
        break;
      case 'clearDraftIfEqual':
        this.clearDraftIfEqual(effect.content);
        break;
      case 'discardDraft': {
        const drafts = this.options.drafts;
        if (drafts) this.attempt(() => drafts.clear(), undefined);
        break;
      }
      case 'fetchLatest':
        this.fetchLatest(effect.id);
        break;
      case 'abortFetch':
        this.fetchAbort?.abort();
        this.fetchAbort = null;
        break;
      case 'settle':
        for (const id of effect.waiters) {
          const resolve = this.waiters.get(id);
          this.waiters.delete(id);
          resolve?.(effect.ok);
        }
        break;
      case 'writeAside':
        this.runAside(effect.id, effect.ifMatch);
        break;
      case 'abortAsides':
        for (const id of effect.ids) {
          const aside = this.asides.get(id);
          this.asides.delete(id);
          aside?.reject(disposedError());
        }
        break;
    }
  }

  private runAside(id: number, ifMatch: number | null): void {
    const aside = this.asides.get(id);
    if (!aside) return;
    this.asides.delete(id);
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(aside.write({ ifMatch, signal: new AbortController().signal }));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (result) => this.asideAnswered(id, aside, result),
      (error: unknown) => {
        // The caller's promise settles first: a controller that breaks later must not leave it hanging.
        aside.reject(error);
        this.dispatch({ type: 'asideFailed', id });
      },
    );
  }

  /** S26, S21: a garbage revision is no revision; an answer that is not an object is refused. */
  private asideAnswered(id: number, aside: PendingAside, result: unknown): void {
    let value: unknown;
    try {
      if (typeof result !== 'object' || result === null) {
        throw new TypeError(
          `writeAside: write must resolve with { revision, value }, got ${result === null ? 'null' : typeof result}`,
        );
      }
      value = (result as { value?: unknown }).value;
    } catch (error) {
      aside.reject(error);
      this.dispatch({ type: 'asideFailed', id });
      return;
    }
    const revision = this.attempt(() => revisionOf((result as { revision?: unknown }).revision), null);
    aside.resolve(value);
    this.dispatch({ type: 'asideSucceeded', id, revision });
  }

  private setTimer(timer: SaveTimer, ms: number): void {
    this.clearTimer(timer);
    const token = ++this.timerToken;
    const handle = this.clock.setTimeout(() => {
      // A clock that fires a cleared timer anyway must not replay an old decision.
      if (this.timers.get(timer)?.token !== token) return;
      this.timers.delete(timer);
      this.dispatch({ type: `${timer}Elapsed` });
    }, ms);
    this.timers.set(timer, { handle, token });
  }

  private clearTimer(timer: SaveTimer): void {
    const entry = this.timers.get(timer);
    if (!entry) return;
    this.timers.delete(timer);
    this.clock.clearTimeout(entry.handle);
  }

  private read(): Boxed<C> | null {
    try {
      return { value: this.options.read() };
    } catch {
      return null;
    }
  }

  private persist(content: Boxed<C> | null, baseRevision: number | null): void {
    const drafts = this.options.drafts;
    if (!drafts) return;
    const current = content ?? this.read();
    if (current === null) return;
    const draft: Draft<C> = { content: current.value, baseRevision, savedAt: this.now() };
    this.attempt(() => drafts.write(draft), undefined);
    this.lastDraft = draft;
  }

  private clearDraftIfEqual(content: C): void {
    const drafts = this.options.drafts;
    if (!drafts) return;
    // The confirmed content is the very object of our last draft, and the store still holds that draft:
    // clear it without parsing and comparing what may be megabytes (S17).
    const own = this.lastDraft;
    if (own !== null && own.content === content && drafts.peekSavedAt) {
      const stored = this.attempt(() => drafts.peekSavedAt?.() ?? null, null);
      if (stored === own.savedAt) {
        this.attempt(() => drafts.clear(), undefined);
        return;
      }
    }
    const stored = this.attempt(() => drafts.read(), null);
    if (stored === null || typeof stored !== 'object') return;
    if (this.attempt(() => this.equals(stored.content, content), false)) {
      this.attempt(() => drafts.clear(), undefined);
    }
  }

  private write(id: number, ifMatch: number | null, keepalive: boolean): void {
    let content: C;
    try {
      content = this.options.read();
    } catch (error) {
      this.queue.push({
        type: 'writeFailed',
        id,
        failure: saveFailureOf(error, 'Could not read the content to save'),
        jitter: 0,
        mine: null,
        theirRevision: null,
      });
      return;
    }
    this.persist({ value: content }, ifMatch);
    const abort = new AbortController();
    let settled = false;
    // S27: whichever comes first, the answer or the time-out, decides; the other is ignored.
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      this.clock.clearTimeout(timeout);
      this.writeTimeouts.delete(timeout);
      outcome();
    };
    const timeout = this.clock.setTimeout(() => {
      const reason = new DOMException(
        `No answer to the save within ${this.writeTimeoutMs} ms`,
        'TimeoutError',
      );
      abort.abort(reason);
      settle(() => this.failed(id, content, new AbortedError({ reason })));
    }, this.writeTimeoutMs);
    this.writeTimeouts.add(timeout);
    let answer: Promise<SaveTransportResult<C>>;
    try {
      answer = Promise.resolve(this.options.write(content, { ifMatch, keepalive, signal: abort.signal }));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (result) => settle(() => this.succeeded(id, content, result)),
      (error: unknown) => settle(() => this.failed(id, content, error)),
    );
  }

  private succeeded(id: number, content: C, result: unknown): void {
    const revision = this.attempt(
      () =>
        revisionOf(
          typeof result === 'object' && result !== null ? (result as { revision?: unknown }).revision : null,
        ),
      null,
    );
    this.dispatch({ type: 'writeSucceeded', id, revision, content });
  }

  private failed(id: number, content: C, error: unknown): void {
    const failure = saveFailureOf(error);
    const { disposed, inFlight, epoch, loading } = this.state;
    // Only an answer the machine will act on is worth a read (S13, S14, S20).
    const current = !disposed && !loading && inFlight?.id === id && inFlight.epoch === epoch;
    let mine: Boxed<C> | null = null;
    // S10: `mine` is what the editor holds now, edits made during the flight included.
    if (failure.kind === 'conflict' && current) mine = this.read() ?? { value: content };
    const jitter = failure.kind === 'network' && current ? this.random() : 0;
    this.dispatch({
      type: 'writeFailed',
      id,
      failure,
      jitter,
      mine,
      theirRevision: conflictRevisionOf(error),
      // S11: a save whose answer was lost may have landed.
      ...(failure.kind === 'network' && current ? { sent: { value: content } } : {}),
    });
  }

  private random(): number {
    const draw = this.attempt(() => (this.options.random ?? Math.random)(), 0.5);
    return typeof draw === 'number' && Number.isFinite(draw) ? draw : 0.5;
  }

  private fetchLatest(id: number): void {
    const fetchLatest = this.options.fetchLatest;
    if (!fetchLatest) return;
    this.fetchAbort?.abort();
    const controller = new AbortController();
    this.fetchAbort = controller;
    let answer: Promise<{ content: C; revision: number | null }>;
    try {
      answer = Promise.resolve(fetchLatest(controller.signal));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (latest) => {
        if (this.fetchAbort === controller) this.fetchAbort = null;
        const conflict = this.state.conflict;
        if (typeof latest !== 'object' || latest === null || !('content' in latest) || conflict === null) {
          this.dispatch({ type: 'theirsFailed', id });
          return;
        }
        const sameAsMine = this.attempt(() => this.equals(latest.content, conflict.mine), false);
        const revision = this.attempt(() => revisionOf(latest.revision), null);
        // S11: theirs may be a save of ours that landed while its answer was lost.
        const own = sameAsMine
          ? undefined
          : unansweredFlights(this.state).find((flight) =>
              this.attempt(() => this.equals(latest.content, flight.content.value), false),
            );
        this.dispatch({
          type: 'theirsFetched',
          id,
          content: latest.content,
          revision,
          sameAsMine,
          ownEdits: own ? own.edits : null,
        });
      },
      () => {
        if (this.fetchAbort === controller) this.fetchAbort = null;
        this.dispatch({ type: 'theirsFailed', id });
      },
    );
  }
}
