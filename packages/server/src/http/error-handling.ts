import type { FastifyError, FastifyInstance } from 'fastify';
import { databaseFailureSummary, databaseOutage, databaseOutageError } from '../db/database-unavailable.js';
import { type ErrorBody, HttpError } from './http-error.js';

// Fastify's own client errors, told in words a user can act on.
const FASTIFY_CLIENT_ERRORS: Record<string, { code: string; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', detail: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', detail: 'Unsupported content type.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid', detail: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', detail: 'The body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid', detail: 'Content-Length does not match the body.' },
};

/**
 * One error handler for the whole app: known errors keep their status and say what went wrong;
 * anything else is logged with its stack and answered as a bare 500, so no answer leaks internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(error.toBody());
    }
    const outage = databaseOutage(error);
    if (outage) {
      // Expected while the database restarts, fails over or is saturated: one warning line, no stack.
      request.log.warn({ err: databaseFailureSummary(error) }, `database ${outage}`);
      const answer = databaseOutageError(outage);
      if (answer.headers) reply.headers(answer.headers);
      return reply.status(503).send(answer.toBody());
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known = FASTIFY_CLIENT_ERRORS[error.code];
      const body: ErrorBody = known ?? {
        detail: error instanceof SyntaxError ? 'The body is not valid JSON.' : 'Bad request.',
        code: error instanceof SyntaxError ? 'invalid_json' : 'bad_request',
      };
      request.log.info({ err: { code: error.code, message: error.message } }, 'client error');
      return reply.status(status).send(body);
    }
    request.log.error({ err: error }, 'request failed');
    const body: ErrorBody =
      status === 503
        ? { detail: 'The service is temporarily unavailable. Please try again shortly.', code: 'unavailable' }
        : { detail: 'Internal server error.', code: 'internal_error' };
    return reply.status(status >= 500 && status < 600 ? status : 500).send(body);
  });
}
