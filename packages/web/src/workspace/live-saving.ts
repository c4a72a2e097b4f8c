import {
  type SaveAsideContext,
  type SaveAsideResult,
  type SaveController,
  type SaveSnapshot,
  Subscribable,
} from '@planwright/sdk';
import type { LiveDocument, LiveDocumentSnapshot } from '@planwright/sdk/live';
import type { DocumentJson } from '@planwright/sdk/model';
import type { Clock } from '../platform/clock';
import { SAVE_STATUS_TEXTS } from './workspace-texts';

/**
 * How long the badge keeps "Saving…" after the server stored the last change (W40). A typist's changes are
 * stored one by one within milliseconds: without it the badge flips Saving…/Saved on every keystroke, and
 * each flip is a React commit, which measures the whole plan's selection while the editor has focus (about
 * 7 ms on a 200-page plan, bench editor-keystroke).
 */
export const LIVE_SAVED_SETTLE_MS = 1000;

/**
 * How long a hidden tab keeps its live plan connected (W41). A tab left open in the background would hold
 * the plan loaded on the server for hours, counting against `LIVE_MAX_DOCUMENTS`; after this it lets go
 * (once everything it made is stored) and syncs again as soon as it is shown.
 */
export const LIVE_HIDDEN_RELEASE_MS = 5 * 60_000;

/**
 * What the workspace asks of its saving, whether REST (`SaveController`) or live: the save badge, the page's
 * leave guards, structure calls and imports read it alike.
 */
export type PlanSaving = Pick<
  SaveController<DocumentJson>,
  | 'subscribe'
  | 'getSnapshot'
  | 'beginLoading'
  | 'loaded'
  | 'loadFailed'
  | 'edit'
  | 'flush'
  | 'persistDraft'
  | 'retryNow'
  | 'resolveConflict'
  | 'dismissRestoredDraft'
  | 'writeAside'
  | 'dispose'
>;

/** A plan's live copy as the workspace holds it, and how to close it (its browser store with it). */
export interface OpenedLivePlan {
  live: LiveDocument;
  close(): void;
}

/** The save snapshot a live document's state shows as (W40): there is no revision to send, no conflict. */
export function liveSaveSnapshot(live: LiveDocumentSnapshot): SaveSnapshot<DocumentJson> {
  const base: SaveSnapshot<DocumentJson> = {
    status: live.saved ? 'saved' : 'saving',
    dirty: !live.saved,
    loading: !live.synced && live.error === null,
    // Live writes merge; REST calls beside them send no If-Match (the server bases them on its live state).
    revision: null,
    inFlight: false,
    conflict: null,
    failure: null,
    retry: null,
    restoredDraft: null,
    lastSavedAt: null,
  };
  if (live.error !== null && live.error.code !== 'busy') {
    return {
      ...base,
      status: 'error',
      failure: { kind: 'rejected', message: live.error.message, error: live.error },
    };
  }
  if (live.status !== 'connected' || live.error !== null) {
    // Nothing is lost offline: the replica keeps every change and sends it when the socket is back.
    const message = live.error?.message ?? SAVE_STATUS_TEXTS.offlineKept;
    return {
      ...base,
      status: live.saved ? 'saved' : 'error',
      failure: live.saved ? null : { kind: 'network', message, error: null },
      retry: live.saved ? null : { attempt: 1, at: 0 },
    };
  }
  return base;
}

/**
 * The workspace's saving on a live plan (W40): the live document sends every change as it is made, so
 * there is nothing to schedule; this shows its state as a save snapshot and waits for "stored" where the
 * page waits for a save (leaving, a structure call, an import, an export).
 */
export class LiveSaving extends Subscribable implements PlanSaving {
  #snapshot: SaveSnapshot<DocumentJson>;
  #source: LiveDocumentSnapshot;
  #settle: unknown = null;
  /** The hidden tab's countdown to letting go of the connection (W41). */
  #release: unknown = null;
  /** Past the countdown with something not stored yet: lets go once it is. */
  #releaseWhenSaved: (() => void) | null = null;
  #released = false;
  readonly #stopWatching: () => void;

  readonly live: LiveDocument;
  readonly #close: () => void;
  readonly #clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;

