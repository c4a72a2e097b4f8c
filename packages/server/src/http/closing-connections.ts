import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How connections end when the app closes, so that `close()` waits for requests in flight and for nothing
 * else. Fastify's `forceCloseConnections: 'idle'` ends idle keep-alive sockets; two kinds would still hold
 * Node's `server.close()` open:
 *
 * - A keep-alive socket whose request finishes after closing began would idle on for `keepAliveTimeout`:
 *   such answers carry `connection: close`.
 * - A socket that never carried a byte (a browser's preconnect, an HTTP client's spare connection) is not
 *   "idle" to Node, which waits for its headers timeout (30–60 s) before dropping it, long past the
 *   shutdown timeout. It holds nothing, so it is closed at once.
 */
export function registerClosingConnections(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
