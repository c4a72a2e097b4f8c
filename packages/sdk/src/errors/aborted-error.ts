import { ERROR_CODES } from './error-codes.js';
import { hasMarker, PlanwrightError, setMarker } from './planwright-error.js';

const marker = 'planwright.error.aborted';

/** What the request core knows when the caller's signal fired. */
export interface AbortedErrorOptions {
  method?: string;
  url?: string;
  /** `signal.reason`: an `AbortError`, a `TimeoutError` from `AbortSignal.timeout()`, or anything. */
  reason?: unknown;
}

function isTimeout(reason: unknown): boolean {
  return (
    typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError'
  );
}

/**
 * The caller's `AbortSignal` fired. A plain abort is the caller's own decision and is not retryable; a
 * `TimeoutError` reason (from `AbortSignal.timeout()`) is, since the server may answer in time next try.
 */
export class AbortedError extends PlanwrightError {
  /** Request method, when known. */
  readonly method: string | undefined;
  /** Full request URL, when known. */
  readonly url: string | undefined;
  /** True when the signal fired because of a timeout. */
  readonly isTimeout: boolean;

  constructor(options: AbortedErrorOptions = {}) {
    const target = [options.method, options.url].filter(Boolean).join(' ');
    const timedOut = isTimeout(options.reason);
    super({
      code: ERROR_CODES.ABORTED,
      message: `${timedOut ? 'Request timed out' : 'Request aborted'}${target ? ` (${target})` : ''}`,
      cause: options.reason,
      isRetryable: timedOut,
      suggestion: timedOut ? 'The server took too long to answer: try again.' : undefined,
    });
    setMarker(this, marker);
    this.name = 'AbortedError';
    this.method = options.method;
    this.url = options.url;
    this.isTimeout = timedOut;
  }

  /** True for an `AbortedError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is AbortedError {
    return hasMarker(error, marker);
  }
}
