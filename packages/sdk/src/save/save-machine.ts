import { type RetryPolicy, retryDelay } from './save-failure.js';
import type { SaveConflict, SaveFailure, SaveSnapshot, SaveStatus } from './save-snapshot.js';

/** @internal The timers the controller runs. */
export type SaveTimer = 'debounce' | 'retry' | 'idle';

/** @internal The durations the machine works with. */
export interface SaveTiming {
  debounceMs: number;
  savedToIdleMs: number;
  retry: RetryPolicy;
}

/**
 * @internal Everything the controller knows. Edits are counted rather than stored: `edits` counts the edits
 * made, `confirmed` how many of them the server has confirmed, so dirty is `edits > confirmed` and content is
 * only read when it has to be sent or stored.
 */
export interface SaveState<C> {
  readonly disposed: boolean;
  readonly loading: boolean;
  /** Completed `loaded()` calls: only the first restores a draft (S15), failed loads resume after one (S16). */
  readonly loads: number;
  /** Edits made while loading: dropped by `loaded()`, counted again by `loadFailed()` (S16). */
  readonly loadingEdits: number;
  readonly revision: number | null;
  /** What the next write sends as `If-Match`. */
  readonly base: number | null;
  readonly edits: number;
  readonly confirmed: number;
  readonly status: SaveStatus;
  readonly debouncing: boolean;
  /**
   * A save that starts as soon as the flight ends (S4). `ticket` is its place in line among writes aside
   * (S26): whichever waits longer goes first.
   */
  readonly due: { keepalive: boolean; ticket: number } | null;
  /** The content save out; a write aside is in `aside`. */
  readonly inFlight: { id: number; edits: number; epoch: number } | null;
  /** Writes aside waiting to start (S26), in call order: the runtime's id and the place in line. */
  readonly asides: readonly { id: number; ticket: number }[];
  /** The write aside out, and the base revision it was sent with (its answer is adopted only on that base). */
  readonly aside: { id: number; base: number | null } | null;
  /** Bumped by `loaded()`: answers of flights from an earlier epoch change nothing (S14). */
  readonly epoch: number;
  readonly nextId: number;
  /** Network failures in a row (S8). */
  readonly attempt: number;
  readonly retry: { attempt: number; at: number } | null;
  readonly idleTimer: boolean;
  readonly conflict: SaveConflict<C> | null;
  /** The edits `conflict.mine` holds. */
  readonly conflictEdits: number;
  /** The `fetchLatest` call out, by id. */
  readonly fetching: number | null;
  /**
   * S11: saves that failed as `network` on this base and epoch — their answer may be lost while they landed. The
   * first one and the latest ones are kept (at most {@link MAX_UNANSWERED}): a crash cuts the first, the rest meet
   * a server that is down.
   */
  readonly unanswered: {
    readonly base: number | null;
    readonly epoch: number;
    readonly flights: readonly { content: Boxed<C>; edits: number }[];
  } | null;
  readonly failure: SaveFailure | null;
  readonly restoredDraft: { savedAt: number } | null;
  readonly lastSavedAt: number | null;
  /** Pending `flush()` calls and the edits each waits for. */
  readonly waiters: readonly { id: number; edits: number }[];
}

/** @internal How many unanswered saves S11 remembers. */
export const MAX_UNANSWERED = 8;

/** @internal A value of the content type, boxed so `C` may itself be `null` or `undefined`. */
export interface Boxed<C> {
  value: C;
}

