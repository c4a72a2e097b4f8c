import { and, count, countDistinct, desc, eq, getTableColumns, inArray, max, sql, sum } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import {
  documents,
  documentVersions,
  shareLinkSectionReads,
  shareLinks,
  shareLinkViews,
  users,
} from '../db/schema.js';
import type { DocumentVersionKind } from './document-version-repository.js';

const { passwordHash: _passwordHash, tokenHash: _tokenHash, ...publicColumns } = getTableColumns(shareLinks);

/** A share link as its owner sees it: never its token nor its password. */
export type ShareLinkHead = { [K in keyof typeof publicColumns]: (typeof shareLinks.$inferSelect)[K] } & {
  hasPassword: boolean;
  /** The version it shows, null for the latest finalized subsections. */
  version: { id: string; name: string | null; kind: DocumentVersionKind; createdAt: Date } | null;
  author: { firstName: string; lastName: string; email: string } | null;
};

/** What a link's readers did: page views, distinct visitors, when last, and time per section. */
export interface ShareLinkStats {
  views: number;
  visitors: number;
  lastViewedAt: Date | null;
  /** Milliseconds read, per section uuid, most read first. */
  sections: Array<{ uuid: string; milliseconds: number }>;
}

/** A link found by its token, with what the reader page needs to decide and to show. */
export type ShareLinkByToken = typeof shareLinks.$inferSelect & {
  documentTitle: string;
  documentOwnerId: string;
};

const headColumns = {
  ...publicColumns,
  hasPassword: sql<boolean>`${shareLinks.passwordHash} is not null`.mapWith(Boolean),
  versionName: documentVersions.name,
  versionKind: documentVersions.kind,
  versionCreatedAt: documentVersions.createdAt,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
  authorEmail: users.email,
};

type HeadRow = {
  [K in keyof typeof publicColumns]: (typeof shareLinks.$inferSelect)[K];
} & {
  hasPassword: boolean;
  versionName: string | null;
  versionKind: DocumentVersionKind | null;
  versionCreatedAt: Date | null;
  authorFirstName: string | null;
  authorLastName: string | null;
  authorEmail: string | null;
};

function head(row: HeadRow): ShareLinkHead {
  const {
    versionName,
    versionKind,
    versionCreatedAt,
    authorFirstName,
    authorLastName,
    authorEmail,
    ...link
  } = row;
  return {
    ...link,
    version:
      link.versionId !== null && versionKind !== null && versionCreatedAt !== null
        ? { id: link.versionId, name: versionName, kind: versionKind, createdAt: versionCreatedAt }
        : null,
    author:
      authorEmail === null
        ? null
        : { firstName: authorFirstName ?? '', lastName: authorLastName ?? '', email: authorEmail },
  };
}

/**
 * Share links, their views and the time read per section (docs/versions.md "Share links"). A link is looked up
 * by the SHA-256 of its token through a unique index: how long a lookup takes says nothing about how close a
 * guess was. Nothing about a link is cached, so a revocation holds on every instance at the next request.
 */
export class ShareLinkRepository {
  constructor(private readonly db: Db) {}

  /** Creates a link; answers it as its owner sees it. */
  async create(input: {
    documentId: string;
    versionId: string | null;
    label: string;
    tokenHash: string;
    tokenHint: string;
    passwordHash: string | null;
    allowDownload: boolean;
    expiresAt: Date | null;
    createdBy: string;
    at: Date;
  }): Promise<ShareLinkHead> {
    const { at, ...values } = input;
    const [row] = await this.db
      .insert(shareLinks)
      .values({ ...values, createdAt: at })
      .returning({ id: shareLinks.id });
    const created = row && (await this.find(input.documentId, row.id));
    if (!created) throw new Error('the new share link is gone');
    return created;
  }

  /** The document's links, newest first. */
  async list(documentId: string): Promise<ShareLinkHead[]> {
    const rows = await this.#heads()
      .where(eq(shareLinks.documentId, documentId))
      .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
    return rows.map(head);
  }

