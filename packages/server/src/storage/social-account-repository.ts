import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { socialAccounts } from '../db/schema.js';

/** A provider account linked to one of our users. */
export type SocialAccountRecord = typeof socialAccounts.$inferSelect;
export type NewSocialAccount = typeof socialAccounts.$inferInsert;

/** Links between provider accounts (provider + subject) and users. */
export class SocialAccountRepository {
  constructor(private readonly db: Db) {}

  async create(account: NewSocialAccount): Promise<SocialAccountRecord> {
    const [row] = await this.db.insert(socialAccounts).values(account).returning();
    if (!row) throw new Error('insert into social_accounts returned no row');
    return row;
  }

  async find(provider: string, subject: string): Promise<SocialAccountRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(socialAccounts)
      .where(and(eq(socialAccounts.provider, provider), eq(socialAccounts.subject, subject)));
    return row;
  }

  async listForUser(userId: string): Promise<SocialAccountRecord[]> {
    return this.db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId));
  }

  async markUsed(id: string, at: Date): Promise<void> {
    await this.db.update(socialAccounts).set({ lastLoginAt: at }).where(eq(socialAccounts.id, id));
  }
}
