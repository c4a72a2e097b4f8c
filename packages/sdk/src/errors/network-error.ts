import { ERROR_CODES } from './error-codes.js';
import { hasMarker, PlanwrightError, setMarker } from './planwright-error.js';

const marker = 'planwright.error.network';

/** What the request core knows when `fetch` itself failed. */
export interface NetworkErrorOptions {
  method?: string;
  url?: string;
  /** What `fetch` (or reading the body) rejected with. */
  cause: unknown;
}

/**
 * `fetch failed` alone says little; Node puts the reason one level down: a socket error code
 * (ECONNREFUSED, ENOTFOUND, …) or an error of its own (`bad port`).
 */
function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner: unknown = cause.cause;
  if (typeof inner !== 'object' || inner === null) return cause.message;
  const { code, message } = inner as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return `${cause.message} (${code})`;
  if (typeof message === 'string' && message !== '') return `${cause.message} (${message})`;
  return cause.message;
}

/** The request got no answer: the connection was refused or reset, DNS failed, CORS blocked it, … */
export class NetworkError extends PlanwrightError {
  /** Request method, when known. */
  readonly method: string | undefined;
  /** Full request URL, when known. */
  readonly url: string | undefined;

  constructor(options: NetworkErrorOptions) {
    const target = [options.method, options.url].filter(Boolean).join(' ');
    super({
      code: ERROR_CODES.NETWORK_ERROR,
      message: `Network error${target ? ` on ${target}` : ''}: ${describe(options.cause)}`,
      cause: options.cause,
      isRetryable: true,
      suggestion: 'Check your connection and that the Planwright server is running, then try again.',
    });
    setMarker(this, marker);
    this.name = 'NetworkError';
    this.method = options.method;
    this.url = options.url;
  }

  /** True for a `NetworkError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is NetworkError {
    return hasMarker(error, marker);
  }
}