  /** One of the document's links; undefined when it has none with that id. */
  async find(documentId: string, id: string): Promise<ShareLinkHead | undefined> {
    const [row] = await this.#heads().where(
      and(eq(shareLinks.documentId, documentId), eq(shareLinks.id, id)),
    );
    return row && head(row);
  }

  /** The document's link with that token hash (a revocation by URL); undefined when none is. */
  async findByTokenIn(documentId: string, tokenHash: string): Promise<ShareLinkHead | undefined> {
    const [row] = await this.#heads().where(
      and(eq(shareLinks.documentId, documentId), eq(shareLinks.tokenHash, tokenHash)),
    );
    return row && head(row);
  }

  /** The link with that token hash, whatever its state, with its document's title and owner. */
  async findByToken(tokenHash: string): Promise<ShareLinkByToken | undefined> {
    const [row] = await this.db
      .select({
        ...getTableColumns(shareLinks),
        documentTitle: documents.title,
        documentOwnerId: documents.ownerId,
      })
      .from(shareLinks)
      .innerJoin(documents, eq(documents.id, shareLinks.documentId))
      .where(eq(shareLinks.tokenHash, tokenHash));
    return row;
  }

  /** Turns the link off at `at`; answers false when it was already off (or is not the document's). */
  async revoke(documentId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(shareLinks)
      .set({ revokedAt: at })
      .where(
        and(
          eq(shareLinks.documentId, documentId),
          eq(shareLinks.id, id),
          sql`${shareLinks.revokedAt} is null`,
        ),
      )
      .returning({ id: shareLinks.id });
    return rows.length > 0;
  }

  /** Counts a view of the link by a visitor (the hash of their cookie); answers the view's id. */
  async recordView(linkId: string, visitorHash: string, at: Date): Promise<string> {
    const [row] = await this.db
      .insert(shareLinkViews)
      .values({ linkId, visitorHash, createdAt: at })
      .returning({ id: shareLinkViews.id });
    if (!row) throw new Error('insert into share_link_views returned no row');
    return row.id;
  }

  /**
   * Adds reading time to a view of the link, per section, each section's total capped at `capMs`. Answers false
   * when the view is not the link's or began before `since` (a page left open for days reports nothing more).
   */
  async addReading(
    linkId: string,
    viewId: string,
    milliseconds: ReadonlyMap<string, number>,
    limits: { capMs: number; since: Date },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [view] = await tx
        .select({ id: shareLinkViews.id })
        .from(shareLinkViews)
        .where(
          and(
            eq(shareLinkViews.id, viewId),
            eq(shareLinkViews.linkId, linkId),
            sql`${shareLinkViews.createdAt} >= ${limits.since.toISOString()}::timestamptz`,
          ),
        );
      if (!view) return false;
      if (milliseconds.size === 0) return true;
      await tx
        .insert(shareLinkSectionReads)
        .values(
          [...milliseconds].map(([sectionUuid, ms]) => ({
            viewId,
            sectionUuid,
            milliseconds: Math.min(ms, limits.capMs),
          })),
        )
        .onConflictDoUpdate({
          target: [shareLinkSectionReads.viewId, shareLinkSectionReads.sectionUuid],
          set: {
            milliseconds: sql`least(${shareLinkSectionReads.milliseconds} + excluded.milliseconds, ${limits.capMs})`,
          },
        });
      return true;
    });
  }

  /** What the readers of each link did, by link id (a link nobody read has zero views). */
  async stats(linkIds: readonly string[]): Promise<Map<string, ShareLinkStats>> {
    const stats = new Map<string, ShareLinkStats>(
      linkIds.map((id) => [id, { views: 0, visitors: 0, lastViewedAt: null, sections: [] }]),
    );
    if (linkIds.length === 0) return stats;
    const views = await this.db
      .select({
        linkId: shareLinkViews.linkId,
        views: count(),
        visitors: countDistinct(shareLinkViews.visitorHash),
        lastViewedAt: max(shareLinkViews.createdAt),
      })
      .from(shareLinkViews)
      .where(inArray(shareLinkViews.linkId, [...linkIds]))
      .groupBy(shareLinkViews.linkId);
    for (const row of views) {
      const entry = stats.get(row.linkId);
      if (!entry) continue;
      entry.views = row.views;
      entry.visitors = row.visitors;
      entry.lastViewedAt = row.lastViewedAt;
    }
    const milliseconds = sum(shareLinkSectionReads.milliseconds).mapWith(Number);
    const reads = await this.db
      .select({ linkId: shareLinkViews.linkId, uuid: shareLinkSectionReads.sectionUuid, milliseconds })
      .from(shareLinkSectionReads)
      .innerJoin(shareLinkViews, eq(shareLinkViews.id, shareLinkSectionReads.viewId))
      .where(inArray(shareLinkViews.linkId, [...linkIds]))
      .groupBy(shareLinkViews.linkId, shareLinkSectionReads.sectionUuid)
      .orderBy(desc(milliseconds));
    for (const row of reads)
      stats.get(row.linkId)?.sections.push({ uuid: row.uuid, milliseconds: row.milliseconds });
    return stats;
  }

  #heads() {
    return this.db
      .select(headColumns)
      .from(shareLinks)
      .leftJoin(documentVersions, eq(documentVersions.id, shareLinks.versionId))
      .leftJoin(users, eq(users.id, shareLinks.createdBy))
      .$dynamic();
  }
}
