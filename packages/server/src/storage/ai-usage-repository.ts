import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { aiUsage } from '../db/schema.js';

export type AiUsageRecord = typeof aiUsage.$inferSelect;
export type NewAiUsage = Omit<typeof aiUsage.$inferInsert, 'id'>;

/** Totals of recorded AI calls. */
export interface AiUsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** Token usage of AI calls, per user and per document. */
export class AiUsageRepository {
  constructor(private readonly db: Db) {}

  async record(entry: NewAiUsage): Promise<void> {
    await this.db.insert(aiUsage).values(entry);
  }

  /** A user's totals since `since` (all time without it), optionally for one document. */
  async totals(query: { userId: string; documentId?: string; since?: Date }): Promise<AiUsageTotals> {
    const conditions = [eq(aiUsage.userId, query.userId)];
    if (query.documentId) conditions.push(eq(aiUsage.documentId, query.documentId));
    if (query.since) conditions.push(gte(aiUsage.createdAt, query.since));
    const [row] = await this.db
      .select({
        calls: sql<number>`count(*)::int`,
        inputTokens: sql<number>`coalesce(sum(${aiUsage.inputTokens}), 0)::int`,
        outputTokens: sql<number>`coalesce(sum(${aiUsage.outputTokens}), 0)::int`,
      })
      .from(aiUsage)
      .where(and(...conditions));
    return row ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
  }
}
