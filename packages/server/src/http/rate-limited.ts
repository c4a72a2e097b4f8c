import type { FastifyReply } from 'fastify';
import type { RateLimit } from '../storage/rate-limit-repository.js';
import type { Storage } from '../storage/storage.js';

/**
 * Counts a call against each `[bucket, rule]`; the first over its limit answers `429 {code: "rate_limited",
 * detail}` with `Retry-After`, and the call stops there. Answers whether the call may go on.
 */
export async function withinRateLimits(
  storage: Pick<Storage, 'rateLimits'>,
  reply: FastifyReply,
  limits: ReadonlyArray<readonly [bucket: string, rule: RateLimit]>,
  at: Date,
  detail: string,
): Promise<boolean> {
  for (const [bucket, rule] of limits) {
    const decision = await storage.rateLimits.hit(bucket, rule, at);
    if (!decision.allowed) {
      await reply
        .status(429)
        .header('retry-after', String(decision.retryAfterSeconds))
        .send({ detail, code: 'rate_limited' });
      return false;
    }
  }
  return true;
}
