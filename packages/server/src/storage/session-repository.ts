import { and, asc, eq, inArray, lte, ne, or, sql } from 'drizzle-orm';
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

  /**
   * Deletes sign-ins idle since `idleBefore` or created before `createdBefore`, and personal access tokens past
   * their expiry (at `now`). Returns how many went.
   */
  async prune(idleBefore: Date, createdBefore: Date, now: Date): Promise<number> {
    const signIn = ne(sessions.client, 'token');
    const rows = await this.db
      .delete(sessions)
      .where(
        or(
          and(signIn, or(lte(sessions.lastSeenAt, idleBefore), lte(sessions.createdAt, createdBefore))),
          and(eq(sessions.client, 'token'), lte(sessions.expiresAt, now)),
        ),
      )
      .returning({ id: sessions.id });
    await this.announceEnded(rows);
    return rows.length;
  }

  /**
   * The user's signed-in sessions (`kind: 'sign-in'`, both allauth clients, oldest first) or personal access
   * tokens (`kind: 'token'`, newest first).
   */
  async listForUser(userId: string, kind: 'sign-in' | 'token'): Promise<SessionRecord[]> {
    return kind === 'token'
      ? this.db
          .select()
          .from(sessions)
          .where(and(eq(sessions.userId, userId), eq(sessions.client, 'token')))
          .orderBy(sql`${sessions.number} desc`)
      : this.db
          .select()
          .from(sessions)
          .where(
            and(eq(sessions.userId, userId), ne(sessions.client, 'token'), eq(sessions.authenticated, true)),
          )
          .orderBy(asc(sessions.number));
  }

  /**
   * Ends the user's sessions (sign-ins or tokens, as `kind` says) with these numbers; answers the ids that ended.
   * A number of another user's session ends nothing.
   */
  async deleteNumbers(
    userId: string,
    kind: 'sign-in' | 'token',
    numbers: readonly number[],
  ): Promise<string[]> {
    if (numbers.length === 0) return [];
    const rows = await this.db
      .delete(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          kind === 'token' ? eq(sessions.client, 'token') : ne(sessions.client, 'token'),
          inArray(sessions.number, [...numbers]),
        ),
      )
      .returning({ id: sessions.id });
    await this.announceEnded(rows);
    return rows.map((row) => row.id);
  }

  /** Ends every sign-in of the user but `keep` (after a password change); personal access tokens stay. */
  async deleteOtherSignIns(userId: string, keep: string): Promise<void> {
    const rows = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.client, 'token'), ne(sessions.id, keep)))
      .returning({ id: sessions.id });
    await this.announceEnded(rows);
  }

  /** Ends every session of a user, personal access tokens included (after a password reset). */
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
