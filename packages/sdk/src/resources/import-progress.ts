import * as z from 'zod';

/**
 * The media type a client puts in `Accept` to get an import as a stream of progress events
 * (`docs/http-api.md` "Import progress"): one JSON object per line, the last one the result or an error.
 */
export const IMPORT_STREAM_MEDIA_TYPE = 'application/x-ndjson';

const wholeMs = z.number().int().nonnegative();

/** The conversion waits for a free worker: `ahead` jobs go first if no one else arrives (users take turns). */
export const importQueuedEventSchema = z.object({
  type: z.literal('progress'),
  phase: z.literal('queued'),
  ahead: z.number().int().nonnegative(),
  waited_ms: wholeMs,
  /** How long it may wait before it is dropped (503 `busy`). */
  limit_ms: wholeMs,
});

/** The conversion runs; it is stopped (422 `timed_out`) when `elapsed_ms` reaches `limit_ms`. */
export const importConvertingEventSchema = z.object({
  type: z.literal('progress'),
  phase: z.literal('converting'),
  elapsed_ms: wholeMs,
  limit_ms: wholeMs,
});

/** The converted file is merged into the document and saved. */
export const importSavingEventSchema = z.object({
  type: z.literal('progress'),
  phase: z.literal('saving'),
});

/** The last event of a finished import: `body` is exactly the JSON answer's body, `etag` its `ETag`. */
export const importResultEventSchema = z.object({
  type: z.literal('result'),
  etag: z.string(),
  body: z.record(z.string(), z.unknown()),
});

/** The last event of a failed import: `status` and `body` (`{detail, code?, …}`) are the JSON answer's. */
export const importErrorEventSchema = z.object({
  type: z.literal('error'),
  status: z.number().int().min(400).max(599),
  body: z.looseObject({ detail: z.string(), code: z.string().optional() }),
  /** Seconds to wait before trying again, when the JSON answer would send `Retry-After`. */
  retry_after: z.number().int().positive().optional(),
});

/** One line of the streamed import answer, as the server writes it (the wire contract). */
export const importStreamEventSchema = z.union([
  importQueuedEventSchema,
  importConvertingEventSchema,
  importSavingEventSchema,
  importResultEventSchema,
  importErrorEventSchema,
]);

/** One line of the streamed import answer (snake_case, as on the wire). */
export type ImportStreamEvent = z.infer<typeof importStreamEventSchema>;

/**
 * Where a server import stands, as `documents.importFile`'s `onProgress` reports it. `uploading` is the
 * SDK's own (the request has been sent; `fetch` cannot tell how much of the file is through); the others
 * are the server's events. Times are the server's, in milliseconds: real figures, never a percentage.
 */
export type ImportProgress =
  | { phase: 'uploading' }
  | { phase: 'queued'; ahead: number; waitedMs: number; limitMs: number }
  | { phase: 'converting'; elapsedMs: number; limitMs: number }
  | { phase: 'saving' };

/** A phase of {@link ImportProgress}. */
export type ImportPhase = ImportProgress['phase'];

/** The phases in the order an import goes through them. */
export const IMPORT_PHASES: readonly ImportPhase[] = ['uploading', 'queued', 'converting', 'saving'];

/** What one line of the stream says, read at the boundary. */
export type ImportStreamLine =
  | { kind: 'progress'; progress: ImportProgress }
  | { kind: 'result'; etag: string; body: Record<string, unknown> }
  | { kind: 'error'; status: number; body: Record<string, unknown>; retryAfter: number | undefined }
  /** A line of a kind or phase this SDK does not know (a newer server): skipped, not an error. */
  | { kind: 'unknown' };

const knownType = z.object({ type: z.enum(['progress', 'result', 'error']) });
const knownPhase = z.object({ phase: z.enum(['queued', 'converting', 'saving']) });

/**
 * @internal Reads one line of the stream. An event this SDK does not know is `unknown` (skipped); a line
 * that is not JSON, or a known event with the wrong fields, throws the zod or JSON error.
 */
export function readImportStreamLine(line: string): ImportStreamLine {
  const value: unknown = JSON.parse(line);
  const type = knownType.safeParse(value);
  if (!type.success) return { kind: 'unknown' };
  if (type.data.type === 'result') {
    const event = importResultEventSchema.parse(value);
    return { kind: 'result', etag: event.etag, body: event.body };
  }
  if (type.data.type === 'error') {
    const event = importErrorEventSchema.parse(value);
    return { kind: 'error', status: event.status, body: event.body, retryAfter: event.retry_after };
  }
  const phase = knownPhase.safeParse(value);
  if (!phase.success) return { kind: 'unknown' };
  switch (phase.data.phase) {
    case 'queued': {
      const event = importQueuedEventSchema.parse(value);
      return {
        kind: 'progress',
        progress: { phase: 'queued', ahead: event.ahead, waitedMs: event.waited_ms, limitMs: event.limit_ms },
      };
    }
    case 'converting': {
      const event = importConvertingEventSchema.parse(value);
      return {
        kind: 'progress',
        progress: { phase: 'converting', elapsedMs: event.elapsed_ms, limitMs: event.limit_ms },
      };
    }
    case 'saving':
      importSavingEventSchema.parse(value);
      return { kind: 'progress', progress: { phase: 'saving' } };
  }
}
