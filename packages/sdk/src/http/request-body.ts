/** A request body ready for `fetch`, and the content type the SDK chose for it (if any). */
export interface EncodedBody {
  body: BodyInit | undefined;
  contentType: string | undefined;
}

/**
 * Bodies `fetch` already knows how to send; it also picks their content type (multipart boundary,
 * the blob's own type, form encoding), so the SDK must not set one. Checked by their tag rather than
 * `instanceof`, which fails for objects from another realm (an iframe) or a polyfill.
 */
const SENT_AS_IS = new Set([
  '[object FormData]',
  '[object Blob]',
  '[object File]',
  '[object URLSearchParams]',
  '[object ArrayBuffer]',
]);

function tagOf(value: object): string {
  return Object.prototype.toString.call(value);
}

/** Also by `instanceof` the realm's own classes: DOM shims (happy-dom, jsdom) may not set the tag. */
function isGlobalBodyType(value: object): boolean {
  return (
    (typeof FormData !== 'undefined' && value instanceof FormData) ||
    (typeof Blob !== 'undefined' && value instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && value instanceof URLSearchParams)
  );
}

/**
 * Spec 000 §7: a JSON body is sent with a JSON content type, a string as plain text, form data and
 * blobs as they are. `null` and `undefined` mean no body.
 */
export function encodeRequestBody(body: unknown): EncodedBody {
  if (body === undefined || body === null) return { body: undefined, contentType: undefined };
  if (typeof body === 'string') return { body, contentType: 'text/plain;charset=UTF-8' };
  if (typeof body === 'object') {
    if (SENT_AS_IS.has(tagOf(body)) || isGlobalBodyType(body) || ArrayBuffer.isView(body)) {
      return { body: body as BodyInit, contentType: undefined };
    }
    if (tagOf(body) === '[object ReadableStream]') {
      // Streaming uploads need `duplex: 'half'` and HTTP/2 in browsers; nothing in Planwright needs them.
      throw new TypeError('Streaming request bodies are not supported: send a Blob instead.');
    }
  }
  if (typeof body === 'function' || typeof body === 'symbol') {
    throw new TypeError(`A ${typeof body} cannot be sent as a request body.`);
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** The body limit browsers put on keepalive requests (the Fetch standard's 64 KiB in-flight quota). */
export const KEEPALIVE_BODY_LIMIT = 64 * 1024;

/**
 * Whether a body may go with `keepalive`: a browser rejects a bigger one outright (a `TypeError`, so the save
 * would fail even when the page stays open). Strings, blobs and binary data are measured; other bodies (form
 * data, URL parameters) are left to the browser.
 */
export function fitsKeepalive(body: BodyInit | undefined): boolean {
  if (body === undefined || body === null) return true;
  // Each UTF-16 unit takes one to three UTF-8 bytes: measure only when those bounds do not decide.
  if (typeof body === 'string') {
    if (body.length * 3 <= KEEPALIVE_BODY_LIMIT) return true;
    if (body.length > KEEPALIVE_BODY_LIMIT) return false;
    return new TextEncoder().encode(body).byteLength <= KEEPALIVE_BODY_LIMIT;
  }
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return body.byteLength <= KEEPALIVE_BODY_LIMIT;
  if (typeof Blob !== 'undefined' && body instanceof Blob) return body.size <= KEEPALIVE_BODY_LIMIT;
  return true;
}
