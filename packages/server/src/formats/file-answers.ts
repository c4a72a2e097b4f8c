import {
  EXPORT_CONTENT_TYPES,
  type ExportFormat,
  exportFileName,
  FormatError,
  type FormatErrorReason,
} from '@planwright/sdk/formats';
import type { FastifyReply } from 'fastify';
import { HttpError } from '../http/http-error.js';
import { ConversionBusyError } from './conversion-pool.js';

/** The status a refused file answers with: too big 413, a type we do not read 415, else 422. */
function statusOf(reason: FormatErrorReason): number {
  if (reason === 'too_large' || reason === 'too_many_entries') return 413;
  if (reason === 'unsupported_format') return 415;
  return 422;
}

/**
 * A conversion failure as an answer: a refused file (`FormatError`) answers its one-line message with
 * the reason as `code`; too many of the caller's own conversions 429, a full or slow queue 503 (both
 * with `Retry-After`). Anything else goes on to the error handler (a 500 without
 * details).
 */
export function conversionFailure(error: unknown): unknown {
  if (FormatError.isInstance(error))
    return new HttpError(statusOf(error.reason), error.reason, error.message);
  if (error instanceof ConversionBusyError) {
    const retryAfter = { 'retry-after': String(error.retryAfterSeconds) };
    // Too many of the caller's own is theirs to pace (429); a full or slow queue is the server's (503).
    return error.reason === 'owner_limit'
      ? new HttpError(429, 'too_many_conversions', error.message, undefined, retryAfter)
      : new HttpError(503, 'busy', error.message, undefined, retryAfter);
  }
  return error;
}

/** Answers a file to download: its content type, its name made safe from `title`, never cached. */
export function sendFile(
  reply: FastifyReply,
  format: ExportFormat,
  title: string,
  bytes: Uint8Array,
): FastifyReply {
  return reply
    .type(EXPORT_CONTENT_TYPES[format])
    .header('content-disposition', attachmentDisposition(exportFileName(title, format)))
    .header('cache-control', 'no-store')
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** `Content-Disposition: attachment` naming the file, with an ASCII fallback for old clients (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// PostgreSQL refuses NUL and unpaired surrogates; a file may hold either, and they carry no text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is taken out.
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The tree with every string made storable: NUL removed, unpaired surrogates replaced by U+FFFD. */
export function storableStrings<T>(value: T): T {
  if (typeof value === 'string') return value.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD') as T;
  if (Array.isArray(value)) return value.map((item) => storableStrings(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, storableStrings(child)]),
    ) as T;
  }
  return value;
}
