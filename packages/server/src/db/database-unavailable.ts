import { HttpError } from '../http/http-error.js';

/** What a request answers while the database cannot be reached (503, house error shape). */
export const DATABASE_UNAVAILABLE = {
  code: 'database_unavailable',
  detail: 'The database is unavailable. Please try again shortly.',
} as const;

/** Seconds a client should wait before retrying, sent as `retry-after` with every such 503. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

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
  /timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /^Cannot use a pool after calling end/,
];

/**
 * Whether `error` (or any error in its `cause` chain, as drizzle wraps driver errors) means the
 * database could not be reached or cannot serve right now, so the request should be retried later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    const { code, severity } = current as { code?: unknown; severity?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    // A PANIC ended the embedded database's backend; it is reopened on a later request (DF3).
    if (severity === 'PANIC') return true;
    if (PG_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : '')))
      return true;
    current = current.cause;
  }
  return false;
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

/** The 503 a request answers while the database is unavailable. */
export function databaseUnavailableError(): HttpError {
  return new HttpError(503, DATABASE_UNAVAILABLE.code, DATABASE_UNAVAILABLE.detail, undefined, {
    'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
  });
}
