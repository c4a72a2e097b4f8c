import { eq, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { DATABASE_CHANNELS } from '../db/database-events.js';
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
    const rows = await this.db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
    await this.announceEnded(rows);
  }

  /** Deletes sessions idle since `idleBefore` or created before `createdBefore`. Returns how many went. */
  async prune(idleBefore: Date, createdBefore: Date): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(or(lte(sessions.lastSeenAt, idleBefore), lte(sessions.createdAt, createdBefore)))
      .returning({ id: sessions.id });
    await this.announceEnded(rows);
    return rows.length;
  }

  /** Ends every session of a user (after a password reset). */
  async deleteForUser(userId: string): Promise<void> {
    const rows = await this.db
      .delete(sessions)
      .where(eq(sessions.userId, userId))
      .returning({ id: sessions.id });
    await this.announceEnded(rows);
  }

  /**
   * Tells every instance which sessions ended, so chat sockets opened with them close. Sent on the same
   * connection as the delete: inside a transaction it is heard only if that transaction commits.
   */
  private async announceEnded(rows: readonly { id: string }[]): Promise<void> {
    // NOTIFY payloads stop at 8,000 bytes: 100 uuids in JSON are about 3,900.
    for (let start = 0; start < rows.length; start += 100) {
      const ids = JSON.stringify(rows.slice(start, start + 100).map((row) => row.id));
      await this.db.execute(sql`select pg_notify(${DATABASE_CHANNELS.sessionsEnded}, ${ids})`);
    }
  }
}
