import WebSocket from 'ws';

/** A frame as the server sent it. */
export type Frame = Record<string, unknown> & { type: string };

/** A raw chat socket for protocol tests: every frame is kept; `next` waits for one that matches. */
export interface TestChatSocket {
  ws: WebSocket;
  frames: Frame[];
  send(frame: Record<string, unknown>): void;
  sendRaw(data: string | Buffer): void;
  /** The first frame (at or after `from`) that matches; waits for it. */
  next(match: (frame: Frame) => boolean, from?: number): Promise<Frame>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Where a test socket connects, and the token its first frame authenticates with (never in the URL). */
export interface ChatTarget {
  url: string;
  token?: string;
}

/**
 * Opens a socket to `target`; with a token, its first frame is `{ type: 'authenticate', token }`, as the
 * SDK's is. A bare string URL is opened as it is (tests of refused URLs).
 */
export function openChatSocket(
  target: string | ChatTarget,
  headers: Record<string, string> = {},
): Promise<TestChatSocket> {
  const { url, token } = typeof target === 'string' ? { url: target, token: undefined } : target;
  const ws = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  const socket: TestChatSocket = {
    ws,
    frames,
    closed,
    send: (frame) => ws.send(JSON.stringify(frame)),
    sendRaw: (data) => ws.send(data),
    close: () => ws.close(1000),
    async next(match, from = 0) {
      for (;;) {
        const found = frames.slice(from).find(match);
        if (found) return found;
        if (ws.readyState === WebSocket.CLOSED)
          throw new Error(`socket closed; frames: ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      if (token !== undefined) socket.send({ type: 'authenticate', token });
      resolve(socket);
    });
    ws.once('error', reject);
    // A socket the server closes right away still opens first; `closed` tells the code.
  });
}

/** The chat socket URL of a listening app, and the token to authenticate with (sent as the first frame). */
export function chatUrl(
  base: string,
  path: { documentId: string; sectionUuid?: string; subsectionUuid?: string; chatId?: string },
  token?: string,
): ChatTarget {
  const url = new URL(base.replace(/^http/, 'ws'));
  let p = `/ws/document/${path.documentId}`;
  if (path.sectionUuid) p += `/section/${path.sectionUuid}`;
  if (path.subsectionUuid) p += `/subsection/${path.subsectionUuid}`;
  p += '/chat/';
  if (path.chatId) p += `${path.chatId}/`;
  url.pathname = p;
  return { url: url.toString(), token };
}
