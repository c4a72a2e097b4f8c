import type * as z from 'zod';
import type { TokenStore } from '../auth/token-store.js';
import { ApiError, type ApiErrorOptions } from '../errors/api-error.js';
import { AuthRequiredError } from '../errors/auth-required-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { RevisionConflictError } from '../errors/revision-conflict-error.js';
import type { QueryParams } from './query-string.js';
import { encodeRequestBody, fitsKeepalive } from './request-body.js';
import { buildRequestUrl } from './request-url.js';
import { readErrorBody, readResponseBody, readResponseBytes } from './response-body.js';
import { type RequestTarget, toTransportError } from './transport-error.js';

/** The HTTP methods the request core sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** `fetch`'s `credentials` mode, spelled out so Node-only consumers need no DOM types. */
export type CredentialsMode = 'include' | 'omit' | 'same-origin';

/** A zod schema that validates (and may transform) a response body. */
export type ResponseSchema = z.ZodType;

/** What a call resolves to: the schema's output when one was given, else the unchecked body. */
export type ResponseData<S extends ResponseSchema | undefined> = S extends ResponseSchema
  ? z.output<S>
  : unknown;

/** What {@link HttpClientOptions.onAuthRequired} is told about the call that hit a 401 or 403. */
export interface AuthRequiredInfo {
  status: number;
  /** The path as the caller wrote it (`documents/`). */
  path: string;
  method: HttpMethod;
  /** The full URL that was requested. */
  url: string;
}

/** Options for {@link createHttpClient}. */
export interface HttpClientOptions {
  /**
   * Where the server lives: `''` (the default) for the page's own origin, a prefix such as `/planwright`,
   * or an absolute URL such as `https://plans.example.com`. Trailing slashes are ignored.
   */
  baseUrl?: string;
  /** Defaults to `globalThis.fetch`, looked up at each call (so test doubles installed later apply). */
  fetch?: typeof fetch;
  /** Supplies `X-Session-Token` and is cleared on a 401 or 403. Without one no token is ever sent. */
  tokenStore?: TokenStore;
  /** Runs on a 401 or 403 after the token store is cleared, before the call rejects (the web app redirects here). */
  onAuthRequired?: (info: AuthRequiredInfo) => void;
  /** Headers sent with every call; per-call headers win. */
  headers?: Record<string, string>;
}

/** Per-call options. */
export interface RequestOptions<S extends ResponseSchema | undefined = undefined> {
  /** Query parameters; `null`/`undefined` are skipped and arrays repeat the key. */
  params?: QueryParams;
  /** Extra headers; they win over the client's headers and the session token. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  credentials?: CredentialsMode;
  /**
   * Passed to `fetch` so the request outlives the page (a save on page hide). Browsers refuse keepalive
   * bodies over 64 KiB, so a body known to be bigger is sent without it rather than not at all (H17).
   */
  keepalive?: boolean;
  /**
   * `false` makes the call stand outside the session: no `X-Session-Token` is sent, and a 401 or 403
   * rejects with a plain {@link ApiError} without clearing the store or calling `onAuthRequired`
   * (a call that sent no token cannot prove the stored one invalid). Defaults to `true`.
   */
  auth?: boolean;
  /** Validates the parsed body; the call then resolves to the schema's output. */
  schema?: S;
  /**
   * Called with the headers of an OK answer before its body is read, e.g. to read its `ETag` (a section
   * write answers its document's new revision only there).
   */
  onHeaders?: (headers: Headers) => void;
  /**
   * `'bytes'` reads an OK answer as a `Uint8Array` whatever its content type (downloads: .docx, PDF),
   * and a schema, when given, then sees those bytes. Failures are read and thrown as usual (H18).
   */
  responseType?: 'parsed' | 'bytes';
}

/** Per-call options for {@link HttpClient.request}, which also takes the body. */
export interface RequestWithBodyOptions<S extends ResponseSchema | undefined = undefined>
  extends RequestOptions<S> {
  /** A plain object or array (sent as JSON), a string, FormData, Blob, URLSearchParams or binary data. */
  body?: unknown;
}

/** Per-call options for {@link HttpClient.raw}: there is no body parsing, so no schema. */
export type RawRequestOptions = Omit<RequestWithBodyOptions, 'schema'>;

/** A call without a body: GET, DELETE. */
export type CallWithoutBody = <S extends ResponseSchema | undefined = undefined>(
  path: string,
  options?: RequestOptions<S>,
) => Promise<ResponseData<S>>;

/** A call with a body: POST, PUT, PATCH. */
export type CallWithBody = <S extends ResponseSchema | undefined = undefined>(
  path: string,
  body?: unknown,
  options?: RequestOptions<S>,
) => Promise<ResponseData<S>>;

