import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { appSettings } from '../db/schema.js';

/** The keys of server-wide settings; one name per setting, so a typo cannot create a new one. */
export type AppSettingKey = 'global_system_prompt' | 'conversion_token_key';

/** A stored setting. */
export type AppSettingRecord = typeof appSettings.$inferSelect;

/** Server-wide settings managed by administrators, shared by every instance through the database. */
export class AppSettingRepository {
  constructor(private readonly db: Db) {}

  /** The stored setting, or undefined when it was never set (or was cleared). */
  async get(key: AppSettingKey): Promise<AppSettingRecord | undefined> {
    const [row] = await this.db.select().from(appSettings).where(eq(appSettings.key, key));
    return row;
  }

  /** Stores `value` under `key`, replacing what was there. */
  async set(key: AppSettingKey, value: string, at: Date): Promise<void> {
    await this.db
      .insert(appSettings)
      .values({ key, value, updatedAt: at })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: at } });
  }

  /**
   * The stored setting, or `create()` stored first when there is none. Instances racing to create it
   * all end up with the one that was stored first.
   */
  async getOrCreate(key: AppSettingKey, create: () => string, at: Date): Promise<string> {
    const stored = await this.get(key);
    if (stored) return stored.value;
    await this.db.insert(appSettings).values({ key, value: create(), updatedAt: at }).onConflictDoNothing();
    const row = await this.get(key);
    if (!row) throw new Error(`The setting ${key} could not be stored.`);
    return row.value;
  }

  /** Removes the setting; true when there was one. */
  async clear(key: AppSettingKey): Promise<boolean> {
    const rows = await this.db
      .delete(appSettings)
      .where(eq(appSettings.key, key))
      .returning({ key: appSettings.key });
    return rows.length > 0;
  }
}
