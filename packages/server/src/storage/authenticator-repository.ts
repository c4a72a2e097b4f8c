import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { authenticators } from '../db/schema.js';

/** A stored second factor. */
export type AuthenticatorRecord = typeof authenticators.$inferSelect;

/** What a TOTP authenticator keeps. */
export interface TotpData {
  secret: string;
}

/** What recovery codes keep: the SHA-256 of each, and the indexes already used. */
export interface RecoveryCodesData {
  hashes: string[];
  used: number[];
}

/**
 * An account's second factors (docs/auth.md "Two-factor authentication"). Accepting a TOTP step is one update
 * guarded by the last step, and spending a recovery code locks its row: a code raced twice is accepted once.
 */
export class AuthenticatorRepository {
  constructor(private readonly db: Db) {}

  /** The account's authenticators, TOTP ones only once activated. */
  async list(userId: string): Promise<AuthenticatorRecord[]> {
    return this.db
      .select()
      .from(authenticators)
      .where(
        and(
          eq(authenticators.userId, userId),
          or(eq(authenticators.type, 'recovery_codes'), isNotNull(authenticators.activatedAt)),
        ),
      )
      .orderBy(authenticators.number);
  }

  /** The account's TOTP authenticator, activated or being set up; undefined when it has none. */
  async totp(userId: string): Promise<AuthenticatorRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(authenticators)
      .where(and(eq(authenticators.userId, userId), eq(authenticators.type, 'totp')));
    return row;
  }

  /** Whether the account signs in with a second factor. */
  async hasActiveTotp(userId: string): Promise<boolean> {
    const totp = await this.totp(userId);
    return totp !== undefined && totp.activatedAt !== null;
  }

  /** The account's recovery codes, if it has them. */
  async recoveryCodes(userId: string): Promise<AuthenticatorRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(authenticators)
      .where(and(eq(authenticators.userId, userId), eq(authenticators.type, 'recovery_codes')));
    return row;
  }

  /** Keeps a new secret to set TOTP up with, replacing one being set up; never an activated one. */
  async pendTotp(userId: string, secret: string, at: Date): Promise<AuthenticatorRecord | undefined> {
    await this.db
      .delete(authenticators)
      .where(
        and(
          eq(authenticators.userId, userId),
          eq(authenticators.type, 'totp'),
          isNull(authenticators.activatedAt),
        ),
      );
    const [row] = await this.db
      .insert(authenticators)
      .values({ userId, type: 'totp', data: { secret } satisfies TotpData, createdAt: at })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  /** Activates the TOTP being set up, its first code's step spent; false when there was none to activate. */
  async activateTotp(id: string, step: number, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(authenticators)
      .set({ activatedAt: at, lastUsedAt: at, lastStep: step })
      .where(and(eq(authenticators.id, id), isNull(authenticators.activatedAt)))
      .returning({ id: authenticators.id });
    return rows.length > 0;
  }

  /** Spends a TOTP time step: false when this step (or a later one) was already accepted. */
  async spendTotpStep(id: string, step: number, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(authenticators)
      .set({ lastStep: step, lastUsedAt: at })
      .where(
        and(
          eq(authenticators.id, id),
          isNotNull(authenticators.activatedAt),
          or(isNull(authenticators.lastStep), lt(authenticators.lastStep, step)),
        ),
      )
      .returning({ id: authenticators.id });
    return rows.length > 0;
  }

  /** Replaces the account's recovery codes (by their hashes). */
  async setRecoveryCodes(userId: string, hashes: string[], at: Date): Promise<AuthenticatorRecord> {
    const data: RecoveryCodesData = { hashes, used: [] };
    const [row] = await this.db
      .insert(authenticators)
      .values({ userId, type: 'recovery_codes', data, createdAt: at, activatedAt: at })
      .onConflictDoUpdate({
        target: [authenticators.userId, authenticators.type],
        set: { data, createdAt: at, lastUsedAt: null },
      })
      .returning();
    if (!row) throw new Error('the recovery codes were not stored');
    return row;
  }

  /** Spends the recovery code with this hash: false when the account has no such unused code. */
  async spendRecoveryCode(userId: string, hash: string, at: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // The row is locked until the code is marked used: two requests with one code spend it once.
      const [row] = await tx
        .select()
        .from(authenticators)
        .where(and(eq(authenticators.userId, userId), eq(authenticators.type, 'recovery_codes')))
        .for('update');
      if (!row) return false;
      const data = row.data as RecoveryCodesData;
      const index = data.hashes.indexOf(hash);
      if (index === -1 || data.used.includes(index)) return false;
      await tx
        .update(authenticators)
        .set({ data: { ...data, used: [...data.used, index] } satisfies RecoveryCodesData, lastUsedAt: at })
        .where(eq(authenticators.id, row.id));
      return true;
    });
  }

  /** Removes the account's TOTP and recovery codes (two-factor off). */
  async removeAll(userId: string): Promise<void> {
    await this.db.delete(authenticators).where(eq(authenticators.userId, userId));
  }
}
