import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerUnreachableError } from '../src/errors/cli-error.js';
import { callServer, REQUEST_TIMEOUT_MS } from '../src/server/call-server.js';

/** A TCP server that does `onConnection` with every connection instead of answering HTTP. */
async function startRawServer(
  onConnection: (socket: Socket) => void,
): Promise<{ url: string; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening on TCP');
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  return { url: `http://127.0.0.1:${address.port}`, server };
}

describe('callServer', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('gives up on a server that never answers after REQUEST_TIMEOUT_MS, and says so', async () => {
    const { url, server } = await startRawServer(() => {});
    servers.push(server);
    let connected = false;
    server.on('connection', () => {
      connected = true;
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const failure = callServer(url, (client) => client.documents.list()).catch((error: unknown) => error);
    void failure.finally(() => {
      settled = true;
    });
    // Real I/O until the request is on the wire (vi.waitFor would move the injected clock).
    while (!connected) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failure;
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect((error as ServerUnreachableError).message).toBe(
      `cannot reach the Planwright server at ${url} (no answer within 15 s)`,
    );
  });
});
