import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { hasMarker, PlanwrightError, setMarker } from './planwright-error.js';

const marker = 'planwright.error.api';

/** What the request core knows about a non-OK answer. */
export interface ApiErrorOptions {
  status: number;
  statusText?: string;
  /** The parsed body: an object for JSON answers, else the text; `undefined` when empty. */
  data?: unknown;
  /** The body exactly as received. */
  text?: string;
  method?: string;
  url?: string;
  cause?: unknown;
}

/** @internal What a subclass may change about the base error. */
export interface ApiErrorOverrides {
  code?: ErrorCode;
  message?: string;
  suggestion?: string;
  isRetryable?: boolean;
}

/** 408 Request Timeout, 425 Too Early, 429 Too Many Requests and every 5xx may succeed on a later try. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

function suggestionFor(status: number): string | undefined {
  if (status === 429) return 'Too many requests: wait a moment, then try again.';
  if (status >= 500) return 'The server had a problem: try again later.';
  return undefined;
}

function stringField(data: unknown, key: string): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The server answered with a non-OK status (spec 000 §8 "Shared"): the message is the response text
 * when it has any, otherwise `Request failed with {status}`; the error carries the status and data.
 */
export class ApiError extends PlanwrightError {
  /** HTTP status of the answer. */
  readonly status: number;
  /** HTTP status text of the answer (often empty over HTTP/2). */
  readonly statusText: string;
  /** The parsed body: an object for JSON answers, else the text; `undefined` when empty. */
  readonly data: unknown;
  /** `data.detail` when the server sent one as a string (our server always does). */
  readonly detail: string | undefined;
  /** `data.code` when the server sent one as a string, e.g. `not_found`. */
  readonly serverCode: string | undefined;
  /** Request method, when known. */
  readonly method: string | undefined;
  /** Full request URL, when known. */
  readonly url: string | undefined;

  constructor(options: ApiErrorOptions, overrides: ApiErrorOverrides = {}) {
    const text = options.text ?? '';
    super({
      code: overrides.code ?? ERROR_CODES.API_ERROR,
      // Whitespace-only bodies count as empty: a message of "\n" tells nobody anything.
      message: overrides.message ?? (text.trim() === '' ? `Request failed with ${options.status}` : text),
      cause: options.cause,
      isRetryable: overrides.isRetryable ?? isRetryableStatus(options.status),
      suggestion: 'suggestion' in overrides ? overrides.suggestion : suggestionFor(options.status),
    });
    setMarker(this, marker);
    this.name = 'ApiError';
    this.status = options.status;
    this.statusText = options.statusText ?? '';
    this.data = options.data;
    this.detail = stringField(options.data, 'detail');
    this.serverCode = stringField(options.data, 'code');
    this.method = options.method;
    this.url = options.url;
  }

  /** True for an `ApiError` (or `AuthRequiredError`) from any copy of the SDK. */
  static override isInstance(error: unknown): error is ApiError {
    return hasMarker(error, marker);
  }
}
