import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { emailAddresses } from '../db/schema.js';
import { emailKeyOf } from './user-repository.js';

/** An address of an account besides its primary one (`users.email`). */
export type EmailAddressRecord = typeof emailAddresses.$inferSelect;

/** The addresses an account lists besides its primary one (docs/auth.md `account/email`). */
export class EmailAddressRepository {
  constructor(private readonly db: Db) {}

  /** The account's other addresses, oldest first. */
  async listForUser(userId: string): Promise<EmailAddressRecord[]> {
    return this.db
      .select()
      .from(emailAddresses)
      .where(eq(emailAddresses.userId, userId))
      .orderBy(asc(emailAddresses.createdAt), asc(emailAddresses.id));
  }

  async find(userId: string, email: string): Promise<EmailAddressRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(emailAddresses)
      .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.emailKey, emailKeyOf(email))));
    return row;
  }

  /** Adds the address to the account (once: an address it lists already is left as it is). */
  async add(input: { userId: string; email: string; verified: boolean; createdAt: Date }): Promise<void> {
    await this.db
      .insert(emailAddresses)
      .values({ ...input, emailKey: emailKeyOf(input.email) })
      .onConflictDoNothing();
  }

  async markVerified(userId: string, email: string): Promise<boolean> {
    const rows = await this.db
      .update(emailAddresses)
      .set({ verified: true })
      .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.emailKey, emailKeyOf(email))))
      .returning({ id: emailAddresses.id });
    return rows.length === 1;
  }

  async remove(userId: string, email: string): Promise<boolean> {
    const rows = await this.db
      .delete(emailAddresses)
      .where(and(eq(emailAddresses.userId, userId), eq(emailAddresses.emailKey, emailKeyOf(email))))
      .returning({ id: emailAddresses.id });
    return rows.length === 1;
  }
}
