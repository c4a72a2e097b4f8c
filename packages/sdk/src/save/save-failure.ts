import { PlanwrightError } from '../errors/planwright-error.js';
import { RevisionConflictError } from '../errors/revision-conflict-error.js';
import type { SaveFailure } from './save-snapshot.js';

const FALLBACK_MESSAGE = 'Failed to save changes';

/** The error's message; a hostile error (a throwing getter, a revoked proxy) gives the fallback, never a throw. */
function messageOf(error: unknown, fallback: string): string {
  try {
    if (typeof error === 'string') return error.trim() === '' ? fallback : error;
    if (typeof error !== 'object' || error === null) return fallback;
    const message: unknown = (error as { message?: unknown }).message;
    return typeof message === 'string' && message.trim() !== '' ? message : fallback;
  } catch {
    return fallback;
  }
}

function isRetryable(error: unknown): boolean {
  try {
    return PlanwrightError.isInstance(error) && error.isRetryable;
  } catch {
    return false;
  }
}

function isConflict(error: unknown): error is RevisionConflictError {
  try {
    return RevisionConflictError.isInstance(error);
  } catch {
    return false;
  }
}

/**
 * What a failed `write`, `read` or load was (S7): a 412 is a `conflict`; an error the SDK calls retryable (no
 * answer, a time-out, 408/425/429/5xx) is `network`; anything else is `rejected`.
 */
export function saveFailureOf(error: unknown, fallback = FALLBACK_MESSAGE): SaveFailure {
  if (isConflict(error)) return { kind: 'conflict', message: messageOf(error, fallback), error };
  const kind = isRetryable(error) ? 'network' : 'rejected';
  return { kind, message: messageOf(error, fallback), error };
}

/** The revision a 412 named as current, when it did. */
export function conflictRevisionOf(error: unknown): number | null {
  try {
    return isConflict(error) ? error.currentRevision : null;
  } catch {
    return null;
  }
}

/** The retry policy of S8. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

/**
 * The wait before retry `attempt` (1-based): full jitter over an exponential cap, `jitter × min(maxMs,
 * baseMs × 2^(attempt−1))`, so clients that failed together do not come back together.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, jitter: number): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const unit = Number.isFinite(jitter) ? Math.min(Math.max(jitter, 0), 1) : 0;
  return Math.floor(unit * cap);
}
