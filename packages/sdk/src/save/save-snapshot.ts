/** Spec 001 §9: a document saves 1000 ms after the last edit. */
export const DOCUMENT_SAVE_DEBOUNCE_MS = 1000;
/** Spec 001 §9: a blueprint saves 800 ms after the last edit. */
export const BLUEPRINT_SAVE_DEBOUNCE_MS = 800;
/** Spec 001 §9: `saved` turns back to `idle` after 800 ms. */
export const SAVED_TO_IDLE_MS = 800;

/** How long a save may go without an answer before it is aborted and retried (S27): a stalled connection. */
export const SAVE_WRITE_TIMEOUT_MS = 30_000;

/** The save badge of spec 001 §4; `dirty` in the snapshot tells "Unsaved changes" apart. */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

/** Why the last save failed (`src/save/SPEC.md` S7). */
export type SaveFailureKind = 'network' | 'rejected' | 'conflict';

/** The last failure: `network` is retried automatically, `rejected` is not, `conflict` waits for the user. */
export interface SaveFailure {
  kind: SaveFailureKind;
  /** One line for people; never empty. */
  message: string;
  /** What `write`, `read` or the load rejected with. */
  error: unknown;
}

/**
 * The server refused a save because someone else saved first (412): nothing was overwritten. The web offers
 * "Reload theirs", "Keep mine (overwrite)" and "Copy mine to clipboard".
 */
export interface SaveConflict<C> {
  /** The editor's content when the conflict arrived. */
  mine: C;
  /** The server's current content, once `fetchLatest` answered; `null` until then (or without it). */
  theirs: C | null;
  /** The server's current revision, when known; "Keep mine" sends it as `If-Match`. */
  theirRevision: number | null;
}

/** What the save badge and the conflict dialog read (`src/save/SPEC.md`). Frozen; same object until a change. */
export interface SaveSnapshot<C> {
  status: SaveStatus;
  /** The editor holds content the server has not confirmed. */
  dirty: boolean;
  /** Saving is suppressed while a resource loads. */
  loading: boolean;
  /** The last revision the server confirmed or sent. */
  revision: number | null;
  /** A `write` call is out. */
  inFlight: boolean;
  /** Set on a 412; autosave pauses until it is resolved. */
  conflict: SaveConflict<C> | null;
  /** The last failure, until a save succeeds or a load starts. */
  failure: SaveFailure | null;
  /** The next automatic retry (`at` in epoch ms from the clock); `null` when none is scheduled. */
  retry: { attempt: number; at: number } | null;
  /** Set when `loaded()` restored a browser-storage draft: show a notice. */
  restoredDraft: { savedAt: number } | null;
  /** When the server last confirmed a save (epoch ms from the clock). */
  lastSavedAt: number | null;
}
