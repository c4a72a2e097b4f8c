import { ApiError, type ApiErrorOptions } from './api-error.js';
import { ERROR_CODES } from './error-codes.js';
import { hasMarker, setMarker } from './planwright-error.js';

const marker = 'planwright.error.revision_conflict';

/** What the server says when nothing else is readable (`docs/http-api.md` "Revisions"). */
const DEFAULT_MESSAGE = 'This document was changed since you loaded it.';

function currentRevisionOf(data: unknown): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = (data as Record<string, unknown>).current_revision;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : null;
}

/**
 * The server answered 412: a write sent `If-Match` with a revision that is no longer current, so
 * nothing was written (`docs/http-api.md` "Revisions"). Sending the same write again would fail the
 * same way, so it is not retryable: load the document again, then decide what to keep.
 */
export class RevisionConflictError extends ApiError {
  /** The revision the server holds now (`current_revision`), when it said. */
  readonly currentRevision: number | null;

  constructor(options: ApiErrorOptions) {
    const detail =
      typeof options.data === 'object' && options.data !== null
        ? (options.data as Record<string, unknown>).detail
        : undefined;
    super(options, {
      code: ERROR_CODES.REVISION_CONFLICT,
      message: typeof detail === 'string' && detail.trim() !== '' ? detail : DEFAULT_MESSAGE,
      suggestion: 'A newer version was saved elsewhere: load it again, then redo your change.',
      isRetryable: false,
    });
    setMarker(this, marker);
    this.name = 'RevisionConflictError';
    this.currentRevision = currentRevisionOf(options.data);
  }

  /** True for a `RevisionConflictError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is RevisionConflictError {
    return hasMarker(error, marker);
  }
}
