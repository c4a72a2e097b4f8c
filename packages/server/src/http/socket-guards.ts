import type { FastifyReply, FastifyRequest } from 'fastify';
import { allowedOrigins } from '../auth/request-credentials.js';
import type { ServerConfig } from '../config/config.js';
import { isSecretParameter } from './log-redaction.js';

/** A socket route's answer to a plain HTTP request (a client that did not upgrade), in the house shape. */
export async function upgradeRequired(_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return reply
    .status(426)
    .header('upgrade', 'websocket')
    .send({ detail: 'This address takes WebSocket connections only.', code: 'upgrade_required' });
}

/** Whether a browser's upgrade comes from another site (no Origin: not a browser, judged by its session). */
export function foreignOrigin(request: FastifyRequest, config: ServerConfig): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && !allowedOrigins(request, config).has(origin);
}

/** Whether the socket URL carries a token or key: refused, not ignored, since every proxy logs URLs. */
export function secretInUrl(request: FastifyRequest): boolean {
  return Object.keys(request.query as Record<string, unknown>).some(isSecretParameter);
}
