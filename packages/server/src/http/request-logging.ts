import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import pretty from 'pino-pretty';
import type { ServerConfig } from '../config/config.js';
import { redactUrl } from './log-redaction.js';

/** How log lines are written: one JSON object per line, or one short human-readable line. */
export type LogFormat = 'json' | 'pretty';

/**
 * The log format for a run: `LOG_FORMAT` when it names one, otherwise readable lines on a terminal and
 * JSON anywhere else (a pipe, a file, a log collector), which is what machines read.
 */
export function chooseLogFormat(stdoutIsTTY: boolean, logFormat: ServerConfig['logFormat']): LogFormat {
  if (logFormat !== 'auto') return logFormat;
  return stdoutIsTTY ? 'pretty' : 'json';
}

/** Fields the readable form leaves out: the request ones are in its message already, the rest are noise there. */
const PRETTY_IGNORED = 'pid,hostname,reqId,req,res,responseTime';

/**
 * Fastify's logger option for a level and format. The readable form is pino-pretty in this process,
 * synchronous, so the last line before an exit ("shutdown complete") is never lost.
 */
export function loggerOptions(
  level: ServerConfig['logLevel'],
  format: LogFormat,
): NonNullable<FastifyServerOptions['logger']> {
  if (format === 'json') return { level };
  return {
    level,
    stream: pretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: PRETTY_IGNORED }),
  };
}

/** Routes probed every few seconds by load balancers and monitors: their requests log at `debug`. */
const PROBE_ROUTES = new Set(['/api/v1/health']);

/** The path of a request URL, without its query string (which may carry a token or a key). */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** The one line a request logs: `GET /api/v1/documents 200 12 ms`. */
export function requestLine(method: string, path: string, statusCode: number, ms: number): string {
  return `${method} ${path} ${statusCode} ${Math.round(ms)} ms`;
}

/**
 * Fastify's request log lines, one per request: when its answer is sent, with method, path (never the
 * query), status and time, instead of Fastify's "incoming request", "request completed" and "Route … not
 * found". Health probes log at `debug`, everything else at `info` (`error` when the answer failed).
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // A WebSocket's request is taken over by the socket and never completes here: its line is logged now.
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const path = redactUrl(pathOf(request.url));
    request.log.info({ req: { method: request.method, url: path } }, `${request.method} ${path} (WebSocket)`);
  }

  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // No query; and an e-mailed link's key in the path is redacted too (docs/security.md).
    const path = redactUrl(pathOf(request.url));
    const ms = reply.elapsedTime;
    const fields = {
      req: { method: request.method, url: path },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(ms * 10) / 10,
    };
    const message = requestLine(request.method, path, reply.statusCode, ms);
    if (error) reply.log.error({ ...fields, err: error }, message);
    else if (PROBE_ROUTES.has(request.routeOptions.url ?? '')) reply.log.debug(fields, message);
    else reply.log.info(fields, message);
  }
}
