import { and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { blueprints, documentSections, documentSubsections, documents } from '../db/schema.js';
import { offsetOf } from '../http/list-page.js';
import type { ListOrdering, ListQuery } from '../http/list-query.js';
import type { SectionRow } from '../structure/section-rows.js';
import { flattenSections, insertBatches, nestSections } from './section-row-mapping.js';

/** A stored document, with the title of the blueprint it was made from (null once that is deleted). */
export type DocumentRecord = typeof documents.$inferSelect & { blueprintTitle: string | null };

/** What a new document is made of; its revision starts at 1. */
export interface NewDocument {
  ownerId: string;
  blueprintId: string | null;
  title: string;
  description: string;
  content: unknown;
  finalizedCount: number;
  subsectionCount: number;
  createdAt: Date;
}

/** What a write may change; every write sets `updatedAt` and bumps the revision. */
export interface DocumentChanges {
  title?: string;
  description?: string;
  content?: unknown;
  finalizedCount?: number;
  subsectionCount?: number;
  updatedAt: Date;
}

const withBlueprintTitle = { ...getTableColumns(documents), blueprintTitle: blueprints.title };

function orderBy(ordering: ListOrdering): SQL[] {
  const direction = ordering.startsWith('-') ? desc : asc;
  switch (ordering.replace(/^-/, '')) {
    case 'created_at':
      return [direction(documents.createdAt), direction(documents.id)];
    case 'title':
      // People sort titles without regard to case; the id keeps pages stable between equal titles.
      return [direction(sql`lower(${documents.title})`), direction(documents.title), direction(documents.id)];
    default:
      return [direction(documents.updatedAt), direction(documents.id)];
  }
}

/**
 * Documents and their section and subsection rows. Writes are compare-and-set on `revision`
 * (`update … where id = $1 and revision = $2`), so of two writers that read the same revision only
 * one can win. Multi-statement writes (create, a write with its rows) belong in `storage.transaction`.
 */
export class DocumentRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the document and its rows. Run inside a transaction. */
  async create(document: NewDocument, sections: readonly SectionRow[]): Promise<DocumentRecord> {
    const [row] = await this.db
      .insert(documents)
      .values({ ...document, updatedAt: document.createdAt })
      .returning({ id: documents.id });
    if (!row) throw new Error('insert into documents returned no row');
    await this.insertSections(row.id, sections);
    const created = await this.findById(row.id);
    if (!created) throw new Error('the new document is gone');
    return created;
  }

  /**
   * The document by id. `forUpdate` locks its row until the transaction ends, so concurrent writes to
   * one document queue up instead of racing (the compare-and-set still guards every write).
   */
  async findById(id: string, options: { forUpdate?: boolean } = {}): Promise<DocumentRecord | undefined> {
    const query = this.db
      .select(withBlueprintTitle)
      .from(documents)
      .leftJoin(blueprints, eq(blueprints.id, documents.blueprintId))
      .where(eq(documents.id, id));
    const [row] = options.forUpdate ? await query.for('update', { of: documents }) : await query;
    return row;
  }

  /** The document if `ownerId` owns it; another user's is as absent as a missing one. */
  async findOwned(
    id: string,
    ownerId: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<DocumentRecord | undefined> {
    const found = await this.findById(id, options);
    return found?.ownerId === ownerId ? found : undefined;
  }

  /** One page of `ownerId`'s documents, and how many there are in all. */
  async listOwned(ownerId: string, query: ListQuery): Promise<{ items: DocumentRecord[]; total: number }> {
    const mine = eq(documents.ownerId, ownerId);
    const items = await this.db
      .select(withBlueprintTitle)
      .from(documents)
      .leftJoin(blueprints, eq(blueprints.id, documents.blueprintId))
      .where(mine)
      .orderBy(...orderBy(query.ordering))
      .limit(query.pageSize)
      .offset(offsetOf(query));
    const total = Number(await this.db.$count(documents, mine));
    return { items, total };
  }

  /** The section rows of a document, subsections nested, in order. */
  async sectionsOf(documentId: string): Promise<SectionRow[]> {
    return (await this.sectionsOfMany([documentId])).get(documentId) ?? [];
  }

  /** The section rows of several documents at once (one query per table, for lists). */
  async sectionsOfMany(documentIds: readonly string[]): Promise<Map<string, SectionRow[]>> {
    const result = new Map<string, SectionRow[]>();
    if (documentIds.length === 0) return result;
    const ids = [...documentIds];
    const [sections, subsections] = await Promise.all([
      this.db.select().from(documentSections).where(inArray(documentSections.documentId, ids)),
      this.db.select().from(documentSubsections).where(inArray(documentSubsections.documentId, ids)),
    ]);
    for (const id of ids) {
      result.set(
        id,
        nestSections(
          sections.filter((row) => row.documentId === id),
          subsections.filter((row) => row.documentId === id),
        ),
      );
    }
    return result;
  }

  /**
   * Applies `changes` and bumps the revision, only if the document is still at `revision`. Answers the
   * updated document, or `undefined` when it is gone or another write got there first.
   */
  async updateAt(
    id: string,
    revision: number,
    changes: DocumentChanges,
  ): Promise<DocumentRecord | undefined> {
    const [row] = await this.db
      .update(documents)
      .set({ ...changes, revision: sql`${documents.revision} + 1` })
      .where(and(eq(documents.id, id), eq(documents.revision, revision)))
      .returning({ id: documents.id });
    return row ? this.findById(row.id) : undefined;
  }

  /** Replaces every section and subsection row of the document with `sections`. Run inside a transaction. */
  async replaceSections(documentId: string, sections: readonly SectionRow[]): Promise<void> {
    await this.db.delete(documentSubsections).where(eq(documentSubsections.documentId, documentId));
    await this.db.delete(documentSections).where(eq(documentSections.documentId, documentId));
    await this.insertSections(documentId, sections);
  }

  /** Deletes the document if it is still at `revision`; false when it is gone or was changed. */
  async deleteAt(id: string, revision: number): Promise<boolean> {
    const deleted = await this.db
      .delete(documents)
      .where(and(eq(documents.id, id), eq(documents.revision, revision)))
      .returning({ id: documents.id });
    return deleted.length > 0;
  }

  /** The current revision, or `undefined` when the document is gone. */
  async revisionOf(id: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ revision: documents.revision })
      .from(documents)
      .where(eq(documents.id, id));
    return row?.revision;
  }

  private async insertSections(documentId: string, sections: readonly SectionRow[]): Promise<void> {
    const { sectionRows, subsectionRows } = flattenSections({ documentId }, sections);
    for (const batch of insertBatches(sectionRows)) await this.db.insert(documentSections).values(batch);
    for (const batch of insertBatches(subsectionRows))
      await this.db.insert(documentSubsections).values(batch);
  }
}
