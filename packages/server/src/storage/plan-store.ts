import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import {
  blueprintSections,
  blueprintSubsections,
  blueprints,
  documentSections,
  documentSubsections,
  documents,
} from '../db/schema.js';
import type { SectionOutlineRow, SectionRow } from '../structure/section-rows.js';
import type { ParentKind } from '../structure/section-view.js';
import {
  flattenSections,
  insertBatches,
  nestOutline,
  nestSections,
  type StoredOutlinePart,
  type StoredOutlineSubsection,
  type StoredPart,
  type StoredSubsection,
} from './section-row-mapping.js';

/** A stored section or subsection row with the plan it belongs to. */
type Owned<Row> = Row & { planId: string };

/**
 * The tables of one kind of plan, and the few statements whose column names differ between kinds. Everything
 * else a plan store does is written once, over this.
 */
interface PlanTables {
  selectSections(db: Db, planIds: string[]): Promise<Array<Owned<StoredPart>>>;
  selectSubsections(db: Db, planIds: string[]): Promise<Array<Owned<StoredSubsection>>>;
  selectSectionOutlines(db: Db, planIds: string[]): Promise<Array<Owned<StoredOutlinePart>>>;
  selectSubsectionOutlines(db: Db, planIds: string[]): Promise<Array<Owned<StoredOutlineSubsection>>>;
  insertSections(db: Db, planId: string, sections: readonly SectionRow[]): Promise<void>;
  deleteSections(db: Db, planId: string): Promise<void>;
  revisionOf(db: Db, planId: string): Promise<number | undefined>;
  liveStateOf(db: Db, planId: string): Promise<PlanLiveState | undefined>;
  markLiveAt(db: Db, planId: string, revision: number): Promise<void>;
  contentJsonOf(db: Db, planId: string): Promise<string | undefined>;
}

/** Where a plan stands with its live copy: its revision, and the revision derived from the live state (null if never). */
export interface PlanLiveState {
  revision: number;
  liveRevision: number | null;
}

const outlineOf = (
  table:
    | typeof documentSections
    | typeof documentSubsections
    | typeof blueprintSections
    | typeof blueprintSubsections,
) => ({
  uuid: table.uuid,
  blueprintUuid: table.blueprintUuid,
  title: table.title,
  position: table.position,
});

/** The statements on a plan's own row, alike for both kinds (the two tables share these columns). */
function planRowStatements(
  table: typeof documents | typeof blueprints,
): Pick<PlanTables, 'revisionOf' | 'liveStateOf' | 'markLiveAt' | 'contentJsonOf'> {
  return {
    async revisionOf(db, id) {
      const [row] = await db.select({ revision: table.revision }).from(table).where(eq(table.id, id));
      return row?.revision;
    },
    async liveStateOf(db, id) {
      const [row] = await db
        .select({ revision: table.revision, liveRevision: table.liveRevision })
        .from(table)
        .where(eq(table.id, id));
      return row;
    },
    async markLiveAt(db, id, revision) {
      await db
        .update(table)
        .set({ liveRevision: revision })
        .where(and(eq(table.id, id), eq(table.revision, revision)));
    },
    async contentJsonOf(db, id) {
      const [row] = await db
        .select({ contentJson: sql<string>`${table.content}::text` })
        .from(table)
        .where(eq(table.id, id));
      return row?.contentJson;
    },
  };
}

const DOCUMENT_TABLES: PlanTables = {
  selectSections: (db, ids) =>
    db
      .select({ planId: documentSections.documentId, ...getTableColumns(documentSections) })
      .from(documentSections)
      .where(inArray(documentSections.documentId, ids)),
  selectSubsections: (db, ids) =>
    db
      .select({ planId: documentSubsections.documentId, ...getTableColumns(documentSubsections) })
      .from(documentSubsections)
      .where(inArray(documentSubsections.documentId, ids)),
  selectSectionOutlines: (db, ids) =>
    db
      .select({ planId: documentSections.documentId, ...outlineOf(documentSections) })
      .from(documentSections)
      .where(inArray(documentSections.documentId, ids)),
  selectSubsectionOutlines: (db, ids) =>
    db
      .select({
        planId: documentSubsections.documentId,
        ...outlineOf(documentSubsections),
        sectionUuid: documentSubsections.sectionUuid,
        finalized: documentSubsections.finalized,
      })
      .from(documentSubsections)
      .where(inArray(documentSubsections.documentId, ids)),
  async insertSections(db, documentId, sections) {
    const { sectionRows, subsectionRows } = flattenSections({ documentId }, sections);
    for (const batch of insertBatches(sectionRows)) await db.insert(documentSections).values(batch);
    for (const batch of insertBatches(subsectionRows)) await db.insert(documentSubsections).values(batch);
  },
  async deleteSections(db, documentId) {
    await db.delete(documentSubsections).where(eq(documentSubsections.documentId, documentId));
    await db.delete(documentSections).where(eq(documentSections.documentId, documentId));
  },
  ...planRowStatements(documents),
};

