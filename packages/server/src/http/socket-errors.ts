import type { WebSocket } from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';

// `ws` names what a client got wrong (WS_ERR_INVALID_UTF8, WS_ERR_UNSUPPORTED_MESSAGE_LENGTH, a bad
// opcode or close code…); a peer that vanished mid-frame is ECONNRESET or EPIPE.
const CLIENT_FAULT = /^(WS_ERR_|ECONNRESET$|EPIPE$|ECONNABORTED$)/;

/** Whether a socket error was the client's doing (a protocol violation or a dropped connection). */
export function isClientSocketError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_FAULT.test(code);
}

/**
 * `@fastify/websocket`'s error handler: a client's protocol error is one `warn` line with its code and
 * message, no stack (it is not our bug, and a hostile client must not fill the log with stacks);
 * anything else is logged as an error. Either way the socket is dropped.
 */
export function handleSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  if (isClientSocketError(error)) {
    request.log.warn(
      { err: { code: (error as { code?: string }).code, message: error.message } },
      'websocket client error',
    );
  } else {
    request.log.error({ err: error }, 'websocket failed');
  }
  socket.terminate();
}
