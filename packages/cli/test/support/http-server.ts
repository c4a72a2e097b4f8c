import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string | undefined;
  url: string | undefined;
}

export interface TestServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on a free local port; `handle` answers every request. */
export async function startServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method, url: request.url });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** {@link startServer} whose `handle` also gets the request's JSON body (`undefined` when it has none). */
export function startJsonServer(
  handle: (request: IncomingMessage, response: ServerResponse, body: unknown) => void,
): Promise<TestServer> {
  return startServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      handle(request, response, text === '' ? undefined : JSON.parse(text));
    });
  });
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

/** A server that answers `GET /api/v1/health` like the reference server, and 404 elsewhere. */
export function startHealthServer(
  health: unknown = { status: 'ok', database: 'pglite', version: '9.8.7' },
  status = 200,
): Promise<TestServer> {
  return startServer((request, response) => {
    if (request.method === 'GET' && request.url === '/api/v1/health') sendJson(response, status, health);
    else sendJson(response, 404, { detail: 'Not found.', code: 'not_found' });
  });
}

/** The URL of a local port that nothing listens on (it was free a moment ago). */
export async function closedPortUrl(): Promise<string> {
  const server = await startServer(() => {});
  await server.close();
  return server.url;
}