/** @internal What can happen to the controller. */
export type SaveEvent<C> =
  | { type: 'edit' }
  | { type: 'beginLoading' }
  | {
      type: 'loaded';
      revision: number | null;
      restored: { baseRevision: number | null; savedAt: number } | null;
    }
  | { type: 'loadFailed'; failure: SaveFailure }
  | { type: 'flush'; waiter: number; keepalive: boolean }
  | { type: 'persistDraft' }
  | { type: 'retryNow' }
  | { type: 'debounceElapsed' }
  | { type: 'retryElapsed' }
  | { type: 'idleElapsed' }
  | { type: 'writeSucceeded'; id: number; revision: number | null; content: C }
  | {
      type: 'writeFailed';
      id: number;
      failure: SaveFailure;
      /** A draw of `random()` in [0, 1), for the retry delay. */
      jitter: number;
      /** For a conflict: the editor's content now. */
      mine: Boxed<C> | null;
      theirRevision: number | null;
      /** For a network failure: the content sent, which may have landed (S11). */
      sent?: Boxed<C>;
    }
  | {
      type: 'theirsFetched';
      id: number;
      content: C;
      revision: number | null;
      sameAsMine: boolean;
      /** S11: the `edits` of the unanswered save whose content equals theirs, if one does. */
      ownEdits?: number | null;
    }
  | { type: 'theirsFailed'; id: number }
  | { type: 'resolveMine'; waiter: number }
  | { type: 'resolveTheirs' }
  | { type: 'dismissRestoredDraft' }
  /** S26: a write aside was asked for; `id` is the runtime's. */
  | { type: 'writeAside'; id: number }
  /** S26: the write aside out answered; `revision` already validated (S21). */
  | { type: 'asideSucceeded'; id: number; revision: number | null }
  | { type: 'asideFailed'; id: number }
  | { type: 'dispose' };

/** @internal What the runtime does for the machine. */
export type SaveEffect<C> =
  | { type: 'setTimer'; timer: SaveTimer; ms: number }
  | { type: 'clearTimer'; timer: SaveTimer }
  /** Read the content, store it as the draft, send it. */
  | { type: 'write'; id: number; ifMatch: number | null; keepalive: boolean }
  /** Store the draft: `content` when given, else what `read()` gives. */
  | { type: 'persistDraft'; baseRevision: number | null; content: Boxed<C> | null }
  /** Clear the stored draft if it holds `content` (S17). */
  | { type: 'clearDraftIfEqual'; content: C }
  | { type: 'discardDraft' }
  | { type: 'fetchLatest'; id: number }
  | { type: 'abortFetch' }
  | { type: 'settle'; waiters: readonly number[]; ok: boolean }
  /** S26: run the caller's write aside with `If-Match` = `ifMatch`. */
  | { type: 'writeAside'; id: number; ifMatch: number | null }
  /** S26: writes aside that will never run (dispose): reject them. */
  | { type: 'abortAsides'; ids: readonly number[] };

/** @internal A transition's outcome. */
export interface SaveTransition<C> {
  state: SaveState<C>;
  effects: SaveEffect<C>[];
}

/**
 * @internal The state of a new controller: loading, since nothing is loaded yet; an editor that changes before
 * the first `loaded()` holds nothing that may be written over the server's copy.
 */
