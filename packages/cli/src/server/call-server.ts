import type { PlanwrightClient, TokenStore } from '@planwright/sdk';
import { ServerUnreachableError } from '../errors/cli-error.js';

/** How long one request may take before the server counts as unreachable. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Runs `call` with an SDK client for `serverUrl`. Loads the SDK on first use (it is not needed for
 * `--help`, `--version` or `config`), bounds every request with a time-out so a silent server cannot
 * hang the terminal, and turns "no answer at all" into a {@link ServerUnreachableError} that names the
 * URL and says how to start a server. Other SDK errors pass through to the top-level handler.
 *
 * @param options.tokenStore the session to send (`X-Session-Token`) and keep up to date; without
 *   one, the call is made signed out.
 */
export async function callServer<T>(
  serverUrl: string,
  call: (client: PlanwrightClient) => Promise<T>,
  options: { tokenStore?: TokenStore } = {},
): Promise<T> {
  const sdk = await import('@planwright/sdk');
  const client = sdk.createPlanwrightClient({
    baseUrl: serverUrl,
    fetch: fetchWithTimeout,
    tokenStore: options.tokenStore,
  });
  try {
    return await call(client);
  } catch (error) {
    if (sdk.NetworkError.isInstance(error)) {
      throw new ServerUnreachableError(serverUrl, describeFailure(error.cause), { cause: error });
    }
    throw error;
  }
}

/** `fetch` (looked up at call time) with {@link REQUEST_TIMEOUT_MS} added to the caller's signal. */
const fetchWithTimeout: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return globalThis.fetch(input, { ...init, signal });
};

/** "ECONNREFUSED" rather than "fetch failed": Node keeps the socket error one level down. */
export function describeFailure(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  if (cause.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const inner = cause.cause;
  if (typeof inner === 'object' && inner !== null && 'code' in inner && typeof inner.code === 'string') {
    return inner.code;
  }
  return cause.message;
}
