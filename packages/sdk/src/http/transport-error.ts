import { AbortedError } from '../errors/aborted-error.js';
import { NetworkError } from '../errors/network-error.js';

/** Where a request was going, for error messages and hooks. */
export interface RequestTarget {
  method: string;
  path: string;
  url: string;
  signal: AbortSignal | undefined;
}

/**
 * What `fetch` or a body read rejected with, as an SDK error. The caller's signal decides: if it fired,
 * the rejection is the abort (whatever error object the runtime chose to report it with).
 */
export function toTransportError(error: unknown, target: RequestTarget): AbortedError | NetworkError {
  if (target.signal?.aborted) {
    return new AbortedError({ method: target.method, url: target.url, reason: target.signal.reason });
  }
  return new NetworkError({ method: target.method, url: target.url, cause: error });
}
