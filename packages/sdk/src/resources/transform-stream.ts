import * as z from 'zod';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import type { HttpClient } from '../http/http-client.js';
import { apiErrorOf } from '../http/http-client.js';
import { postForNdjson, readNdjsonLines } from '../http/ndjson-stream.js';
import type { RequestTarget } from '../http/transport-error.js';

/** One line of a streamed transform (`docs/ai.md` "Text transforms", AI29). */
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
 * result or an error is a `NetworkError`.
 */
export async function transformWithText(
  http: HttpClient,
  path: string,
  body: unknown,
  signal: AbortSignal | undefined,
  onText: (text: string) => void,
): Promise<unknown> {
  const answer = await postForNdjson(http, path, body, signal);
  if (!answer.streamed) return answer.body;
  const { response, target } = answer;
  return readNdjsonLines(
    response,
    target,
    (line) => {
      const event = readLine(line, target, response.status);
      if (event.type === 'result') return { value: event.body };
      if (event.type === 'error') {
        throw apiErrorOf({
          status: event.status,
          data: event.body,
          text: JSON.stringify(event.body),
          method: 'POST',
          url: target.url,
        });
      }
      try {
        onText(event.text);
      } catch {
        // The listener's failure is its own: the answer still comes.
      }
      return undefined;
    },
    'the transform’s stream ended before its answer',
  );
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
