import type { FastifyInstance } from 'fastify';
import { allowedOrigins } from '../auth/request-credentials.js';
import type { ServerConfig } from '../config/config.js';
import { isSecretParameter } from '../http/log-redaction.js';
import type { LiveDocuments } from '../live/live-documents.js';

/** Why the route closes a sync socket before the protocol starts (the chat socket's codes). */
const LIVE_SOCKET_CLOSE = {
  originNotAllowed: { code: 4403, reason: 'This origin may not open the socket.' },
  tokenInUrl: { code: 4400, reason: 'Send the session token in the protocol, not in the URL.' },
} as const;

/**
 * `/ws/collab/`: the Yjs sync socket of live plans (Hocuspocus's protocol; docs/editor.md "Live plans").
 * One socket carries any number of plans, each authenticated inside the protocol with the session token
 * (or a browser's session cookie). Needs the WebSocket plugin, which the chat socket's routes register.
 */
export function liveSocketRoutes(
  app: FastifyInstance,
  deps: { live: LiveDocuments; config: ServerConfig },
): void {
  app.route({
    method: 'GET',
    url: '/ws/collab/',
    handler: async (_request, reply) =>
      reply
        .status(426)
        .header('upgrade', 'websocket')
        .send({ detail: 'This address takes WebSocket connections only.', code: 'upgrade_required' }),
    wsHandler: (socket, request) => {
      const origin = request.headers.origin;
      if (origin !== undefined && !allowedOrigins(request, deps.config).has(origin)) {
        socket.close(LIVE_SOCKET_CLOSE.originNotAllowed.code, LIVE_SOCKET_CLOSE.originNotAllowed.reason);
        return;
      }
      if (Object.keys(request.query as Record<string, unknown>).some(isSecretParameter)) {
        socket.close(LIVE_SOCKET_CLOSE.tokenInUrl.code, LIVE_SOCKET_CLOSE.tokenInUrl.reason);
        return;
      }
      deps.live.handleConnection(socket, request.raw);
    },
  });
  app.addHook('onClose', async () => deps.live.close());
}
