import { ResponseValidationError } from '../errors/response-validation-error.js';
import { type RequestTarget, toTransportError } from './transport-error.js';

/** `application/json`, `application/problem+json`, `application/vnd.x+json; charset=utf-8`, … */
export function isJsonContentType(contentType: string | null): boolean {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

async function readText(response: Response, target: RequestTarget): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw toTransportError(error, target);
  }
}

/** An OK answer's body as bytes, for downloads (H18); a body that breaks off is a network failure. */
export async function readResponseBytes(response: Response, target: RequestTarget): Promise<Uint8Array> {
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw toTransportError(error, target);
  }
}

/**
 * Spec 000 §7: a JSON answer is parsed, anything else is read as text. No content (a 204, a HEAD answer,
 * an empty body: `fetch` reads all three as `''`) is `undefined`. A JSON content type with a body that is
 * not JSON is the server's fault, reported as a {@link ResponseValidationError}, not a bare `SyntaxError`.
 */
export async function readResponseBody(response: Response, target: RequestTarget): Promise<unknown> {
  const text = await readText(response, target);
  if (text === '') return undefined;
  if (!isJsonContentType(response.headers.get('content-type'))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ResponseValidationError({
      message: `Unexpected response from ${target.method} ${target.url}: the body is not valid JSON`,
      issues: [],
      data: text,
      status: response.status,
      method: target.method,
      url: target.url,
      cause: error,
    });
  }
}

/** The body of a non-OK answer: its text, and its data (parsed when JSON, else the text). */
export interface ErrorBody {
  text: string;
  data: unknown;
  /** Why the body could not be read, when it could not. */
  cause?: unknown;
}

/**
 * Reads an error answer's body without letting a second failure hide the first: the status is what
 * matters, so an unreadable or malformed body still yields an error with that status. Only an abort
 * wins, because the caller asked for it.
 */
export async function readErrorBody(response: Response, target: RequestTarget): Promise<ErrorBody> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (target.signal?.aborted) throw toTransportError(error, target);
    return { text: '', data: undefined, cause: error };
  }
  if (text === '') return { text, data: undefined };
  if (!isJsonContentType(response.headers.get('content-type'))) return { text, data: text };
  try {
    return { text, data: JSON.parse(text) as unknown };
  } catch {
    return { text, data: text };
  }
}
