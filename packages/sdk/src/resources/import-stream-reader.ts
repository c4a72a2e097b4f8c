import * as z from 'zod';
import { NetworkError } from '../errors/network-error.js';
import type { PlanwrightError } from '../errors/planwright-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { apiErrorOf } from '../http/http-client.js';
import { type RequestTarget, toTransportError } from '../http/transport-error.js';
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
  const lost = (cause: unknown) => toTransportError(cause, target);
  if (!response.body) throw lost(new Error('The import answer has no body.'));
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw lost(error);
      }
      const text = decoder.decode(chunk.value, { stream: !chunk.done });
      pending += text;
      // A long line (a 2 MB result) comes in many chunks: only a chunk with a newline is worth splitting.
      if (!chunk.done && !text.includes('\n')) continue;
      const lines = pending.split('\n');
      pending = chunk.done ? '' : (lines.pop() ?? '');
      for (const raw of lines) {
        const line = raw.trim();
        if (line === '') continue;
        let event: ReturnType<typeof readImportStreamLine>;
        try {
          event = readImportStreamLine(line);
        } catch (error) {
          throw invalidLine(target, response.status, line, error);
        }
        if (event.kind === 'progress') tellProgress(onProgress, event.progress);
        else if (event.kind === 'result') return event.body;
        else if (event.kind === 'error') {
          throw apiErrorOf({
            status: event.status,
            data: event.body,
            text: JSON.stringify(event.body),
            method: target.method,
            url: target.url,
          });
        }
      }
      if (chunk.done) {
        throw new NetworkError({
          method: target.method,
          url: target.url,
          cause: new Error('the import’s progress stream ended before its result'),
        });
      }
    }
  } finally {
    // Nothing more is read after the last event; a reader left locked would keep the connection open.
    reader.cancel().catch(() => {});
  }
}
