import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { accountKeys } from '../db/schema.js';

/** A stored single-use key (e-mail verification or password reset). */
export type AccountKeyRecord = typeof accountKeys.$inferSelect;
export type AccountKeyPurpose = AccountKeyRecord['purpose'];

/** Single-use keys sent by e-mail; only hashes are stored. */
export class AccountKeyRepository {
  constructor(private readonly db: Db) {}

  async create(key: typeof accountKeys.$inferInsert): Promise<AccountKeyRecord> {
    const [row] = await this.db.insert(accountKeys).values(key).returning();
    if (!row) throw new Error('insert into account_keys returned no row');
    return row;
  }

  async find(purpose: AccountKeyPurpose, keyHash: string): Promise<AccountKeyRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(accountKeys)
      .where(and(eq(accountKeys.keyHash, keyHash), eq(accountKeys.purpose, purpose)));
    return row;
  }

  /** A key of any of `purposes` (a verification link may confirm an address or a change of address). */
  async findAny(purposes: AccountKeyPurpose[], keyHash: string): Promise<AccountKeyRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(accountKeys)
      .where(and(eq(accountKeys.keyHash, keyHash), inArray(accountKeys.purpose, purposes)));
    return row;
  }

  /** Deletes keys that expired before `before` (used ones included). Returns how many went. */
  async prune(before: Date): Promise<number> {
    const rows = await this.db
      .delete(accountKeys)
      .where(lte(accountKeys.expiresAt, before))
      .returning({ id: accountKeys.id });
    return rows.length;
  }

  /**
   * Deletes every key of `purpose` the user holds, used or not, and returns them. A password reset calls
   * it for `password_reset` (a change of password should too), so no other e-mailed reset link still
   * works; verification keys are left alone. A password reset or change also calls it for `change_email`, so a
   * change of address asked for by whoever knew the old password is never completed. Concurrent calls for one user queue on the rows' locks, so
   * of two resets at once only one finds its own key among the deleted.
   */
  async deleteForUser(userId: string, purpose: AccountKeyPurpose): Promise<AccountKeyRecord[]> {
    return this.db
      .delete(accountKeys)
      .where(and(eq(accountKeys.userId, userId), eq(accountKeys.purpose, purpose)))
      .returning();
  }

  /**
   * Marks the key used if nobody has yet. Returns false when another request used it first: the
   * conditional update makes "single use" hold under concurrent clicks.
   */
  async consume(id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(accountKeys)
      .set({ usedAt: at })
      .where(and(eq(accountKeys.id, id), isNull(accountKeys.usedAt)))
      .returning({ id: accountKeys.id });
    return rows.length === 1;
  }
}
