import { ApiError, RevisionConflictError } from '@planwright/sdk';

/** What a stale write (412) says: the newer version is being loaded; the user decides again. */
export function staleWriteMessage(kind: 'document' | 'blueprint'): string {
  return `This ${kind} was changed elsewhere since you loaded it. The latest version is now shown; please try again.`;
}

/** A write was refused because the revision it was made against is no longer current (412). */
export function isStaleWrite(error: unknown): boolean {
  return RevisionConflictError.isInstance(error);
}

/** The thing written to no longer exists (or is no longer the caller's to see): 404. */
export function isGone(error: unknown): boolean {
  return ApiError.isInstance(error) && error.status === 404;
}

/**
 * The words for a failed write: the spec's failure text (`Failed to rename document`…), or for a stale write
 * the {@link staleWriteMessage}, since trying again after the reload is what helps.
 */
export function writeFailureMessage(error: unknown, failure: string, kind: 'document' | 'blueprint'): string {
  return isStaleWrite(error) ? staleWriteMessage(kind) : failure;
}
