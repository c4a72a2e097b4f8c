import { and, count, desc, eq, gte, inArray, lte, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { activities, documents, users } from '../db/schema.js';
import { inScope } from './document-repository.js';

/** What an activity is about. */
export type ActivityTarget = 'document' | 'blueprint';
/** How an entry is shown. */
export type ActivitySeverity = 'info' | 'warning' | 'error' | 'system';

/** One event to put in an owner's feed; labels are copied now so the entry reads right later. */
export interface NewActivity {
  /** Whose feed the entry goes to (the owner of the document or blueprint). */
  ownerId: string;
  /** Who did it; null for the system. */
  actorId: string | null;
  actorLabel: string;
  verb: string;
  message: string;
  target: ActivityTarget;
  objectId: string;
  targetLabel: string;
  childTargetLabel?: string | null;
  childContentTypeLabel?: string | null;
  severity?: ActivitySeverity;
  /** 1 for whole-resource events, 2 for section-level ones. */
  level: 1 | 2;
  createdAt: Date;
}

/** A stored entry with its actor as they are now (null once the account is gone). */
export type ActivityRecord = typeof activities.$inferSelect & {
  actor: { firstName: string; email: string } | null;
};

/** Filters and page of a feed read; `page` is 1-based. */
export interface ActivityQuery {
  level?: number;
  levelGte?: number;
  levelLte?: number;
  target?: ActivityTarget;
  objectId?: string;
  page: number;
  pageSize: number;
}

/** The activity feeds of documents and blueprints (spec 000 §3). */
export class ActivityRepository {
  constructor(private readonly db: Db) {}

  /** Appends one or several entries (in one statement, so a batch lands whole or not at all). */
  async record(entries: NewActivity | readonly NewActivity[]): Promise<void> {
    const list: readonly NewActivity[] = Array.isArray(entries) ? entries : [entries as NewActivity];
    if (list.length === 0) return;
    await this.db.insert(activities).values(
      list.map((entry) => ({
        ownerId: entry.ownerId,
        actorId: entry.actorId,
        actorLabel: entry.actorLabel,
        verb: entry.verb,
        message: entry.message,
        target: entry.target,
        objectId: entry.objectId,
        targetLabel: entry.targetLabel,
        childTargetLabel: entry.childTargetLabel ?? null,
        childContentTypeLabel: entry.childContentTypeLabel ?? null,
        severity: entry.severity ?? 'info',
        level: entry.level,
        createdAt: entry.createdAt,
      })),
    );
  }

  /**
   * One page of what `userId` may follow, newest first, with the total matching the filters: their own feed
   * (their documents and blueprints) and the entries of the plans shared with them now, whoever acted
   * (docs/teams.md "Activity"). A member who leaves stops seeing a plan's entries with the plan.
   */
  async list(userId: string, query: ActivityQuery): Promise<{ rows: ActivityRecord[]; total: number }> {
    const sharedPlans = this.db.select({ id: documents.id }).from(documents).where(inScope(userId, 'shared'));
    const conditions: SQL[] = [
      or(
        eq(activities.ownerId, userId),
        and(eq(activities.target, 'document'), inArray(activities.objectId, sharedPlans)),
      ) as SQL,
    ];
    if (query.level !== undefined) conditions.push(eq(activities.level, query.level));
    if (query.levelGte !== undefined) conditions.push(gte(activities.level, query.levelGte));
    if (query.levelLte !== undefined) conditions.push(lte(activities.level, query.levelLte));
    if (query.target !== undefined) conditions.push(eq(activities.target, query.target));
    if (query.objectId !== undefined) conditions.push(eq(activities.objectId, query.objectId));
    const where = and(...conditions);

    const [counted] = await this.db.select({ total: count() }).from(activities).where(where);
    const rows = await this.db
      .select({ activity: activities, actorFirstName: users.firstName, actorEmail: users.email })
      .from(activities)
      .leftJoin(users, eq(users.id, activities.actorId))
      .where(where)
      // The id breaks ties so entries recorded in one batch keep a stable order across pages.
      .orderBy(desc(activities.createdAt), desc(activities.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    return {
      total: Number(counted?.total ?? 0),
      rows: rows.map(({ activity, actorFirstName, actorEmail }) => ({
        ...activity,
        actor:
          actorFirstName !== null && actorEmail !== null
            ? { firstName: actorFirstName, email: actorEmail }
            : null,
      })),
    };
  }
}
