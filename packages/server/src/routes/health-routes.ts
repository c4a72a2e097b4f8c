import type { FastifyInstance } from 'fastify';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  databaseFailureSummary,
} from '../db/database-unavailable.js';
import type { Storage } from '../storage/storage.js';

/** `GET /api/v1/health`: 200 when the database answers, 503 when it does not. */
export function healthRoutes(app: FastifyInstance, deps: { storage: Storage; version: string }): void {
  app.get('/api/v1/health', async (request, reply) => {
    const base = { database: deps.storage.kind, version: deps.version };
    try {
      await deps.storage.ping();
      return { status: 'ok', ...base };
    } catch (error) {
      // One line without a stack: while the database is down, every probe lands here.
      request.log.warn({ err: databaseFailureSummary(error) }, 'health check: database did not answer');
      return (
        reply
          .status(503)
          .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
          // `unavailable` is the code health checks have always answered; load balancers may match it.
          .send({ status: 'error', ...base, detail: DATABASE_UNAVAILABLE.detail, code: 'unavailable' })
      );
    }
  });
}
