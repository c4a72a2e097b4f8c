import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { users } from '../db/schema.js';

/** A stored account. */
export type UserRecord = typeof users.$inferSelect;

/** The key accounts are looked up by: addresses match case-insensitively. */
export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}

/** Accounts. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    email: string;
    passwordHash: string | null;
    emailVerified: boolean;
    createdAt: Date;
  }): Promise<UserRecord> {
    const [row] = await this.db
      .insert(users)
      .values({ ...input, emailKey: emailKeyOf(input.email) })
      .returning();
    if (!row) throw new Error('insert into users returned no row');
    return row;
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(eq(users.emailKey, emailKeyOf(email)));
    return row;
  }

  async update(
    id: string,
    patch: Partial<
      Pick<
        UserRecord,
        | 'email'
        | 'emailVerified'
        | 'passwordHash'
        | 'firstName'
        | 'lastName'
        | 'language'
        | 'timezone'
        | 'avatarUrl'
        | 'lastLoginAt'
      >
    >,
  ): Promise<UserRecord | undefined> {
    const values = patch.email === undefined ? patch : { ...patch, emailKey: emailKeyOf(patch.email) };
    const [row] = await this.db.update(users).set(values).where(eq(users.id, id)).returning();
    return row;
  }
}