export function initialSaveState<C>(): SaveState<C> {
  return {
    disposed: false,
    loading: true,
    loads: 0,
    loadingEdits: 0,
    revision: null,
    base: null,
    edits: 0,
    confirmed: 0,
    status: 'idle',
    debouncing: false,
    due: null,
    inFlight: null,
    asides: [],
    aside: null,
    epoch: 0,
    nextId: 1,
    attempt: 0,
    retry: null,
    idleTimer: false,
    conflict: null,
    conflictEdits: 0,
    fetching: null,
    unanswered: null,
    failure: null,
    restoredDraft: null,
    lastSavedAt: null,
    waiters: [],
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One transition being built: a private copy of the state and the effects so far. */
class Step<C> {
  readonly s: Mutable<SaveState<C>>;
  readonly effects: SaveEffect<C>[] = [];

  constructor(
    state: SaveState<C>,
    readonly timing: SaveTiming,
    readonly now: number,
  ) {
    this.s = { ...state };
  }

  get dirty(): boolean {
    return this.s.edits > this.s.confirmed;
  }

  nextId(): number {
    const id = this.s.nextId;
    this.s.nextId = id + 1;
    return id;
  }

  startDebounce(): void {
    this.s.debouncing = true;
    this.effects.push({ type: 'setTimer', timer: 'debounce', ms: this.timing.debounceMs });
  }

  stopDebounce(): void {
    if (!this.s.debouncing) return;
    this.s.debouncing = false;
    this.effects.push({ type: 'clearTimer', timer: 'debounce' });
  }

  stopRetry(): void {
    if (this.s.retry === null) return;
    this.s.retry = null;
    this.effects.push({ type: 'clearTimer', timer: 'retry' });
  }

  stopIdle(): void {
    if (!this.s.idleTimer) return;
    this.s.idleTimer = false;
    this.effects.push({ type: 'clearTimer', timer: 'idle' });
  }

  stopTimers(): void {
    this.stopDebounce();
    this.stopRetry();
    this.stopIdle();
  }

  becomeSaved(): void {
    this.s.status = 'saved';
    this.s.idleTimer = true;
    this.effects.push({ type: 'setTimer', timer: 'idle', ms: this.timing.savedToIdleMs });
  }

  persistDraft(content: Boxed<C> | null = null): void {
    this.effects.push({ type: 'persistDraft', baseRevision: this.s.base, content });
  }

  dropConflict(): void {
    this.s.conflict = null;
    if (this.s.fetching !== null) this.effects.push({ type: 'abortFetch' });
    this.s.fetching = null;
  }

  /** Resolves the flushes whose edits are all confirmed (`ok`), or all of them (`!ok`). */
  settle(ok: boolean): void {
    const done = ok ? this.s.waiters.filter((w) => w.edits <= this.s.confirmed) : this.s.waiters;
    if (done.length === 0) return;
    this.s.waiters = ok ? this.s.waiters.filter((w) => w.edits > this.s.confirmed) : [];
    this.effects.push({ type: 'settle', waiters: done.map((w) => w.id), ok });
  }

  settleOne(waiter: number, ok: boolean): void {
    this.effects.push({ type: 'settle', waiters: [waiter], ok });
  }

  /** S3: read, store and send what the editor holds now. */
  startSave(keepalive: boolean): void {
    this.stopTimers();
    const id = this.nextId();
    this.s.inFlight = { id, edits: this.s.edits, epoch: this.s.epoch };
    this.s.due = null;
    this.s.status = 'saving';
    this.effects.push({ type: 'write', id, ifMatch: this.s.base, keepalive });
  }

  /** A content save or a write aside is out (S4, S26). */
  get busy(): boolean {
    return this.s.inFlight !== null || this.s.aside !== null;
  }

  /**
   * A save now, or right after the flight that is out (S4) and the writes aside asked for before it (S26);
   * nothing while loading, in conflict or clean.
   */
  requestSave(keepalive: boolean): void {
    if (this.s.loading || this.s.conflict !== null || !this.dirty) return;
    // Writes aside only wait while something is out or a load runs (`pump`), so none is skipped here.
    if (!this.busy) {
      this.startSave(keepalive);
      return;
    }
    this.stopDebounce();
    const due = this.s.due;
    this.s.due = { keepalive: (due?.keepalive ?? false) || keepalive, ticket: due?.ticket ?? this.nextId() };
  }

  /**
   * S4, S26: when nothing is out, starts whichever waits longer, the first write aside or the due content
   * save, so neither starves the other. Writes aside do not start while loading.
   */
  pump(): void {
    const { s } = this;
    if (this.busy) return;
    if (s.due !== null && (s.loading || s.conflict !== null || !this.dirty)) s.due = null;
    const head = s.loading ? undefined : s.asides[0];
    if (head !== undefined && (s.due === null || head.ticket < s.due.ticket)) {
      s.asides = s.asides.slice(1);
      s.aside = { id: head.id, base: s.base };
      this.effects.push({ type: 'writeAside', id: head.id, ifMatch: s.base });
      return;
    }
    if (s.due !== null) this.startSave(s.due.keepalive);
  }

  /** S13: suppress saving until `loaded()`. */
  beginLoading(keepDraft: boolean): void {
    if (keepDraft && this.dirty) this.persistDraft();
    this.s.loading = true;
    this.s.loadingEdits = 0;
    this.stopTimers();
    this.s.due = null;
    this.s.attempt = 0;
    this.dropConflict();
    this.s.failure = null;
    this.s.status = 'idle';
    this.settle(false);
  }

  /** After a flight ends: the follow-up of S4 (started by `pump`), or `saved` when nothing is left. */
  continueAfterFlight(current: boolean): void {
    if (this.dirty && !this.s.loading && this.s.conflict === null) {
      if (this.s.due === null) {
        this.s.status = this.s.retry === null ? 'saving' : this.s.status;
        if (!this.s.debouncing && this.s.retry === null) this.startDebounce();
      }
      return;
    }
    this.s.due = null;
    if (current && !this.dirty && !this.s.loading) this.becomeSaved();
  }
}

function onEdit<C>(step: Step<C>): void {
  const { s } = step;
  if (s.loading) {
    s.loadingEdits += 1;
    return;
  }
  s.edits += 1;
  step.stopIdle();
  // S10, S8: a conflict pauses autosave; a waiting retry will carry this edit.
  if (s.conflict !== null || s.retry !== null) return;
  s.attempt = 0;
  s.status = 'saving';
  step.startDebounce();
}

function onFlush<C>(step: Step<C>, waiter: number, keepalive: boolean): void {
  const { s } = step;
  if (!step.dirty) {
    step.settleOne(waiter, true);
    return;
  }
  if (s.loading || s.conflict !== null) {
    step.persistDraft();
    step.settleOne(waiter, false);
    return;
  }
  s.attempt = 0;
  s.waiters = [...s.waiters, { id: waiter, edits: s.edits }];
  if (step.busy) {
    // The write effect stores the draft itself; here the draft is written now, the save later.
    step.persistDraft();
    step.stopRetry();
  }
  step.requestSave(keepalive);
}

function onWriteSucceeded<C>(step: Step<C>, id: number, revision: number | null, content: C): void {
  const { s } = step;
  const flight = s.inFlight;
  if (flight === null || flight.id !== id) return;
  s.inFlight = null;
  const current = flight.epoch === s.epoch;
  if (current) {
    s.confirmed = Math.max(s.confirmed, flight.edits);
    s.revision = revision;
    s.base = revision;
    s.lastSavedAt = step.now;
    s.attempt = 0;
    s.failure = null;
    step.effects.push({ type: 'clearDraftIfEqual', content });
    step.settle(true);
  }
  step.continueAfterFlight(current);
}

function onWriteFailed<C>(step: Step<C>, event: Extract<SaveEvent<C>, { type: 'writeFailed' }>): void {
  const { s } = step;
  const flight = s.inFlight;
  if (flight === null || flight.id !== event.id) return;
  s.inFlight = null;
  if (flight.epoch !== s.epoch) {
    step.continueAfterFlight(false);
    return;
  }
  // S13: the load replaces the content; `loadFailed()` resumes and meets the failure again if it lasts.
  if (s.loading) return;
  const { failure } = event;
  s.failure = failure;
  s.status = 'error';
  s.due = null;
  step.stopDebounce();
  step.settle(false);
  if (failure.kind === 'conflict' && event.mine !== null) {
    s.attempt = 0;
    s.conflict = { mine: event.mine.value, theirs: null, theirRevision: event.theirRevision };
    s.conflictEdits = s.edits;
    step.persistDraft(event.mine);
    const fetchId = step.nextId();
    s.fetching = fetchId;
    step.effects.push({ type: 'fetchLatest', id: fetchId });
    return;
  }
  if (failure.kind === 'network') {
    if (event.sent) rememberUnanswered(step, event.sent, flight.edits);
    s.attempt += 1;
    if (s.attempt <= step.timing.retry.maxAttempts) {
      const ms = retryDelay(step.timing.retry, s.attempt, event.jitter);
      s.retry = { attempt: s.attempt, at: step.now + ms };
      step.effects.push({ type: 'setTimer', timer: 'retry', ms });
    }
    return;
  }
  s.attempt = 0;
}

/** S11: a save whose answer was lost may have landed; its content tells a conflict with ourselves later. */
function rememberUnanswered<C>(step: Step<C>, content: Boxed<C>, edits: number): void {
  const { s } = step;
  const known = s.unanswered;
  const flights = known !== null && known.base === s.base && known.epoch === s.epoch ? known.flights : [];
  const kept = flights.length < MAX_UNANSWERED ? flights : [flights[0], ...flights.slice(2)];
  s.unanswered = {
    base: s.base,
    epoch: s.epoch,
    flights: [...kept.filter((f) => f !== undefined), { content, edits }],
  };
}

/** S11: the unanswered saves sent on the current base and epoch. */
export function unansweredFlights<C>(state: SaveState<C>): readonly { content: Boxed<C>; edits: number }[] {
  const known = state.unanswered;
  return known !== null && known.base === state.base && known.epoch === state.epoch ? known.flights : [];
}

function onTheirsFetched<C>(step: Step<C>, event: Extract<SaveEvent<C>, { type: 'theirsFetched' }>): void {
  const { s } = step;
  if (s.fetching !== event.id || s.conflict === null) return;
  s.fetching = null;
  const theirRevision = event.revision ?? s.conflict.theirRevision;
  if (theirRevision !== null) s.revision = theirRevision;
  const own = event.ownEdits ?? null;
  if (!event.sameAsMine && own === null) {
    s.conflict = { ...s.conflict, theirs: event.content, theirRevision };
    return;
  }
  // S11: the server holds mine, or a save of ours whose answer was lost; only the revision we knew was stale.
  s.conflict = null;
  s.failure = null;
  s.unanswered = null;
  s.base = theirRevision;
  s.confirmed = Math.max(s.confirmed, event.sameAsMine ? s.conflictEdits : (own ?? 0));
  s.lastSavedAt = step.now;
  if (event.sameAsMine) step.effects.push({ type: 'clearDraftIfEqual', content: event.content });
  // The stored draft names the old base: restored after a crash it would meet this same conflict again.
  else step.persistDraft();
  if (step.dirty) {
    s.status = 'saving';
    step.startDebounce();
  } else {
    step.becomeSaved();
  }
}

function onLoaded<C>(step: Step<C>, event: Extract<SaveEvent<C>, { type: 'loaded' }>): void {
  const { s } = step;
  s.loading = false;
  s.loads += 1;
  s.loadingEdits = 0;
  s.epoch += 1;
  s.revision = event.revision;
  s.base = event.revision;
  s.confirmed = s.edits;
  step.stopTimers();
  s.due = null;
  s.attempt = 0;
  step.dropConflict();
  s.failure = null;
  s.restoredDraft = null;
  s.status = 'idle';
  step.settle(false);
  if (event.restored !== null) {
    // S15: the draft is now in the editor, unconfirmed, against the revision it was written on.
    s.edits += 1;
    s.base = event.restored.baseRevision;
    s.restoredDraft = { savedAt: event.restored.savedAt };
    s.status = 'saving';
    step.startDebounce();
  }
}

function onLoadFailed<C>(step: Step<C>, failure: SaveFailure): void {
  const { s } = step;
  s.status = 'error';
  s.failure = failure;
  step.settle(false);
  if (s.loads === 0 || !s.loading) return;
  s.loading = false;
  s.edits += s.loadingEdits;
  s.loadingEdits = 0;
  if (step.dirty) step.startDebounce();
}

function onWriteAside<C>(step: Step<C>, id: number): void {
  step.s.asides = [...step.s.asides, { id, ticket: step.nextId() }];
}

function onAsideSucceeded<C>(step: Step<C>, id: number, revision: number | null): void {
  const { s } = step;
  const aside = s.aside;
  if (aside === null || aside.id !== id) return;
  s.aside = null;
  // A load or a conflict's resolution moved the base meanwhile: the answer describes a revision we left. In a
  // conflict the base is the one `mine` was written on and must stay so (S10).
  if (revision === null || s.conflict !== null || s.base !== aside.base) return;
  s.base = revision;
  s.revision = revision;
  step.pump();
  // The stored draft names the old base: restored after a crash it would meet a 412 we caused ourselves.
  if (step.dirty && !s.loading && s.inFlight === null) step.persistDraft();
}

function onDispose<C>(step: Step<C>): void {
  step.stopTimers();
  step.dropConflict();
  step.settle(false);
  step.s.due = null;
  if (step.s.asides.length > 0) {
    step.effects.push({ type: 'abortAsides', ids: step.s.asides.map((a) => a.id) });
    step.s.asides = [];
  }
  step.s.disposed = true;
}

/**
 * @internal The autosave rules of `src/save/SPEC.md` as a pure function: the next state and the effects the
 * runtime must run, in order. `now` is the clock's time when the event happened. The input is never changed.
 */
export function transitionSave<C>(
  timing: SaveTiming,
  state: SaveState<C>,
  event: SaveEvent<C>,
  now: number,
): SaveTransition<C> {
  if (state.disposed) return { state, effects: [] };
  const step = new Step(state, timing, now);
  const { s } = step;
  switch (event.type) {
    case 'edit':
      onEdit(step);
      break;
    case 'beginLoading':
      step.beginLoading(true);
      break;
    case 'loaded':
      onLoaded(step, event);
      break;
    case 'loadFailed':
      onLoadFailed(step, event.failure);
      break;
    case 'flush':
      onFlush(step, event.waiter, event.keepalive);
      break;
    case 'persistDraft':
      if (step.dirty) step.persistDraft();
      break;
    case 'retryNow':
      if (s.conflict === null && !s.loading && step.dirty) {
        s.attempt = 0;
        step.stopRetry();
        step.requestSave(false);
      }
      break;
    case 'debounceElapsed':
      s.debouncing = false;
      step.requestSave(false);
      break;
    case 'retryElapsed':
      s.retry = null;
      step.requestSave(false);
      break;
    case 'idleElapsed':
      s.idleTimer = false;
      if (s.status === 'saved') s.status = 'idle';
      break;
    case 'writeSucceeded':
      onWriteSucceeded(step, event.id, event.revision, event.content);
      break;
    case 'writeFailed':
      onWriteFailed(step, event);
      break;
    case 'theirsFetched':
      onTheirsFetched(step, event);
      break;
    case 'theirsFailed':
      if (s.fetching === event.id) s.fetching = null;
      break;
    case 'resolveMine':
      if (s.conflict === null) {
        onFlush(step, event.waiter, false);
        break;
      }
      s.base = s.conflict.theirRevision;
      step.dropConflict();
      s.failure = null;
      s.attempt = 0;
      onFlush(step, event.waiter, false);
      break;
    case 'resolveTheirs':
      if (s.conflict === null) break;
      step.effects.push({ type: 'discardDraft' });
      step.beginLoading(false);
      break;
    case 'dismissRestoredDraft':
      s.restoredDraft = null;
      break;
    case 'writeAside':
      onWriteAside(step, event.id);
      break;
    case 'asideSucceeded':
      onAsideSucceeded(step, event.id, event.revision);
      break;
    case 'asideFailed':
      // S26: a failed write aside changes nothing; what waited behind it starts below.
      if (s.aside?.id === event.id) s.aside = null;
      break;
    case 'dispose':
      onDispose(step);
      break;
  }
  // Whatever ended a flight, a load or a conflict, the next thing in line starts once nothing is out.
  if (!s.disposed) step.pump();
  return { state: s, effects: step.effects };
}

/** @internal The public view of a state. */
export function saveSnapshotOf<C>(state: SaveState<C>): SaveSnapshot<C> {
  return {
    status: state.status,
    dirty: state.edits > state.confirmed,
    loading: state.loading,
    revision: state.revision,
    inFlight: state.inFlight !== null,
    conflict: state.conflict,
    failure: state.failure,
    retry: state.retry,
    restoredDraft: state.restoredDraft,
    lastSavedAt: state.lastSavedAt,
  };
}
