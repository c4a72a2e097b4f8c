import { and, count, desc, eq, getTableColumns, isNull, lt, notExists, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { type DOCUMENT_VERSION_KINDS, documents, documentVersions, shareLinks, users } from '../db/schema.js';
import { isUuid } from '../db/uuid.js';

/** Why a version was kept. */
export type DocumentVersionKind = (typeof DOCUMENT_VERSION_KINDS)[number];

const { content: _content, ...headColumns } = getTableColumns(documentVersions);

/** A version without its content (what a list shows), with who made it as they are now. */
export type DocumentVersionHead = Omit<typeof documentVersions.$inferSelect, 'content'> & {
  author: { firstName: string; lastName: string; email: string } | null;
};

/** A version with its content. */
export type DocumentVersionRecord = DocumentVersionHead & { content: unknown };

const withAuthor = {
  ...headColumns,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorEmail: users.email,
};

type Row = { [K in keyof typeof headColumns]: (typeof documentVersions.$inferSelect)[K] } & {
  authorFirstName: string | null;
  authorLastName: string | null;
  authorEmail: string | null;
};

function head({ authorFirstName, authorLastName, authorEmail, ...version }: Row): DocumentVersionHead {
  return {
    ...version,
    author:
      authorEmail === null
        ? null
        : { firstName: authorFirstName ?? '', lastName: authorLastName ?? '', email: authorEmail },
  };
}

/**
 * The versions of documents (docs/versions.md). A version is copied from the document's row inside the
 * database: its content never travels through the server to be kept.
 */
export class DocumentVersionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Keeps the document as it is now as a version. Answers undefined when the name is already another version's
   * in this document (case aside), or the document is gone.
   */
  async keep(input: {
    documentId: string;
    kind: DocumentVersionKind;
    name: string | null;
    createdBy: string | null;
    at: Date;
  }): Promise<DocumentVersionHead | undefined> {
    const [row] = await this.db
      .insert(documentVersions)
      .select((qb) =>
        qb
          .select({
            id: sql`gen_random_uuid()`.as('id'),
            documentId: documents.id,
            name: sql`${input.name}::text`.as('name'),
            kind: sql`${input.kind}::text`.as('kind'),
            title: documents.title,
            content: documents.content,
            revision: documents.revision,
            finalizedCount: documents.finalizedCount,
            subsectionCount: documents.subsectionCount,
            createdBy: sql`${input.createdBy}::uuid`.as('created_by'),
            createdAt: sql`${input.at.toISOString()}::timestamptz`.as('created_at'),
          })
          .from(documents)
          .where(eq(documents.id, input.documentId)),
      )
      .onConflictDoNothing()
      .returning({ id: documentVersions.id });
    return row ? this.#head(input.documentId, row.id) : undefined;
  }

  /** One page of the document's versions, newest first, with how many there are. */
  async list(
    documentId: string,
    page: { page: number; pageSize: number },
  ): Promise<{ rows: DocumentVersionHead[]; total: number }> {
    const where = eq(documentVersions.documentId, documentId);
    const [counted] = await this.db.select({ total: count() }).from(documentVersions).where(where);
    const rows = await this.db
      .select(withAuthor)
      .from(documentVersions)
      .leftJoin(users, eq(users.id, documentVersions.createdBy))
      .where(where)
      .orderBy(desc(documentVersions.createdAt), desc(documentVersions.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    return { rows: rows.map(head), total: Number(counted?.total ?? 0) };
  }

  /** A version of the document with its content, by id or by name (case aside); undefined when none is. */
  async find(documentId: string, idOrName: string): Promise<DocumentVersionRecord | undefined> {
    const which: SQL = isUuid(idOrName)
      ? eq(documentVersions.id, idOrName.toLowerCase())
      : sql`lower(${documentVersions.name}) = lower(${idOrName})`;
    const [row] = await this.db
      .select({ ...withAuthor, content: documentVersions.content })
      .from(documentVersions)
      .leftJoin(users, eq(users.id, documentVersions.createdBy))
      .where(and(eq(documentVersions.documentId, documentId), which));
    if (!row) return undefined;
    const { content, ...rest } = row;
    return { ...head(rest), content };
  }

  /** When the document's latest automatic or named version was kept, if any. */
  async latestAt(documentId: string): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ at: sql<Date>`max(${documentVersions.createdAt})`.mapWith(documentVersions.createdAt) })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, documentId));
    return row?.at ?? undefined;
  }

  /**
   * Deletes every automatic version kept before `before` that no share link shows (named ones stay for ever);
   * answers how many went.
   */
  async pruneAutomatic(before: Date): Promise<number> {
    const shared = this.db
      .select({ id: shareLinks.id })
      .from(shareLinks)
      .where(eq(shareLinks.versionId, documentVersions.id));
    const deleted = await this.db
      .delete(documentVersions)
      .where(and(isNull(documentVersions.name), lt(documentVersions.createdAt, before), notExists(shared)))
      .returning({ id: documentVersions.id });
    return deleted.length;
  }

  async #head(documentId: string, id: string): Promise<DocumentVersionHead | undefined> {
    const [row] = await this.db
      .select(withAuthor)
      .from(documentVersions)
      .leftJoin(users, eq(users.id, documentVersions.createdBy))
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.id, id)));
    return row && head(row);
  }
}
