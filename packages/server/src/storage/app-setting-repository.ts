import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { appSettings } from '../db/schema.js';

/** The keys of server-wide settings; one name per setting, so a typo cannot create a new one. */
export type AppSettingKey = 'global_system_prompt';

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

  /** Removes the setting; true when there was one. */
  async clear(key: AppSettingKey): Promise<boolean> {
    const rows = await this.db
      .delete(appSettings)
      .where(eq(appSettings.key, key))
      .returning({ key: appSettings.key });
    return rows.length > 0;
  }
}