/** The shared request helper of spec 000 §7. Rules: `src/http/SPEC.md`. */
export interface HttpClient {
  /** The base URL given to {@link createHttpClient}, as given. */
  readonly baseUrl: string;
  /** GET; resolves to the parsed answer (or the schema's output). */
  get: CallWithoutBody;
  /** POST with a body (see {@link RequestWithBodyOptions.body} for the kinds). */
  post: CallWithBody;
  /** PUT with a body. */
  put: CallWithBody;
  /** PATCH with a body. */
  patch: CallWithBody;
  /** DELETE; a 204 resolves to `undefined`. */
  delete: CallWithoutBody;
  /** Any method, body in the options. */
  request<S extends ResponseSchema | undefined = undefined>(
    method: HttpMethod,
    path: string,
    options?: RequestWithBodyOptions<S>,
  ): Promise<ResponseData<S>>;
  /**
   * Sends the call and resolves to the unread `Response`, whatever its status, except that a 401 or 403
   * is handled as everywhere else. For downloads and streams.
   */
  raw(method: HttpMethod, path: string, options?: RawRequestOptions): Promise<Response>;
}

/** @internal The error a non-OK answer rejects with (H10, H15); also for failures carried inside a stream. */
export function apiErrorOf(failure: ApiErrorOptions): ApiError {
  // A 412 only ever answers an `If-Match` that no longer holds: callers branch on it to reload.
  return failure.status === 412 ? new RevisionConflictError(failure) : new ApiError(failure);
}

/**
 * Creates the request helper every resource module uses.
 *
 * @example
 * const http = createHttpClient({ baseUrl: 'http://localhost:8000', tokenStore });
 * const health = await http.get('health', { schema: healthSchema });
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '';

  async function send(
    method: HttpMethod,
    path: string,
    call: RawRequestOptions,
  ): Promise<{ response: Response; target: RequestTarget }> {
    const url = buildRequestUrl(baseUrl, path, call.params);
    const target: RequestTarget = { method, path, url, signal: call.signal };
    const withSession = call.auth !== false;

    const headers = new Headers(options.headers);
    const token = withSession ? options.tokenStore?.getToken() : null;
    if (token) headers.set('X-Session-Token', token);
    for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
    const { body, contentType } = encodeRequestBody(call.body);
    if (contentType && !headers.has('content-type')) headers.set('content-type', contentType);

    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (call.signal) init.signal = call.signal;
    if (call.credentials) init.credentials = call.credentials;
    if (call.keepalive === true && fitsKeepalive(body)) init.keepalive = true;

    // Read into a local and call it bare: `options.fetch(...)` would call the browser's fetch with
    // `this === options`, which throws "Illegal invocation".
    const fetchImpl = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetchImpl(url, init);
    } catch (error) {
      throw toTransportError(error, target);
    }

    if ((response.status === 401 || response.status === 403) && withSession) {
      // Both steps run whatever happens in the other; their failures (a throwing store listener or hook)
      // travel as the cause, so the caller still gets the AuthRequiredError it has to handle.
      let hookFailure: unknown;
      try {
        options.tokenStore?.clear();
      } catch (error) {
        hookFailure = error;
      }
      try {
        options.onAuthRequired?.({ status: response.status, path, method, url });
      } catch (error) {
        hookFailure ??= error;
      }
      const { text, data } = await readErrorBody(response, target);
      throw new AuthRequiredError({
        status: response.status,
        statusText: response.statusText,
        text,
        data,
        method,
        url,
        cause: hookFailure,
      });
    }
    return { response, target };
  }

  async function request<S extends ResponseSchema | undefined = undefined>(
    method: HttpMethod,
    path: string,
    call: RequestWithBodyOptions<S> = {},
  ): Promise<ResponseData<S>> {
    const { response, target } = await send(method, path, call);
    const { url } = target;

    if (!response.ok) {
      const { text, data, cause } = await readErrorBody(response, target);
      const failure = {
        status: response.status,
        statusText: response.statusText,
        text,
        data,
        method,
        url,
        cause,
      };
      throw apiErrorOf(failure);
    }

    call.onHeaders?.(response.headers);
    const data =
      call.responseType === 'bytes'
        ? await readResponseBytes(response, target)
        : await readResponseBody(response, target);
    if (!call.schema) return data as ResponseData<S>;
    const result = await call.schema.safeParseAsync(data);
    if (!result.success) {
      throw new ResponseValidationError({
        issues: result.error.issues,
        data,
        status: response.status,
        method,
        url,
        cause: result.error,
      });
    }
    return result.data as ResponseData<S>;
  }

  return {
    baseUrl,
    get: (path, call) => request('GET', path, call),
    post: (path, body, call) => request('POST', path, { ...call, body }),
    put: (path, body, call) => request('PUT', path, { ...call, body }),
    patch: (path, body, call) => request('PATCH', path, { ...call, body }),
    delete: (path, call) => request('DELETE', path, call),
    request,
    raw: async (method, path, call = {}) => (await send(method, path, call)).response,
  };
}
