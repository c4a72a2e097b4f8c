import fastifyWebsocket from '@fastify/websocket';
import { CHAT_LIMITS } from '@planwright/sdk';
import type { FastifyInstance } from 'fastify';
import { ChatConnection } from '../ai/chat/chat-connection.js';
import { CHAT_CLOSE } from '../ai/chat/chat-frames.js';
import { LiveChatTurns } from '../ai/chat/chat-live-turns.js';
import { ChatSocketPlaces } from '../ai/chat/chat-socket-places.js';
import type { ChatDeps } from '../ai/chat/chat-turn.js';
import { endedSessionIds } from '../auth/ended-sessions.js';
import { SESSION_COOKIE } from '../auth/request-credentials.js';
import type { SessionService } from '../auth/session-service.js';
import { DATABASE_CHANNELS } from '../db/database-events.js';
import { handleSocketError } from '../http/socket-errors.js';
import { foreignOrigin, secretInUrl, upgradeRequired } from '../http/socket-guards.js';
import { uuidParam } from '../http/uuid-param.js';
import { parseLivePlanChange } from '../storage/live-state-repository.js';

/**
 * The largest frame a client may send: a message of 20,000 characters and three attachments of 100,000
 * (CH13), with room for JSON escapes and multi-byte characters.
 */
const MAX_FRAME_BYTES = CHAT_LIMITS.frameBytes;

const CHAT_PATH = /^([^/]+)(?:\/section\/([^/]+))?(?:\/subsection\/([^/]+))?\/chat(?:\/([^/]+))?\/?$/;

/** The ids of a chat path, or null when it is not one (or names something that is not a uuid). */
export function parseChatPath(path: string): {
  documentId: string;
  sectionUuid: string | null;
  subsectionUuid: string | null;
  chatId: string | null;
} | null {
  const match = CHAT_PATH.exec(path);
  if (!match) return null;
  const [, documentPart, sectionPart, subsectionPart, chatPart] = match;
  const documentId = uuidParam(documentPart);
  const sectionUuid = sectionPart === undefined ? null : uuidParam(sectionPart);
  const subsectionUuid = subsectionPart === undefined ? null : uuidParam(subsectionPart);
  const chatId = chatPart === undefined ? null : uuidParam(chatPart);
  if (!documentId || sectionUuid === undefined || subsectionUuid === undefined || chatId === undefined)
    return null;
  return { documentId, sectionUuid, subsectionUuid, chatId };
}

/**
 * `/ws/document/{doc}[/section/{s}][/subsection/{ss}]/chat[/{chatId}]/` (spec 001 §7). The client
 * authenticates with its first frame, `{ type: 'authenticate', token }`; a browser of the allauth `browser`
 * client may instead rely on its session cookie (the Origin check above it stops other sites). The socket is
 * always accepted, then closed with a reason the client can show: 4400 for a token in the URL (spec 001 §7
 * puts it there, but a URL is logged by every proxy: docs/security.md), 4401 without a valid session, 4403
 * for a document that is not the user's or a foreign Origin, 4404 for a path naming nothing, 4429 for a user
 * who already holds CHAT_SOCKETS_PER_USER sockets on this instance.
 */
export async function chatSocketRoutes(
  app: FastifyInstance,
  deps: ChatDeps & { sessions: SessionService },
): Promise<void> {
  const connections = new Set<ChatConnection>();
  const places = new ChatSocketPlaces(deps.config.chatSocketsPerUser);
  // The answers streaming on this instance: a socket that reconnects to one gets the rest of it (CH18).
  const liveTurns = new LiveChatTurns();
  // A sign-out on any instance closes this instance's sockets of that session (LISTEN/NOTIFY).
  const stopListening = deps.storage.events.listen(DATABASE_CHANNELS.sessionsEnded, (payload) => {
    const ids = payload === null ? null : endedSessionIds(payload);
    for (const connection of connections) connection.sessionsEnded(ids);
  });
  // Sharing changed on any instance: the sockets on that document check they may still chat.
  const stopAccess = deps.storage.events.listen(DATABASE_CHANNELS.livePlanChanged, (payload) => {
    const change = payload === null ? null : parseLivePlanChange(payload);
    if (payload !== null && (change?.kind !== 'document' || change.why === 'comments')) return;
    for (const connection of connections) connection.accessChanged(change?.id ?? null);
  });
  await deps.storage.events.listening();
  app.addHook('onClose', async () => {
    stopListening();
    stopAccess();
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    errorHandler: handleSocketError,
    // Closing lets answers in flight finish and be stored (bounded by the shutdown timeout).
    preClose: async () => {
      await Promise.allSettled([...connections].map((connection) => connection.settled()));
      for (const client of app.websocketServer.clients)
        client.close(CHAT_CLOSE.shuttingDown.code, CHAT_CLOSE.shuttingDown.reason);
    },
  });

  app.route({
    method: 'GET',
    url: '/ws/document/*',
    // A plain HTTP request here is a client that did not upgrade: say so in the house error shape.
    handler: upgradeRequired,
    wsHandler: (socket, request) => {
      if (foreignOrigin(request, deps.config)) {
        socket.close(CHAT_CLOSE.originNotAllowed.code, CHAT_CLOSE.originNotAllowed.reason);
        return;
      }
      const ids = parseChatPath((request.params as Record<string, string>)['*'] ?? '');
      if (!ids) {
        socket.close(CHAT_CLOSE.notFound.code, CHAT_CLOSE.notFound.reason);
        return;
      }
      // Refused, not ignored: a client still sending it would leak it on every connect.
      if (secretInUrl(request)) {
        socket.close(CHAT_CLOSE.tokenInUrl.code, CHAT_CLOSE.tokenInUrl.reason);
        return;
      }
      const cookie = request.cookies[SESSION_COOKIE];
      const userAgent = request.headers['user-agent'];
      const connection = new ChatConnection({
        deps,
        socket,
        ids,
        cookieToken: cookie !== undefined && cookie !== '' ? cookie : undefined,
        ip: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : '',
        places,
        liveTurns,
      });
      connections.add(connection);
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          socket.send(
            JSON.stringify({ type: 'error', code: 'invalid_frame', detail: 'Frames must be text.' }),
          );
          return;
        }
        connection.receive(data.toString());
      });
      socket.on('close', () => {
        connection.onClose();
        void connection.settled().finally(() => connections.delete(connection));
      });
      connection.start();
    },
  });
}
