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
  const [sdk, dispatcher] = await Promise.all([import('@planwright/sdk'), connectionPool()]);
  const client = sdk.createPlanwrightClient({
    baseUrl: serverUrl,
    fetch: boundedFetch(dispatcher),
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

type Dispatcher = NonNullable<RequestInit['dispatcher']>;

let pool: Promise<Dispatcher> | undefined;

/**
 * The connections every request of this process goes through: an undici 7 `Agent` rather than the
 * pool built into Node 20 (undici 6). With Node's, a request whose connection the server resets is
 * now and then left unsettled with nothing else for the event loop to wait on, and Node ends the CLI
 * silently with exit code 13 (one `documents list` in three on this machine); with undici 7's, none
 * in hundreds of runs. Loading it costs about 20 ms, paid only by commands that call the server.
 */
function connectionPool(): Promise<Dispatcher> {
  // Only the Agent's module: undici's index loads its fetch, WebSocket, cache and mock modules too,
  // 87 ms of `planwright status`'s 360 against 19 ms (undici is pinned, so the path holds; the
  // resetting-server runs in test/binary.test.ts use this build). The build bundles it (tsup.config.ts).
  pool ??= import('undici/lib/dispatcher/agent.js').then(
    // The cast bridges two copies of the types (undici 7's and Node 20's undici-types), which differ in
    // iterator helpers only; `fetch` drives both through the same dispatch protocol.
    ({ default: Agent }) => new Agent() as unknown as Dispatcher,
  );
  return pool;
}

/**
 * The global `fetch` (looked up at call time) through `dispatcher`, with {@link REQUEST_TIMEOUT_MS}
 * added to the caller's signal.
 */
function boundedFetch(dispatcher: Dispatcher): typeof fetch {
  return async (input, init) => {
    const timeout = new AbortController();
    // A referenced timer, unlike `AbortSignal.timeout`'s: should a request never settle, the process
    // stays alive until the time-out and says so, instead of exiting silently (code 13).
    const timer = setTimeout(
      () => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      REQUEST_TIMEOUT_MS,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    try {
      const response = await globalThis.fetch(input, { ...init, signal, dispatcher });
      // The answer has come: its body stays bounded by the signal, but needs no timer of its own.
      timer.unref();
      return response;
    } catch (error) {
      clearTimeout(timer);
      throw error;
    }
  };
}

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
