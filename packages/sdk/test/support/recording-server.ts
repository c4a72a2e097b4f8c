import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, exactly as sent on the request line. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Answers one request; the server has already read the whole body. */
export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 that records what it receives and answers as each test says. */
export interface RecordingServer {
  /** `http://127.0.0.1:{port}` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** The most recent request; fails the test when there is none. */
  last(): RecordedRequest;
  /** Replaces the handler (default: 200 `{}` as JSON). */
  handle(handler: Handler): void;
  /** Resolves with the next request the server receives (before it is answered). */
  nextRequest(): Promise<RecordedRequest>;
  /** Forgets the recorded requests and restores the default handler. */
  reset(): void;
  close(): Promise<void>;
}

/** Sends `body` with `status`; objects are sent as JSON. */
export function reply(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) {
    response.writeHead(status, headers).end();
  } else if (typeof body === 'string' || Buffer.isBuffer(body)) {
    response.writeHead(status, headers).end(body);
  } else {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }
}

const defaultHandler: Handler = (_request, response) => reply(response, 200, {});

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let handler = defaultHandler;
  let waiters: Array<(request: RecordedRequest) => void> = [];

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      const current = waiters;
      waiters = [];
      for (const resolve of current) resolve(recorded);
      handler(recorded, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    last() {
      const request = requests.at(-1);
      if (!request) throw new Error('the server received no request');
      return request;
    },
    handle(next) {
      handler = next;
    },
    nextRequest() {
      return new Promise((resolve) => waiters.push(resolve));
    },
    reset() {
      requests.length = 0;
      handler = defaultHandler;
    },
    close() {
      // Tests leave requests hanging on purpose (abort); drop those sockets instead of waiting for them.
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A recording server for one test file: started before its tests, closed after them, reset (and given
 * `defaultHandler`, if any) before each. The returned object stands for the running server.
 */
export function useRecordingServer(defaultHandler?: Handler): RecordingServer {
  let running: RecordingServer | undefined;
  beforeAll(async () => {
    running = await startRecordingServer();
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => {
    running?.reset();
    if (defaultHandler) running?.handle(defaultHandler);
  });
  const current = (): RecordingServer => {
    if (!running) throw new Error('the recording server is not running (used outside a test?)');
    return running;
  };
  return {
    get origin() {
      return current().origin;
    },
    get requests() {
      return current().requests;
    },
    last: () => current().last(),
    handle: (handler) => current().handle(handler),
    nextRequest: () => current().nextRequest(),
    reset: () => current().reset(),
    close: () => current().close(),
  };
}
