import * as z from 'zod';
import { NetworkError } from '../errors/network-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { apiErrorOf, type HttpClient } from '../http/http-client.js';
import { readErrorBody, readResponseBody } from '../http/response-body.js';
import { type RequestTarget, toTransportError } from '../http/transport-error.js';

/** The media type of a streamed transform answer (AI29): one JSON event per line. */
export const TRANSFORM_STREAM_MEDIA_TYPE = 'application/x-ndjson';

/** One line of a streamed transform (`docs/http-api.md` "AI transforms"). */
export type TransformStreamEvent =
  /** The answer so far (cumulative, before the final clean-up). */
  | { type: 'text'; text: string }
  /** The JSON answer's body, exactly as without streaming. */
  | { type: 'result'; body: unknown }
  /** The JSON error's status and body, exactly as without streaming. */
  | { type: 'error'; status: number; body: unknown };

const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(4 * 1024 * 1024) }),
  z.object({ type: z.literal('result'), body: z.unknown() }),
  z.object({ type: z.literal('error'), status: z.number().int().min(400).max(599), body: z.unknown() }),
]);

/**
 * `POST apps/ai/transform/` asking for the answer as it is written (AI29): `onText` gets the text so far as it
 * grows; resolves to the same body the JSON answer has, rejects with the same `ApiError`. A server that does not
 * stream answers plain JSON, which resolves the same way (with no `onText` call). A stream that ends without a
 * result or an error is a {@link NetworkError}.
 */
export async function transformWithText(
  http: HttpClient,
  path: string,
  body: unknown,
  signal: AbortSignal | undefined,
  onText: (text: string) => void,
): Promise<unknown> {
  const response = await http.raw('POST', path, {
    body,
    signal,
    headers: { accept: `${TRANSFORM_STREAM_MEDIA_TYPE}, application/json;q=0.5` },
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
  if (type !== TRANSFORM_STREAM_MEDIA_TYPE) return readResponseBody(response, target);
  const lost = (cause: unknown) => toTransportError(cause, target);
  if (!response.body) throw lost(new Error('The transform answer has no body.'));
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
      pending += decoder.decode(chunk.value, { stream: !chunk.done });
      const lines = pending.split('\n');
      pending = chunk.done ? '' : (lines.pop() ?? '');
      for (const raw of lines) {
        const line = raw.trim();
        if (line === '') continue;
        const event = readLine(line, target, response.status);
        if (event.type === 'text') {
          try {
            onText(event.text);
          } catch {
            // The listener's failure is its own: the answer still comes.
          }
        } else if (event.type === 'result') return event.body;
        else {
          throw apiErrorOf({
            status: event.status,
            data: event.body,
            text: JSON.stringify(event.body),
            method: 'POST',
            url: target.url,
          });
        }
      }
      if (chunk.done) break;
    }
  } finally {
    reader.releaseLock();
  }
  throw new NetworkError({
    method: 'POST',
    url: target.url,
    cause: new Error('The transform stream ended before its answer: the connection was lost.'),
  });
}

function readLine(line: string, target: RequestTarget, status: number): TransformStreamEvent {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw invalid(line, target, status, error);
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) throw invalid(line, target, status, parsed.error);
  return parsed.data;
}

function invalid(
  line: string,
  target: RequestTarget,
  status: number,
  error: unknown,
): ResponseValidationError {
  return new ResponseValidationError({
    message: `Unexpected response from POST ${target.url}: a line of the transform's stream is not a valid event`,
    issues: error instanceof z.ZodError ? error.issues : [],
    data: line.slice(0, 2_000),
    status,
    method: 'POST',
    url: target.url,
    cause: error,
  });
}
