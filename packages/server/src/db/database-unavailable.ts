import { HttpError } from '../http/http-error.js';

/** What a request answers while the database cannot be reached (503, house error shape). */
export const DATABASE_UNAVAILABLE = {
  code: 'database_unavailable',
  detail: 'The database is unavailable. Please try again shortly.',
} as const;

/** Seconds a client should wait before retrying, sent as `retry-after` with every such 503. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** What a request answers when every database connection stayed busy for its whole wait (503). */
export const DATABASE_BUSY = {
  code: 'database_busy',
  detail: 'The server is busy. Please try again shortly.',
} as const;

/** A busy pool frees up sooner than a lost database comes back. */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 2;

/** Why the database cannot serve a request now: too busy, or not there. */
export type DatabaseOutage = 'busy' | 'unavailable';

// Socket-level failures reaching the server (node's errno codes).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
// SQLSTATEs that say "the server cannot serve now", not "this query is wrong": class 08 (connection
// exception), 53 (insufficient resources: disk full, out of memory, too many connections) and 57P0x
// (the server is shutting down, crashed or still starting).
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0[1-4])$/;
// node-postgres reports a lost or timed-out connection in its message only.
const PG_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error/,
  /^Cannot use a pool after calling end/,
];
// Busy, not gone: pg-pool's wait for a free connection ran out while every one stayed checked out, or the
// server has no connection slot left (53300 too_many_connections).
const PG_POOL_WAIT_TIMEOUT = /^timeout exceeded when trying to connect/;
const BUSY_SQLSTATE = '53300';

/**
 * Whether `error` (or any error in its `cause` chain, as drizzle wraps driver errors) means the database
 * cannot serve right now, so the request should be retried later: `busy` when its connections are all in
 * use, `unavailable` when it could not be reached; undefined for any other error (a bug stays a bug).
 */
export function databaseOutage(error: unknown): DatabaseOutage | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    const { code, severity } = current as { code?: unknown; severity?: unknown };
    if (code === BUSY_SQLSTATE || PG_POOL_WAIT_TIMEOUT.test(current.message)) return 'busy';
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)))
      return 'unavailable';
    // A PANIC ended the embedded database's backend; it is reopened on a later request (DF3).
    if (severity === 'PANIC') return 'unavailable';
    if (PG_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : '')))
      return 'unavailable';
    current = current.cause;
  }
  return undefined;
}

/**
 * The driver's own words for a database failure (the innermost cause), for one log line: drizzle's
 * outer message repeats the query and its parameters, which may hold token hashes.
 */
export function databaseFailureSummary(error: unknown): { code?: string; message: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error && current.cause instanceof Error; depth += 1)
    current = current.cause;
  const code = (current as { code?: unknown } | null)?.code;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    message: current instanceof Error ? current.message : String(current),
  };
}

/** The words for each kind of outage: an answer's body, a chat's system message. */
export function databaseOutageWords(kind: DatabaseOutage): { code: string; detail: string } {
  return kind === 'busy' ? DATABASE_BUSY : DATABASE_UNAVAILABLE;
}

/** The 503 a request answers while the database is busy or unavailable. */
export function databaseOutageError(kind: DatabaseOutage): HttpError {
  const { code, detail } = databaseOutageWords(kind);
  const retryAfter = kind === 'busy' ? DATABASE_BUSY_RETRY_AFTER_SECONDS : DATABASE_RETRY_AFTER_SECONDS;
  return new HttpError(503, code, detail, undefined, { 'retry-after': String(retryAfter) });
}
