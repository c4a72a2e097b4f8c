import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
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

/** What an error answers: its status, body and extra headers. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** The log lines {@link errorAnswer} writes. */
type ErrorLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * The answer an error gets, logged as the error handler logs it: known errors keep their status and say
 * what went wrong; anything else is logged with its stack and answered as a bare 500, so no answer leaks
 * internals. Also used for a failure told inside a streamed answer (the import's progress stream).
 */
export function errorAnswer(error: FastifyError, log: ErrorLog): ErrorAnswer {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      body: error.toBody(),
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  const outage = databaseOutage(error);
  if (outage) {
    // Expected while the database restarts, fails over or is saturated: one warning line, no stack.
    log.warn({ err: databaseFailureSummary(error) }, `database ${outage}`);
    const answer = databaseOutageError(outage);
    return { status: 503, body: answer.toBody(), ...(answer.headers ? { headers: answer.headers } : {}) };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const known = FASTIFY_CLIENT_ERRORS[error.code];
    const body: ErrorBody = known ?? {
      detail: error instanceof SyntaxError ? 'The body is not valid JSON.' : 'Bad request.',
      code: error instanceof SyntaxError ? 'invalid_json' : 'bad_request',
    };
    log.info({ err: { code: error.code, message: error.message } }, 'client error');
    return { status, body };
  }
  log.error({ err: error }, 'request failed');
  const body: ErrorBody =
    status === 503
      ? { detail: 'The service is temporarily unavailable. Please try again shortly.', code: 'unavailable' }
      : { detail: 'Internal server error.', code: 'internal_error' };
  return { status: status >= 500 && status < 600 ? status : 500, body };
}

/** One error handler for the whole app: every error answers {@link errorAnswer}. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = errorAnswer(error, request.log);
    if (answer.headers) reply.headers(answer.headers);
    return reply.status(answer.status).send(answer.body);
  });
}