  constructor(opened: OpenedLivePlan, clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>) {
    super();
    this.live = opened.live;
    this.#close = opened.close;
    this.#clock = clock;
    this.#source = this.live.getSnapshot();
    this.#snapshot = liveSaveSnapshot(this.#source);
    this.#stopWatching = this.live.subscribe(() => this.#sourceChanged());
  }

  readonly getSnapshot = (): SaveSnapshot<DocumentJson> => this.#snapshot;

  #sourceChanged(): void {
    const source = this.live.getSnapshot();
    if (source === this.#source) return;
    this.#source = source;
    const shown = liveSaveSnapshot(source);
    this.#clearSettle();
    // Stored, right after "Saving…": it stays a moment longer (not dirty: nothing is left to lose).
    if (shown.status === 'saved' && source.status === 'connected' && this.#snapshot.status === 'saving') {
      this.#show({ ...shown, status: 'saving' });
      this.#settle = this.#clock.setTimeout(() => {
        this.#settle = null;
        this.#show(liveSaveSnapshot(this.#source));
      }, LIVE_SAVED_SETTLE_MS);
      return;
    }
    this.#show(shown);
  }

  #show(snapshot: SaveSnapshot<DocumentJson>): void {
    this.#snapshot = snapshot;
    this.notify();
  }

  /**
   * W41: the page was hidden or shown. Hidden for {@link LIVE_HIDDEN_RELEASE_MS}, the connection closes once
   * everything made here is stored (the badge still says Saved); shown again, it syncs at once.
   */
  setPageHidden(hidden: boolean): void {
    this.#clearRelease();
    if (!hidden) {
      if (this.#released) this.live.connect();
      this.#released = false;
      return;
    }
    const letGo = () => {
      this.#clearRelease();
      this.#released = true;
      this.live.disconnect();
    };
    this.#release = this.#clock.setTimeout(() => {
      this.#release = null;
      if (this.live.getSnapshot().saved) {
        letGo();
        return;
      }
      // Something not stored yet: the connection stays to send it, and lets go once it is stored.
      this.#releaseWhenSaved = this.live.subscribe(() => {
        if (this.live.getSnapshot().saved) letGo();
      });
    }, LIVE_HIDDEN_RELEASE_MS);
  }

  #clearRelease(): void {
    this.#releaseWhenSaved?.();
    this.#releaseWhenSaved = null;
    if (this.#release === null) return;
    this.#clock.clearTimeout(this.#release);
    this.#release = null;
  }

  #clearSettle(): void {
    if (this.#settle === null) return;
    this.#clock.clearTimeout(this.#settle);
    this.#settle = null;
  }

  /** Everything made here is stored; false at once when it cannot be now (offline, refused). */
  flush(): Promise<boolean> {
    const source = this.live.getSnapshot();
    if (source.saved) return Promise.resolve(true);
    if (source.status !== 'connected' || source.error !== null) return Promise.resolve(false);
    return this.live.whenSaved().then(() => this.live.getSnapshot().saved);
  }

  /** A write beside the live document (a blueprint's settings): run as it is, with no revision to match. */
  async writeAside<T>(write: (context: SaveAsideContext) => Promise<SaveAsideResult<T>>): Promise<T> {
    return (await write({ ifMatch: null, signal: new AbortController().signal })).value;
  }

  resolveConflict(choice: 'theirs'): { content: DocumentJson; revision: number | null } | null;
  resolveConflict(choice: 'mine'): Promise<boolean>;
  resolveConflict(
    choice: 'theirs' | 'mine',
  ): { content: DocumentJson; revision: number | null } | null | Promise<boolean> {
    // Live changes merge: there is never a conflict to settle.
    return choice === 'mine' ? Promise.resolve(true) : null;
  }

  // The live document loads, tracks and keeps changes itself: nothing to do for these.
  beginLoading(): void {}
  loaded(): null {
    return null;
  }
  loadFailed(): void {}
  edit(): void {}
  persistDraft(): void {}
  retryNow(): void {}
  dismissRestoredDraft(): void {}

  /** Closes the connection and the browser's copy. */
  dispose(): void {
    this.#clearSettle();
    this.#clearRelease();
    this.#stopWatching();
    this.unsubscribeAll();
    this.#close();
  }
}
