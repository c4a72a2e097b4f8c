import { and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { blueprintAllowedOrgs, blueprintSections, blueprints, users } from '../db/schema.js';
import { offsetOf } from '../http/list-page.js';
import type { ListOrdering, ListQuery } from '../http/list-query.js';
import type { SectionRow } from '../structure/section-rows.js';
import { PlanStore } from './plan-store.js';

/** Who owns a blueprint, as far as others may see: names, and the address only to build a username. */
export interface BlueprintOwner {
  email: string;
  firstName: string;
  lastName: string;
}

/** A stored blueprint with its owner (null for the seeded default) and the organisations it is shared with. */
export type BlueprintRecord = typeof blueprints.$inferSelect & {
  owner: BlueprintOwner | null;
  allowedOrgIds: string[];
};

/** A stored blueprint without its content tree, as lists read it. */
export type BlueprintHead = Omit<BlueprintRecord, 'content'>;

/** What a new blueprint is made of; its revision starts at 1. */
export interface NewBlueprint {
  ownerId: string | null;
  title: string;
  description: string;
  status: 'draft' | 'published';
  version: number;
  visibility: 'public' | 'restricted' | 'private' | 'unlisted';
  publishedAt: Date | null;
  systemPrompt: string;
  publisher: string | null;
  content: unknown;
  createdAt: Date;
}

/** What a write may change; every write sets `updatedAt` and bumps the revision. */
export type BlueprintChanges = Partial<
  Pick<
    NewBlueprint,
    'title' | 'description' | 'status' | 'version' | 'visibility' | 'publishedAt' | 'systemPrompt' | 'content'
  >
> & {
  updatedAt: Date;
  /** The tree was derived from the live (Yjs) state: the new revision is recorded as `liveRevision`. */
  fromLive?: boolean;
};

const ownerColumns = {
  ownerEmail: users.email,
  ownerFirstName: users.firstName,
  ownerLastName: users.lastName,
};
const withOwner = { ...getTableColumns(blueprints), ...ownerColumns };
const { content: _content, ...headColumns } = getTableColumns(blueprints);
const headWithOwner = { ...headColumns, ...ownerColumns };

/** A blueprint row as selected, with or without content. */
type BlueprintHeadRow = Omit<typeof blueprints.$inferSelect, 'content'>;

/** A selected row with its owner and shared organisations in place of the owner columns. */
type WithDetails<Row> = Omit<Row, 'ownerEmail' | 'ownerFirstName' | 'ownerLastName'> & {
  owner: BlueprintOwner | null;
  allowedOrgIds: string[];
};

function orderBy(ordering: ListOrdering): SQL[] {
  const direction = ordering.startsWith('-') ? desc : asc;
  switch (ordering.replace(/^-/, '')) {
    case 'created_at':
      return [direction(blueprints.createdAt), direction(blueprints.id)];
    case 'title':
      return [
        direction(sql`lower(${blueprints.title})`),
        direction(blueprints.title),
        direction(blueprints.id),
      ];
    default:
      return [direction(blueprints.updatedAt), direction(blueprints.id)];
  }
}

/**
 * Blueprints, their section and subsection rows and the organisations they are shared with. Writes
 * are compare-and-set on `revision`, as for documents; multi-statement writes belong in
 * `storage.transaction`.
 */
export class BlueprintRepository extends PlanStore {
  constructor(db: Db) {
    super(db, 'blueprint');
  }

  /** Inserts the blueprint and its rows. Run inside a transaction. */
  async create(blueprint: NewBlueprint, sections: readonly SectionRow[]): Promise<BlueprintRecord> {
    const [row] = await this.db
      .insert(blueprints)
      .values({ ...blueprint, updatedAt: blueprint.createdAt })
      .returning({ id: blueprints.id });
    if (!row) throw new Error('insert into blueprints returned no row');
    await this.insertSections(row.id, sections);
    return this.mustFind(row.id);
  }

  /**
   * Inserts the seeded default unless one exists (the partial unique index on `is_default` decides,
   * so instances starting at once against one PostgreSQL seed it once). Run inside a transaction.
   * Answers whether this call inserted it.
   */
  async createDefault(blueprint: NewBlueprint, sections: readonly SectionRow[]): Promise<boolean> {
    const inserted = await this.db
      .insert(blueprints)
      .values({ ...blueprint, isDefault: true, updatedAt: blueprint.createdAt })
      .onConflictDoNothing()
      .returning({ id: blueprints.id });
    const row = inserted[0];
    if (!row) return false;
    await this.insertSections(row.id, sections);
    return true;
  }

  /** The seeded default, if it has been seeded. */
  async findDefault(): Promise<BlueprintRecord | undefined> {
    const [row] = await this.db
      .select({ id: blueprints.id })
      .from(blueprints)
      .where(eq(blueprints.isDefault, true));
    return row ? this.findById(row.id) : undefined;
  }

  /**
   * The blueprint by id. Inside a transaction, `lock: 'update'` holds its row until the end so concurrent
   * writes to one blueprint queue up instead of racing (the compare-and-set still guards every write);
   * `lock: 'key share'` only keeps it from being deleted meanwhile (making a document from it).
   */
  async findById(
    id: string,
    options: { lock?: 'update' | 'key share' } = {},
  ): Promise<BlueprintRecord | undefined> {
    const query = this.db
      .select(withOwner)
      .from(blueprints)
      .leftJoin(users, eq(users.id, blueprints.ownerId))
      .where(eq(blueprints.id, id));
    const [found] = await this.withDetails(
      options.lock ? await query.for(options.lock, { of: blueprints }) : await query,
    );
    return found;
  }

  /** A blueprint's title and system prompt only (what a chat prompt needs), without its content. */
  async promptOf(id: string): Promise<{ title: string; systemPrompt: string } | undefined> {
    const [row] = await this.db
      .select({ title: blueprints.title, systemPrompt: blueprints.systemPrompt })
      .from(blueprints)
      .where(eq(blueprints.id, id));
    return row;
  }

  /** One page of the blueprints `condition` selects (without content), and how many it selects in all. */
  async list(
    condition: SQL | undefined,
    query: ListQuery,
  ): Promise<{ items: BlueprintHead[]; total: number }> {
    const rows = await this.db
      .select(headWithOwner)
      .from(blueprints)
      .leftJoin(users, eq(users.id, blueprints.ownerId))
      .where(condition)
      .orderBy(...orderBy(query.ordering))
      .limit(query.pageSize)
      .offset(offsetOf(query));
    const total = Number(await this.db.$count(blueprints, condition));
    return { items: await this.withDetails(rows), total };
  }

  /** One page of `ownerId`'s own blueprints. */
  async listOwned(ownerId: string, query: ListQuery): Promise<{ items: BlueprintHead[]; total: number }> {
    return this.list(eq(blueprints.ownerId, ownerId), query);
  }

  /** How many sections each blueprint has, without reading them. */
  async sectionCounts(blueprintIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(blueprintIds.map((id) => [id, 0]));
    if (blueprintIds.length === 0) return counts;
    const rows = await this.db
      .select({ blueprintId: blueprintSections.blueprintId, count: sql<number>`count(*)::int` })
      .from(blueprintSections)
      .where(inArray(blueprintSections.blueprintId, [...blueprintIds]))
      .groupBy(blueprintSections.blueprintId);
    for (const row of rows) counts.set(row.blueprintId, Number(row.count));
    return counts;
  }

  /**
   * Applies `changes` and bumps the revision, only if the blueprint is still at `revision`. Answers the
   * updated blueprint, or `undefined` when it is gone or another write got there first.
   */
  async updateAt(
    id: string,
    revision: number,
    changes: BlueprintChanges,
  ): Promise<BlueprintRecord | undefined> {
    const { fromLive, ...set } = changes;
    const [row] = await this.db
      .update(blueprints)
      .set({
        ...set,
        revision: sql`${blueprints.revision} + 1`,
        ...(fromLive ? { liveRevision: sql`${blueprints.revision} + 1` } : {}),
      })
      .where(and(eq(blueprints.id, id), eq(blueprints.revision, revision)))
      .returning({ id: blueprints.id });
    return row ? this.findById(row.id) : undefined;
  }

  /** Replaces the organisations the blueprint is shared with. Run inside a transaction. */
  async setAllowedOrgs(blueprintId: string, organizationIds: readonly string[]): Promise<void> {
    await this.db.delete(blueprintAllowedOrgs).where(eq(blueprintAllowedOrgs.blueprintId, blueprintId));
    const unique = [...new Set(organizationIds)];
    if (unique.length > 0) {
      await this.db
        .insert(blueprintAllowedOrgs)
        .values(unique.map((organizationId) => ({ blueprintId, organizationId })));
    }
  }

  /** Deletes the blueprint if it is still at `revision` and is not the default; false otherwise. */
  async deleteAt(id: string, revision: number): Promise<boolean> {
    const deleted = await this.db
      .delete(blueprints)
      .where(and(eq(blueprints.id, id), eq(blueprints.revision, revision), eq(blueprints.isDefault, false)))
      .returning({ id: blueprints.id });
    return deleted.length > 0;
  }

  private async mustFind(id: string): Promise<BlueprintRecord> {
    const found = await this.findById(id);
    if (!found) throw new Error('the blueprint is gone');
    return found;
  }

  private async withDetails<
    Row extends BlueprintHeadRow & {
      ownerEmail: string | null;
      ownerFirstName: string | null;
      ownerLastName: string | null;
    },
  >(rows: readonly Row[]): Promise<Array<WithDetails<Row>>> {
    const ids = rows.map((row) => row.id);
    const allowed =
      ids.length === 0
        ? []
        : await this.db
            .select()
            .from(blueprintAllowedOrgs)
            .where(inArray(blueprintAllowedOrgs.blueprintId, ids));
    return rows.map(({ ownerEmail, ownerFirstName, ownerLastName, ...row }) => ({
      ...row,
      owner:
        ownerEmail === null
          ? null
          : { email: ownerEmail, firstName: ownerFirstName ?? '', lastName: ownerLastName ?? '' },
      allowedOrgIds: allowed
        .filter((entry) => entry.blueprintId === row.id)
        .map((entry) => entry.organizationId)
        .sort(),
    }));
  }
}
