import type { FastifyReply } from 'fastify';

/**
 * Sends `body`, an answer already serialised to JSON (text or its UTF-8 bytes), as it is: Fastify
 * passes a string or a buffer with a JSON content type on untouched, where it would serialise an object.
 */
export function sendJson(reply: FastifyReply, body: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
