import type { AiConfig } from '../config/config.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { AiProvider, ProviderInfo, TokenUsage } from './providers/ai-provider.js';

/** What an AI call is for, as usage records it. */
export type AiCallKind = 'chat' | 'transform';

/**
 * Usage and limits of AI calls, shared by every instance (rows in the database): a per-user rate limit
 * checked before a call starts, and token usage recorded per user and per document after it.
 */
export interface AiUsageLedger {
  /** Counts one call against the user's per-minute limit; throws HttpError 429 `ai_rate_limited` when over. */
  begin(userId: string, kind: AiCallKind): Promise<void>;
  /**
   * Records what one call used (also for failed or cancelled calls, with what is known); inside `within`'s
   * transaction when given.
   */
  record(
    entry: {
      userId: string;
      documentId: string | null;
      kind: AiCallKind;
      provider: ProviderInfo;
      usage: TokenUsage;
    },
    within?: Pick<TransactionalStorage, 'aiUsage'>,
  ): Promise<void>;
}

/** The AI parts the routes use. */
export interface AiRuntime {
  config: AiConfig;
  provider: AiProvider;
  usage: AiUsageLedger;
}
