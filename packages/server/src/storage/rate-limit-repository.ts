import { and, count, eq, gt, lte, min, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rateLimitEvents } from '../db/schema.js';

/** A limit: at most `limit` events per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** What a rate-limit check decided. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Sliding-window rate limits kept in the database, so every instance counts the same events.
 * Each bucket is serialised with a transaction-scoped advisory lock, so concurrent requests cannot
 * both slip under the limit.
 */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Counts an event in `bucket` unless the limit is reached; old events are pruned on the way. */
  async hit(bucket: string, rule: RateLimit, now: Date): Promise<RateLimitDecision> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${bucket}))`);
      const since = new Date(now.getTime() - rule.windowMs);
      await tx
        .delete(rateLimitEvents)
        .where(and(eq(rateLimitEvents.bucket, bucket), lte(rateLimitEvents.at, since)));
      // One aggregate row, not the window's rows: a generous limit (AI calls) can hold thousands of events.
      const [window] = await tx
        .select({ n: count(), oldest: min(rateLimitEvents.at) })
        .from(rateLimitEvents)
        .where(and(eq(rateLimitEvents.bucket, bucket), gt(rateLimitEvents.at, since)));
      if ((window?.n ?? 0) >= rule.limit) {
        const oldest = window?.oldest ?? now;
        const retryAfterMs = oldest.getTime() + rule.windowMs - now.getTime();
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
      }
      await tx.insert(rateLimitEvents).values({ bucket, at: now });
      return { allowed: true };
    });
  }

  /** How many events `bucket` has in the window, without counting one. */
  async count(bucket: string, windowMs: number, now: Date): Promise<number> {
    const since = new Date(now.getTime() - windowMs);
    const [row] = await this.db
      .select({ n: count() })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, bucket), gt(rateLimitEvents.at, since)));
    return row?.n ?? 0;
  }

  /** Records an event without checking a limit (failed logins are counted, then checked next time). */
  async record(bucket: string, now: Date): Promise<void> {
    await this.db.insert(rateLimitEvents).values({ bucket, at: now });
  }

  /** Deletes every event older than `before`, in every bucket. Returns how many went. */
  async prune(before: Date): Promise<number> {
    const rows = await this.db
      .delete(rateLimitEvents)
      .where(lte(rateLimitEvents.at, before))
      .returning({ id: rateLimitEvents.id });
    return rows.length;
  }

  /** Forgets a bucket (a successful login clears its failed attempts). */
  async clear(bucket: string): Promise<void> {
    await this.db.delete(rateLimitEvents).where(eq(rateLimitEvents.bucket, bucket));
  }
}
