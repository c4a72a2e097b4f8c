import type { FastifyInstance } from 'fastify';
import type { Storage } from '../storage/storage.js';

/** `GET /api/v1/health`: 200 when the database answers, 503 when it does not. */
export function healthRoutes(app: FastifyInstance, deps: { storage: Storage; version: string }): void {
  app.get('/api/v1/health', async (request, reply) => {
    const base = { database: deps.storage.kind, version: deps.version };
    try {
      await deps.storage.ping();
      return { status: 'ok', ...base };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database did not answer');
      return reply
        .status(503)
        .send({ status: 'error', ...base, detail: 'The database is not answering.', code: 'unavailable' });
    }
  });
}
