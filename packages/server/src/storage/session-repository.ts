import { eq, lte, or } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { sessions, users } from '../db/schema.js';
import type { UserRecord } from './user-repository.js';

/** A stored session. */
export type SessionRecord = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;

/** Sessions of both allauth clients, found by the hash of their token. */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(session: NewSession): Promise<SessionRecord> {
    const [row] = await this.db.insert(sessions).values(session).returning();
    if (!row) throw new Error('insert into sessions returned no row');
    return row;
  }

  async findByTokenHash(tokenHash: string): Promise<SessionRecord | undefined> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    return row;
  }

  /** The session with its user (when it has one) in one query: every signed-in request needs both. */
  async findWithUserByTokenHash(
    tokenHash: string,
  ): Promise<{ session: SessionRecord; user: UserRecord | undefined } | undefined> {
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .leftJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash));
    return row ? { session: row.session, user: row.user ?? undefined } : undefined;
  }

  async update(
    id: string,
    patch: Partial<Omit<SessionRecord, 'id' | 'createdAt' | 'client'>>,
  ): Promise<SessionRecord | undefined> {
    const [row] = await this.db.update(sessions).set(patch).where(eq(sessions.id, id)).returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  /** Deletes sessions idle since `idleBefore` or created before `createdBefore`. Returns how many went. */
  async prune(idleBefore: Date, createdBefore: Date): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(or(lte(sessions.lastSeenAt, idleBefore), lte(sessions.createdAt, createdBefore)))
      .returning({ id: sessions.id });
    return rows.length;
  }

  /** Ends every session of a user (after a password reset). */
  async deleteForUser(userId: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.userId, userId));
  }
}
