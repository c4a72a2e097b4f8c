import { HttpError } from '../http/http-error.js';

/**
 * Thrown inside a write's transaction when the compare-and-set on `revision` found another write had
 * got there first: the transaction rolls back and the write runs again from a fresh read (where an
 * `If-Match` then answers 412).
 */
export class StaleWriteError extends Error {
  override name = 'StaleWriteError';
}

const ATTEMPTS = 3;

/**
 * Runs `write` (one whole transaction) again when it lost a compare-and-set race; after three lost
 * races in a row answers 409, since the caller did nothing wrong and may simply try again.
 */
export async function retryStaleWrites<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof StaleWriteError)) throw error;
      if (attempt >= ATTEMPTS) {
        throw new HttpError(409, 'write_conflict', 'Too many changes at once. Please try again.');
      }
    }
  }
}
