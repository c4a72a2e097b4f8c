import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import { foreignOrigin, secretInUrl, upgradeRequired } from '../http/socket-guards.js';
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
    handler: upgradeRequired,
    wsHandler: (socket, request) => {
      if (foreignOrigin(request, deps.config)) {
        socket.close(LIVE_SOCKET_CLOSE.originNotAllowed.code, LIVE_SOCKET_CLOSE.originNotAllowed.reason);
        return;
      }
      if (secretInUrl(request)) {
        socket.close(LIVE_SOCKET_CLOSE.tokenInUrl.code, LIVE_SOCKET_CLOSE.tokenInUrl.reason);
        return;
      }
      deps.live.handleConnection(socket, request.raw);
    },
  });
  app.addHook('onClose', async () => deps.live.close());
}
