import { and, asc, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import {
  blueprintAllowedOrgs,
  blueprints,
  documentMembers,
  documentOrganizationGrants,
  documentSections,
  documentSubsections,
  documents,
  organizationMembers,
} from '../db/schema.js';
import type { DocumentRole, PlanRole } from '../documents/document-access.js';
import { offsetOf } from '../http/list-page.js';
import type { ListOrdering, ListQuery } from '../http/list-query.js';
import type { SectionRow } from '../structure/section-rows.js';
import { PlanStore } from './plan-store.js';

/**
 * A stored document without its content tree (which is most of its size), with the title of the
 * blueprint it was made from (null once that is deleted).
 */
export type DocumentHead = Omit<typeof documents.$inferSelect, 'content'> & { blueprintTitle: string | null };

/** A stored document with its content tree. */
export type DocumentRecord = DocumentHead & { content: unknown };

/** A stored document with its content tree as the database prints it: JSON text, to be passed on unread. */
export type DocumentWithContentJson = DocumentHead & { contentJson: string };

/** What a new document is made of; its revision starts at 1. */
export interface NewDocument {
  ownerId: string;
  blueprintId: string | null;
  /** The blueprint's version it was made from. */
  blueprintVersion: number | null;
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
  /** The new tree as JSON text (the caller has it serialised already, for its answer). */
  contentJson?: string;
  finalizedCount?: number;
  subsectionCount?: number;
  updatedAt: Date;
  /** The tree was derived from the live (Yjs) state: the new revision is recorded as `liveRevision`. */
  fromLive?: boolean;
}

const { content: _content, ...headColumns } = getTableColumns(documents);
const head = { ...headColumns, blueprintTitle: blueprints.title };
const withContent = { ...head, content: documents.content };
const withContentJson = { ...head, contentJson: sql<string>`${documents.content}::text` };
const ofBlueprint = eq(blueprints.id, documents.blueprintId);

/**
 * `userId`'s role on the document of the row: its owner; else the strongest of what it was shared with them
 * as, directly or through an organisation they belong to; else null (not theirs to see).
 */
function roleOf(userId: string) {
  return sql<PlanRole | null>`case when ${documents.ownerId} = ${userId} then 'owner' else (
    select shared.role from (
      select ${documentMembers.role} as role from ${documentMembers}
        where ${documentMembers.documentId} = ${documents.id} and ${documentMembers.userId} = ${userId}
      union all
      select ${documentOrganizationGrants.role} from ${documentOrganizationGrants}
        join ${organizationMembers} on ${organizationMembers.organizationId} = ${documentOrganizationGrants.organizationId}
        where ${documentOrganizationGrants.documentId} = ${documents.id} and ${organizationMembers.userId} = ${userId}
    ) as shared
    order by case shared.role when 'editor' then 0 when 'commenter' then 1 else 2 end
    limit 1) end`;
}

/**
 * The title of the document's blueprint when `userId` may read that blueprint now (the visibility table of
 * docs/http-api.md), else null: a blueprint made private later is not named to the document's readers.
 */
function blueprintTitleFor(userId: string) {
  return sql<string | null>`case when ${blueprints.ownerId} = ${userId} or (
    ${blueprints.status} = 'published' and (
      ${blueprints.visibility} in ('public', 'unlisted') or (
        ${blueprints.visibility} = 'restricted' and exists (
          select 1 from ${blueprintAllowedOrgs}
            join ${organizationMembers} on ${organizationMembers.organizationId} = ${blueprintAllowedOrgs.organizationId}
            where ${blueprintAllowedOrgs.blueprintId} = ${blueprints.id} and ${organizationMembers.userId} = ${userId}))))
    then ${blueprints.title} end`;
}

/** What a document read as `userId` selects besides its own columns: their role, and what they may see of its blueprint. */
const seenBy = (userId: string) => ({ role: roleOf(userId), blueprintTitle: blueprintTitleFor(userId) });

/** A document row as `userId` may see it, with their role; undefined when it is absent or not theirs to see. */
function seen<T extends { role: PlanRole | null }>(row: T | undefined): (T & { role: PlanRole }) | undefined {
  return row && row.role !== null ? (row as T & { role: PlanRole }) : undefined;
}

/** A document as one person sees it: with their role on it. */
export type Seen<T> = T & DocumentRole;

/** Which documents a list shows: the caller's own, those shared with them, or both. */
export type DocumentScope = 'owned' | 'shared' | 'all';

/** The documents `userId` owns, those shared with them, or both. */
export function inScope(userId: string, scope: DocumentScope): SQL {
  const owned = eq(documents.ownerId, userId);
  const shared = sql`${documents.ownerId} <> ${userId} and (
    exists (select 1 from ${documentMembers}
      where ${documentMembers.documentId} = ${documents.id} and ${documentMembers.userId} = ${userId})
    or exists (select 1 from ${documentOrganizationGrants}
      join ${organizationMembers} on ${organizationMembers.organizationId} = ${documentOrganizationGrants.organizationId}
      where ${documentOrganizationGrants.documentId} = ${documents.id} and ${organizationMembers.userId} = ${userId}))`;
  if (scope === 'owned') return owned;
  if (scope === 'shared') return shared;
  return sql`(${owned} or (${shared}))`;
}

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
export class DocumentRepository extends PlanStore {
  constructor(db: Db) {
    super(db, 'document');
  }

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
      .select(withContent)
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(eq(documents.id, id));
    const [row] = options.forUpdate ? await query.for('update', { of: documents }) : await query;
    return row;
  }

  /**
   * The document with `userId`'s role on it, or undefined when it is absent or not theirs to see (the two
   * are alike to the caller). `forUpdate` locks its row, as {@link findById} does. Callers check the role
   * for what they do (`permitted` in documents/document-access.ts).
   */
  async findFor(
    id: string,
    userId: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<Seen<DocumentRecord> | undefined> {
    const query = this.db
      .select({ ...withContent, ...seenBy(userId) })
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(eq(documents.id, id));
    const [row] = options.forUpdate ? await query.for('update', { of: documents }) : await query;
    return seen(row);
  }

  /**
   * Like {@link findFor} without the content tree: a write that brings a whole new tree needs the stored
   * one's outline only, which the rows tell (and the database compares the trees itself).
   */
  async findHeadFor(
    id: string,
    userId: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<Seen<DocumentHead> | undefined> {
    const query = this.db
      .select({ ...head, ...seenBy(userId) })
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(eq(documents.id, id));
    const [row] = options.forUpdate ? await query.for('update', { of: documents }) : await query;
    return seen(row);
  }

  /**
   * Like {@link findFor} with the content tree as JSON text: a read that only passes the tree on skips
   * parsing and re-serialising it.
   */
  async findWithContentJsonFor(
    id: string,
    userId: string,
  ): Promise<Seen<DocumentWithContentJson> | undefined> {
    const [row] = await this.db
      .select({ ...withContentJson, ...seenBy(userId) })
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(eq(documents.id, id));
    return seen(row);
  }

  /** The document without its tree, whoever owns it (for callers that have authorised already). */
  async findHead(id: string, options: { forUpdate?: boolean } = {}): Promise<DocumentHead | undefined> {
    const query = this.db
      .select(head)
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(eq(documents.id, id));
    const [row] = options.forUpdate ? await query.for('update', { of: documents }) : await query;
    return row;
  }

  /** The document with its tree as JSON text, whoever owns it (for callers that have authorised already). */
  async findWithContentJson(id: string): Promise<DocumentWithContentJson | undefined> {
    const [row] = await this.db
      .select(withContentJson)
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(eq(documents.id, id));
    return row;
  }

  /**
   * One page of the documents `userId` sees in `scope` (without content), each with their role, and how many
   * there are in all.
   */
  async listFor(
    userId: string,
    query: ListQuery,
    scope: DocumentScope = 'owned',
  ): Promise<{ items: Seen<DocumentHead>[]; total: number }> {
    const where = inScope(userId, scope);
    const items = await this.db
      .select({ ...head, ...seenBy(userId) })
      .from(documents)
      .leftJoin(blueprints, ofBlueprint)
      .where(where)
      .orderBy(...orderBy(query.ordering))
      .limit(query.pageSize)
      .offset(offsetOf(query));
    const total = Number(await this.db.$count(documents, where));
    return { items: items.flatMap((item) => seen(item) ?? []), total };
  }

  /** Whether the document has a subsection with this uuid. */
  async hasSubsection(documentId: string, uuid: string): Promise<boolean> {
    const [row] = await this.db
      .select({ uuid: documentSubsections.uuid })
      .from(documentSubsections)
      .where(and(eq(documentSubsections.documentId, documentId), eq(documentSubsections.uuid, uuid)))
      .limit(1);
    return row !== undefined;
  }

  /** The ids of the documents `userId` may edit that hold a section (or subsection) with this uuid. */
  async editableHolding(userId: string, kind: 'section' | 'subsection', uuid: string): Promise<string[]> {
    const table = kind === 'section' ? documentSections : documentSubsections;
    const rows = await this.db
      .select({ id: documents.id })
      .from(table)
      .innerJoin(documents, eq(documents.id, table.documentId))
      .where(and(eq(table.uuid, uuid), sql`${roleOf(userId)} in ('owner', 'editor')`))
      .limit(10);
    return rows.map((row) => row.id);
  }

  /**
   * Applies `changes` and bumps the revision, only if the document is still at `revision`; with
   * `ifContentDiffers`, only if `changes.contentJson` also differs from the stored tree (compared by the
   * database as jsonb, so whatever the key order). Answers the updated document without its tree, or
   * `undefined` when it is gone, another write got there first, or (`ifContentDiffers`) the tree is
   * the stored one.
   */
  async updateAt(
    id: string,
    revision: number,
    changes: DocumentChanges,
    options: { ifContentDiffers?: boolean } = {},
  ): Promise<DocumentHead | undefined> {
    const { contentJson, fromLive, ...fields } = changes;
    const set = {
      ...fields,
      revision: sql`${documents.revision} + 1`,
      ...(fromLive ? { liveRevision: sql`${documents.revision} + 1` } : {}),
    };
    const at = and(eq(documents.id, id), eq(documents.revision, revision));
    const returning = {
      ...headColumns,
      blueprintTitle: sql<string | null>`(${this.db
        .select({ title: blueprints.title })
        .from(blueprints)
        .where(eq(blueprints.id, documents.blueprintId))})`,
    };
    if (contentJson === undefined) {
      const [row] = await this.db.update(documents).set(set).where(at).returning(returning);
      return row;
    }
    // The tree is sent once, as one parameter both the comparison and the write use: the transfer of
    // a large tree costs more than anything the database does with it.
    const [row] = await this.db
      .update(documents)
      .set({ ...set, content: sql`incoming.content` })
      .from(sql`(select ${contentJson}::jsonb as content) as incoming`)
      .where(
        options.ifContentDiffers ? and(at, sql`${documents.content} is distinct from incoming.content`) : at,
      )
      .returning(returning);
    return row;
  }

  /** The owner's sharing setting (not the plan's content: no revision, no activity). */
  async setEditorsCanShare(id: string, editorsCanShare: boolean): Promise<void> {
    await this.db.update(documents).set({ editorsCanShare }).where(eq(documents.id, id));
  }

  /** Deletes the document if it is still at `revision`; false when it is gone or was changed. */
  async deleteAt(id: string, revision: number): Promise<boolean> {
    const deleted = await this.db
      .delete(documents)
      .where(and(eq(documents.id, id), eq(documents.revision, revision)))
      .returning({ id: documents.id });
    return deleted.length > 0;
  }
}
