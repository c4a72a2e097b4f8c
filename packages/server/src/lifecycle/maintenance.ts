import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/storage.js';

const HOUR_MS = 60 * 60 * 1000;
/** Longest rate-limit window is 5 minutes; an hour's margin keeps every window whole. */
const RATE_LIMIT_RETENTION_MS = HOUR_MS;
/**
 * Expired keys are kept a week so a late click still hears "this link has expired or was already used"
 * ("already verified" needs the used key) instead of "invalid".
 */
const EXPIRED_KEY_RETENTION_MS = 7 * 24 * HOUR_MS;

export interface MaintenanceOptions {
  storage: Storage;
  sessions: { idleTimeoutMs: number; maxAgeMs: number };
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * One sweep of what expires: sessions past their idle or absolute timeout, personal access tokens past their
 * expiry, keys long expired, old
 * rate-limit events. Safe to run on several instances at once (plain deletes).
 */
export async function runMaintenance(
  options: MaintenanceOptions,
): Promise<{ sessions: number; keys: number; rateLimitEvents: number }> {
  const now = options.now().getTime();
  const removed = {
    sessions: await options.storage.sessions.prune(
      new Date(now - options.sessions.idleTimeoutMs),
      new Date(now - options.sessions.maxAgeMs),
      new Date(now),
    ),
    keys: await options.storage.accountKeys.prune(new Date(now - EXPIRED_KEY_RETENTION_MS)),
    rateLimitEvents: await options.storage.rateLimits.prune(new Date(now - RATE_LIMIT_RETENTION_MS)),
  };
  if (removed.sessions + removed.keys + removed.rateLimitEvents > 0)
    options.log.info({ removed }, 'maintenance sweep');
  return removed;
}

/** Runs the sweep every `intervalMs` (timer unref'd); returns a stop function. */
export function scheduleMaintenance(
  options: MaintenanceOptions & {
    intervalMs?: number;
    setInterval?: typeof setInterval;
    clearInterval?: typeof clearInterval;
  },
): () => void {
  const every = options.setInterval ?? setInterval;
  const stop = options.clearInterval ?? clearInterval;
  const timer = every(
    () => {
      runMaintenance(options).catch((error: unknown) =>
        options.log.warn({ err: error }, 'maintenance sweep failed'),
      );
    },
    options.intervalMs ?? 10 * 60 * 1000,
  );
  timer.unref?.();
  return () => stop(timer);
}
