import type { ChatClock, ChatCloseEvent, ChatSocket, ChatSocketFactory } from '../chat-transport.js';

/** The server end of an in-memory socket. Everything is delivered synchronously, in order. */
export class FakeServerSocket {
  /** Frames the client sent, as text. */
  readonly received: string[] = [];
  /** Whether the connection is open (after `accept()`, before a close). */
  isOpen = false;
  /** Whether it was ever opened. */
  wasOpened = false;
  /** The close code once closed, from either side. */
  closeCode: number | null = null;
  /** Called on each client frame. */
  onFrame: ((text: string) => void) | null = null;
  /** Set to make the client's `send` throw (a broken transport). */
  failSends = false;
  /** Answers each `ping` with a `pong`, as the real server does (C46); `false` simulates a stalled connection. */
  answerPings = true;

  constructor(
    readonly url: string,
    private readonly client: InMemoryClientSocket,
  ) {}

  /** Completes the handshake: the client's `onopen` runs. */
  accept(): void {
    if (this.closeCode !== null || this.isOpen) return;
    this.isOpen = true;
    this.wasOpened = true;
    this.client.onopen?.({});
  }

  /** Sends a frame to the client (objects are JSON-encoded). */
  send(frame: unknown): void {
    if (!this.isOpen) return;
    this.client.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }

  /** Closes from the server with `code` (1006 simulates a dropped connection). */
  close(code = 1000, reason = ''): void {
    if (this.closeCode !== null) return;
    this.isOpen = false;
    this.closeCode = code;
    this.client.onclose?.({ code, reason });
  }

  /** The connection drops (code 1006). */
  drop(): void {
    this.client.onerror?.({});
    this.close(1006, '');
  }

  /** @internal */
  deliver(text: string): void {
    if (this.failSends) throw new Error('send failed');
    if (!this.isOpen) throw new Error('socket is not open');
    this.received.push(text);
    this.onFrame?.(text);
    if (this.answerPings && text.startsWith('{"type":"ping"')) this.send({ type: 'pong' });
  }
}

/** The client end: a WebSocket-like object for `ChatSession`. */
export class InMemoryClientSocket implements ChatSocket {
  /** Set by the session: runs once the server end accepts. */
  onopen: ((event: unknown) => void) | null = null;
  /** Set by the session: runs for each frame the server end sends. */
  onmessage: ((event: { data: unknown }) => void) | null = null;
  /** Set by the session: runs once either end closes. */
  onclose: ((event: ChatCloseEvent) => void) | null = null;
  /** Set by the session: runs when the connection drops. */
  onerror: ((event: unknown) => void) | null = null;
  /** The server end of this socket. */
  server!: FakeServerSocket;
  /** When `true`, a client `close()` waits for `server.close()` before `onclose` runs (a slow close handshake). */
  manualCloseAck = false;

  /** Hands `data` to the server end at once. */
  send(data: string): void {
    this.server.deliver(data);
  }

  /** Closes both ends (or only marks the server end closed, with {@link InMemoryClientSocket.manualCloseAck}). */
  close(code = 1000, reason = ''): void {
    if (this.server.closeCode !== null) return;
    if (this.manualCloseAck) {
      this.server.isOpen = false;
      return;
    }
    this.server.close(code, reason);
  }
}

/** An in-memory client/server socket pair. */
export function createSocketPair(url = 'ws://test/'): {
  client: InMemoryClientSocket;
  server: FakeServerSocket;
} {
  const client = new InMemoryClientSocket();
  const server = new FakeServerSocket(url, client);
  client.server = server;
  return { client, server };
}

/** Options of {@link FakeChatServer}. */
export interface FakeChatServerOptions {
  /** With a clock, new connections open `acceptDelayMs` later on it; without, call `accept()` yourself. */
  clock?: ChatClock;
  /** Default 0. */
  acceptDelayMs?: number;
  /** Make client closes wait for an explicit `server.close()` (a slow close handshake). */
  manualCloseAck?: boolean;
}

/**
 * A scripted chat server for tests and integrators: `factory` opens in-memory sockets, each kept in
 * `connections`; `onConnection` sees each one as it is created.
 */
export class FakeChatServer {
  readonly connections: FakeServerSocket[] = [];
  /** Called for each new connection, before it opens. */
  onConnection: ((socket: FakeServerSocket) => void) | null = null;

  constructor(private readonly options: FakeChatServerOptions = {}) {}

  readonly factory: ChatSocketFactory = (url) => {
    const { client, server } = createSocketPair(url);
    client.manualCloseAck = this.options.manualCloseAck ?? false;
    this.connections.push(server);
    this.onConnection?.(server);
    // The handshake completes after `factory` returns, like a real socket's.
    this.options.clock?.setTimeout(() => server.accept(), this.options.acceptDelayMs ?? 0);
    return client;
  };

  /** The newest connection. */
  get last(): FakeServerSocket {
    const socket = this.connections[this.connections.length - 1];
    if (!socket) throw new Error('no connection yet');
    return socket;
  }

  /** Every frame the client sent over every connection, parsed, of one type. */
  framesOfType(type: string): Record<string, unknown>[] {
    return this.connections
      .flatMap((c) => c.received)
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .filter((frame) => frame.type === type);
  }
}
