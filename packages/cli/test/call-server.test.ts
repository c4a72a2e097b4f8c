import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerUnreachableError } from '../src/errors/cli-error.js';
import { callServer, REQUEST_TIMEOUT_MS } from '../src/server/call-server.js';

describe('callServer', () => {
  let silent: Server | undefined;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    vi.useRealTimers();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve) ?? resolve(undefined));
  });

  it('gives up on a server that never answers after REQUEST_TIMEOUT_MS, and says so', async () => {
    // Accepts connections and never answers.
    let connected = false;
    silent = createServer((socket) => {
      connected = true;
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
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