const BLUEPRINT_TABLES: PlanTables = {
  selectSections: (db, ids) =>
    db
      .select({ planId: blueprintSections.blueprintId, ...getTableColumns(blueprintSections) })
      .from(blueprintSections)
      .where(inArray(blueprintSections.blueprintId, ids)),
  selectSubsections: (db, ids) =>
    db
      .select({ planId: blueprintSubsections.blueprintId, ...getTableColumns(blueprintSubsections) })
      .from(blueprintSubsections)
      .where(inArray(blueprintSubsections.blueprintId, ids)),
  selectSectionOutlines: (db, ids) =>
    db
      .select({ planId: blueprintSections.blueprintId, ...outlineOf(blueprintSections) })
      .from(blueprintSections)
      .where(inArray(blueprintSections.blueprintId, ids)),
  selectSubsectionOutlines: (db, ids) =>
    db
      .select({
        planId: blueprintSubsections.blueprintId,
        ...outlineOf(blueprintSubsections),
        sectionUuid: blueprintSubsections.sectionUuid,
      })
      .from(blueprintSubsections)
      .where(inArray(blueprintSubsections.blueprintId, ids)),
  async insertSections(db, blueprintId, sections) {
    // Blueprint subsections are never finalized; the table has no such column.
    const { sectionRows, subsectionRows } = flattenSections({ blueprintId }, sections);
    const subsections = subsectionRows.map(({ finalized: _finalized, ...row }) => row);
    for (const batch of insertBatches(sectionRows)) await db.insert(blueprintSections).values(batch);
    for (const batch of insertBatches(subsections)) await db.insert(blueprintSubsections).values(batch);
  },
  async deleteSections(db, blueprintId) {
    await db.delete(blueprintSubsections).where(eq(blueprintSubsections.blueprintId, blueprintId));
    await db.delete(blueprintSections).where(eq(blueprintSections.blueprintId, blueprintId));
  },
  ...planRowStatements(blueprints),
};

/** Groups rows by their plan, every asked id present (an empty list for a plan with no rows). */
function byPlan<Row extends { planId: string }>(ids: readonly string[], rows: readonly Row[]) {
  const grouped = new Map<string, Row[]>(ids.map((id) => [id, []]));
  for (const row of rows) grouped.get(row.planId)?.push(row);
  return grouped;
}

/**
 * What documents and blueprints store alike (issue 21 item 7, "one plan store"): their section and
 * subsection rows, read nested and whole or as outlines, replaced together with the tree, and the plan's
 * revision. The repository of each kind extends it with what only that kind has (a document's
 * blueprint title, a blueprint's owner and organisations).
 */
export abstract class PlanStore {
  readonly #tables: PlanTables;

  protected constructor(
    protected readonly db: Db,
    /** Which kind of plan this store holds. */
    readonly kind: ParentKind,
  ) {
    this.#tables = kind === 'document' ? DOCUMENT_TABLES : BLUEPRINT_TABLES;
  }

  /** The section rows of a plan, subsections nested, in order. */
  async sectionsOf(planId: string): Promise<SectionRow[]> {
    return (await this.sectionsOfMany([planId])).get(planId) ?? [];
  }

  /** The section rows of several plans at once (one query per table). */
  async sectionsOfMany(planIds: readonly string[]): Promise<Map<string, SectionRow[]>> {
    const result = new Map<string, SectionRow[]>();
    if (planIds.length === 0) return result;
    const ids = [...planIds];
    const [sections, subsections] = await Promise.all([
      this.#tables.selectSections(this.db, ids),
      this.#tables.selectSubsections(this.db, ids),
    ]);
    const subsectionsByPlan = byPlan(ids, subsections);
    for (const [id, rows] of byPlan(ids, sections))
      result.set(id, nestSections(rows, subsectionsByPlan.get(id) ?? []));
    return result;
  }

  /** The outlines of several plans' rows at once (no settings; one query per table, for lists). */
  async outlinesOfMany(planIds: readonly string[]): Promise<Map<string, SectionOutlineRow[]>> {
    const result = new Map<string, SectionOutlineRow[]>();
    if (planIds.length === 0) return result;
    const ids = [...planIds];
    const [sections, subsections] = await Promise.all([
      this.#tables.selectSectionOutlines(this.db, ids),
      this.#tables.selectSubsectionOutlines(this.db, ids),
    ]);
    const subsectionsByPlan = byPlan(ids, subsections);
    for (const [id, rows] of byPlan(ids, sections))
      result.set(id, nestOutline(rows, subsectionsByPlan.get(id) ?? []));
    return result;
  }

  /** Replaces every section and subsection row of the plan with `sections`. Run inside a transaction. */
  async replaceSections(planId: string, sections: readonly SectionRow[]): Promise<void> {
    await this.#tables.deleteSections(this.db, planId);
    await this.#tables.insertSections(this.db, planId, sections);
  }

  /** The current revision, or `undefined` when the plan is gone. */
  async revisionOf(planId: string): Promise<number | undefined> {
    return this.#tables.revisionOf(this.db, planId);
  }

  /** Where the plan stands with its live copy (undefined when the plan is gone). */
  async liveStateOf(planId: string): Promise<PlanLiveState | undefined> {
    return this.#tables.liveStateOf(this.db, planId);
  }

  /**
   * Records that the live state holds the plan's content at `revision` (if it is still at it), so loading
   * the live copy later does not apply that content again over what was typed since (live SPEC LV7).
   */
  async markLiveAt(planId: string, revision: number): Promise<void> {
    await this.#tables.markLiveAt(this.db, planId, revision);
  }

  /** The plan's tree as JSON text, as the database prints it; undefined when the plan is gone. */
  async contentJsonOf(planId: string): Promise<string | undefined> {
    return this.#tables.contentJsonOf(this.db, planId);
  }

  /** Inserts a new plan's rows. Run inside the transaction that inserted the plan. */
  protected async insertSections(planId: string, sections: readonly SectionRow[]): Promise<void> {
    await this.#tables.insertSections(this.db, planId, sections);
  }
}
