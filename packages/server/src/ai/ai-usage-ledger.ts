import { HttpError } from '../http/http-error.js';
import type { Storage } from '../storage/storage.js';
import type { AiCallKind, AiUsageLedger } from './ai-runtime.js';

/** The text a user sees when over the per-minute limit of AI calls. */
export const AI_RATE_LIMITED = 'Too many AI requests. Please wait a minute and try again.';

/**
 * The database-backed ledger: the per-user limit counts rows in the shared rate-limit table (every
 * instance sees the same count); usage rows are written per call.
 */
export function createAiUsageLedger(deps: {
  storage: Storage;
  callsPerMinute: number;
  now: () => Date;
}): AiUsageLedger {
  const { storage, now } = deps;
  return {
    async begin(userId: string, _kind: AiCallKind) {
      const decision = await storage.rateLimits.hit(
        `ai:${userId}`,
        { limit: deps.callsPerMinute, windowMs: 60_000 },
        now(),
      );
      if (!decision.allowed) {
        throw new HttpError(429, 'ai_rate_limited', AI_RATE_LIMITED, undefined, {
          'retry-after': String(decision.retryAfterSeconds),
        });
      }
    },
    async record(entry, within = storage) {
      await within.aiUsage.record({
        userId: entry.userId,
        documentId: entry.documentId,
        kind: entry.kind,
        provider: entry.provider.name,
        model: entry.provider.model,
        inputTokens: entry.usage.inputTokens,
        outputTokens: entry.usage.outputTokens,
        createdAt: now(),
      });
    },
  };
}
