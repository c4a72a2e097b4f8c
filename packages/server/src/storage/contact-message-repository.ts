import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { contactMessages } from '../db/schema.js';

/** A stored contact-form message. */
export type ContactMessageRecord = typeof contactMessages.$inferSelect;
/** The fields a visitor sends. */
export type NewContactMessage = Pick<
  ContactMessageRecord,
  'firstName' | 'lastName' | 'email' | 'phone' | 'message'
>;

/** Contact-form messages: stored first, then e-mailed, so none is lost when mail fails. */
export class ContactMessageRepository {
  constructor(private readonly db: Db) {}

  async create(message: NewContactMessage): Promise<ContactMessageRecord> {
    const [row] = await this.db.insert(contactMessages).values(message).returning();
    if (!row) throw new Error('insert into contact_messages returned no row');
    return row;
  }

  async get(id: string): Promise<ContactMessageRecord | undefined> {
    const [row] = await this.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    return row;
  }

  async markEmailed(id: string, at: Date): Promise<void> {
    await this.db.update(contactMessages).set({ emailedAt: at }).where(eq(contactMessages.id, id));
  }

  /** Newest first. */
  async list(limit = 50): Promise<ContactMessageRecord[]> {
    return this.db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(limit);
  }

  async count(): Promise<number> {
    return (await this.db.$count(contactMessages)) as number;
  }
}
