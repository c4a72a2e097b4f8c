import { ApiError, type SaveFailure, type SaveSnapshot } from '@planwright/sdk';
import { SAVE_STATUS_TEXTS } from './workspace-texts';

/**
 * What the workspace page itself shows of its save (W8, W9, S25): a failure that waits for the user (no
 * automatic retry, no conflict), the restored-draft notice and the conflict. The badge reads the rest.
 */
export interface PageSaveState<C> {
  failure: SaveFailure | null;
  restoredDraft: SaveSnapshot<C>['restoredDraft'];
  conflict: SaveSnapshot<C>['conflict'];
}

export function pageSaveState<C>(snapshot: SaveSnapshot<C>): PageSaveState<C> {
  const { status, failure, retry, restoredDraft, conflict } = snapshot;
  return {
    failure: status === 'error' && failure && failure.kind !== 'conflict' && !retry ? failure : null,
    restoredDraft,
    conflict,
  };
}

export function samePageSaveState<C>(a: PageSaveState<C>, b: PageSaveState<C>): boolean {
  return a.failure === b.failure && a.restoredDraft === b.restoredDraft && a.conflict === b.conflict;
}

/** The four faces of the save-status badge (spec 001 §2 tooltips). */
export type SaveBadgeState = 'saving' | 'unsaved' | 'saved' | 'error';

/** What the badge reads of the controller's snapshot. */
export type SaveBadgeInput = Pick<SaveSnapshot<unknown>, 'status' | 'dirty' | 'failure' | 'retry'>;

/**
 * W8: error wins (a failed save, a conflict, or a failed first read); then saving; then an unsaved edit
 * that is not being saved (`Unsaved changes`); only then `Saved`. So `Saved` never shows over a dirty
 * document, whatever the controller's status says.
 */
export function saveBadgeState(snapshot: SaveBadgeInput, loadFailed = false): SaveBadgeState {
  if (loadFailed || snapshot.status === 'error') return 'error';
  if (snapshot.status === 'saving') return 'saving';
  if (snapshot.dirty) return 'unsaved';
  return 'saved';
}

/** The badge's tooltip, exactly as spec 001 §2 words it. */
export function saveBadgeLabel(state: SaveBadgeState): string {
  return {
    saving: SAVE_STATUS_TEXTS.saving,
    unsaved: SAVE_STATUS_TEXTS.unsaved,
    saved: SAVE_STATUS_TEXTS.saved,
    error: SAVE_STATUS_TEXTS.error,
  }[state];
}

/** W8: the second line: `Offline — retrying` while a network failure waits for its automatic retry. */
export function saveBadgeDetail(snapshot: SaveBadgeInput): string | null {
  if (snapshot.failure?.kind !== 'network') return null;
  // A live plan offline says its changes are kept (W40); a REST save says it retries.
  if (snapshot.failure.message === SAVE_STATUS_TEXTS.offlineKept) return SAVE_STATUS_TEXTS.offlineKept;
  return snapshot.retry ? SAVE_STATUS_TEXTS.offlineRetrying : null;
}

/**
 * W8: what a failed save says: the server's own `detail` when it sent one (an `ApiError`'s message is the
 * raw answer body), else the failure's message.
 */
export function saveFailureText(failure: SaveFailure): string {
  const { error } = failure;
  if (ApiError.isInstance(error) && error.detail?.trim()) return error.detail;
  return failure.message;
}
