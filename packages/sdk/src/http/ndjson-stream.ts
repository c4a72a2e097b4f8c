import { NetworkError } from '../errors/network-error.js';
import { apiErrorOf, type HttpClient } from './http-client.js';
import { readErrorBody, readResponseBody } from './response-body.js';
import { type RequestTarget, toTransportError } from './transport-error.js';

/** The media type of the answers streamed one JSON event per line (imports, transforms). */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/**
 * What a POST that asked for a line stream got: the stream itself, or the plain body of a server that answered
 * JSON instead (which the caller treats as the final answer).
 */
export type NdjsonAnswer = { readonly response: Response; readonly target: RequestTarget } & (
  | { readonly streamed: true }
  | { readonly streamed: false; readonly body: unknown }
);

/**
 * POSTs `body` preferring an `application/x-ndjson` answer over JSON. A failed status rejects with the same
 * `ApiError` a JSON call gives, before any line is read.
 */
export async function postForNdjson(
  http: HttpClient,
  path: string,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<NdjsonAnswer> {
  const response = await http.raw('POST', path, {
    body,
    signal,
    headers: { accept: `${NDJSON_MEDIA_TYPE}, application/json;q=0.5` },
  });
  const target: RequestTarget = { method: 'POST', path, url: response.url || path, signal };
  if (!response.ok) {
    const { text, data, cause } = await readErrorBody(response, target);
    throw apiErrorOf({
      status: response.status,
      statusText: response.statusText,
      text,
      data,
      method: 'POST',
      url: target.url,
      cause,
    });
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === NDJSON_MEDIA_TYPE) return { streamed: true, response, target };
  return { streamed: false, response, target, body: await readResponseBody(response, target) };
}

/**
 * Reads a line stream: `onLine` gets each non-blank line and answers `{ value }` to finish with, or `undefined` to
 * read on (it may throw to fail). A stream that ends before a line finished it is a {@link NetworkError} saying
 * `endedEarly`: the connection was lost. The reader is released whatever happens.
 */
export async function readNdjsonLines<T>(
  response: Response,
  target: RequestTarget,
  onLine: (line: string) => { readonly value: T } | undefined,
  endedEarly: string,
): Promise<T> {
  const lost = (cause: unknown) => toTransportError(cause, target);
  if (!response.body) throw lost(new Error('The answer has no body.'));
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
        const done = onLine(line);
        if (done !== undefined) return done.value;
      }
      if (chunk.done) {
        throw new NetworkError({ method: target.method, url: target.url, cause: new Error(endedEarly) });
      }
    }
  } finally {
    // Nothing more is read after the last event; a reader left locked would keep the connection open.
    reader.cancel().catch(() => {});
  }
}
