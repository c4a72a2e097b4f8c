import * as z from 'zod';
import type { PlanwrightError } from '../errors/planwright-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { apiErrorOf } from '../http/http-client.js';
import { readNdjsonLines } from '../http/ndjson-stream.js';
import type { RequestTarget } from '../http/transport-error.js';
import { type ImportProgress, readImportStreamLine } from './import-progress.js';

/** Calls the caller's listener; a listener that throws does not stop the import (it is already running). */
export function tellProgress(onProgress: (progress: ImportProgress) => void, progress: ImportProgress): void {
  try {
    onProgress(progress);
  } catch {
    // The listener's failure is its own: the server goes on importing either way.
  }
}

function invalidLine(target: RequestTarget, status: number, line: string, error: unknown): PlanwrightError {
  return new ResponseValidationError({
    message: `Unexpected response from ${target.method} ${target.url}: a line of the import's progress stream is not a valid event`,
    issues: error instanceof z.ZodError ? error.issues : [],
    data: line,
    status,
    method: target.method,
    url: target.url,
    cause: error,
  });
}

/**
 * Reads an `application/x-ndjson` import answer (`docs/http-api.md` "Import progress"): each progress
 * event goes to `onProgress`; the result event resolves to the JSON answer's body; an error event
 * rejects with the same `ApiError` (or `RevisionConflictError`) the JSON answer would have given. A stream
 * that ends without either is a {@link NetworkError}: the connection was lost, and whether the import
 * was saved is unknown (read the document to see).
 */
export async function readImportStream(
  response: Response,
  target: RequestTarget,
  onProgress: (progress: ImportProgress) => void,
): Promise<unknown> {
  return readNdjsonLines(
    response,
    target,
    (line) => {
      let event: ReturnType<typeof readImportStreamLine>;
      try {
        event = readImportStreamLine(line);
      } catch (error) {
        throw invalidLine(target, response.status, line, error);
      }
      if (event.kind === 'progress') tellProgress(onProgress, event.progress);
      else if (event.kind === 'result') return { value: event.body };
      else if (event.kind === 'error') {
        throw apiErrorOf({
          status: event.status,
          data: event.body,
          text: JSON.stringify(event.body),
          method: target.method,
          url: target.url,
        });
      }
      return undefined;
    },
    'the import’s progress stream ended before its result',
  );
}
