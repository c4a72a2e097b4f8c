import { and, asc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { commentMessages, commentThreads, documents, mentionNotices, users } from '../db/schema.js';
import { isUuid } from '../db/uuid.js';

/** Who wrote something, as a plan's members see them. */
export interface CommentPerson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** One message of a thread; a deleted one keeps its place with an empty body. */
export interface CommentMessageRecord {
  id: string;
  author: CommentPerson | null;
  body: string;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
}

/** A thread with its messages in order. */
export interface CommentThreadRecord {
  id: string;
  documentId: string;
  subsectionUuid: string | null;
  anchor: Uint8Array | null;
  quote: string;
  createdBy: CommentPerson | null;
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  resolvedBy: CommentPerson | null;
  messages: CommentMessageRecord[];
}

/** A mention waiting in a digest, with what the e-mail says of it. */
export interface MentionRecord {
  threadId: string;
  messageId: string;
  body: string;
  authorEmail: string | null;
  authorFirstName: string | null;
  authorLastName: string | null;
  createdAt: Date;
}

/** Which threads a list holds. */
export interface ThreadFilter {
  status?: 'open' | 'resolved' | 'all';
  subsectionUuid?: string | undefined;
}

const creator = alias(users, 'creator');
const resolver = alias(users, 'resolver');
const author = alias(users, 'author');

function person(
  row: { id: string | null; email: string | null; firstName: string | null; lastName: string | null } | null,
) {
  // A left join with nobody there answers null for the whole group.
  return row === null || row.id === null || row.email === null
    ? null
    : { id: row.id, email: row.email, firstName: row.firstName ?? '', lastName: row.lastName ?? '' };
}

const personColumns = (table: typeof creator | typeof resolver | typeof author) => ({
  id: table.id,
  email: table.email,
  firstName: table.firstName,
  lastName: table.lastName,
});

/** Comment threads, their messages, and the mentions waiting to be e-mailed (docs/teams.md "Comments"). */
export class CommentRepository {
  constructor(private readonly db: Db) {}

  /** The document's threads (oldest first) with their messages, as `filter` says. */
  async threadsOf(documentId: string, filter: ThreadFilter = {}): Promise<CommentThreadRecord[]> {
    const conditions: SQL[] = [eq(commentThreads.documentId, documentId)];
    if (filter.status === 'open') conditions.push(isNull(commentThreads.resolvedAt));
    if (filter.status === 'resolved') conditions.push(sql`${commentThreads.resolvedAt} is not null`);
    if (filter.subsectionUuid !== undefined)
      conditions.push(eq(commentThreads.subsectionUuid, filter.subsectionUuid));
    return this.#threads(and(...conditions) as SQL);
  }

  /** One thread of the document, or undefined. */
  async findThread(documentId: string, threadId: string): Promise<CommentThreadRecord | undefined> {
    if (!isUuid(threadId)) return undefined;
    const [thread] = await this.#threads(
      and(eq(commentThreads.documentId, documentId), eq(commentThreads.id, threadId)) as SQL,
    );
    return thread;
  }

  async #threads(where: SQL): Promise<CommentThreadRecord[]> {
    const rows = await this.db
      .select({
        thread: commentThreads,
        creator: personColumns(creator),
        resolver: personColumns(resolver),
      })
      .from(commentThreads)
      .leftJoin(creator, eq(creator.id, commentThreads.createdBy))
      .leftJoin(resolver, eq(resolver.id, commentThreads.resolvedBy))
      .where(where)
      .orderBy(asc(commentThreads.seq));
    if (rows.length === 0) return [];
    const messages = await this.db
      .select({ message: commentMessages, author: personColumns(author) })
      .from(commentMessages)
      .leftJoin(author, eq(author.id, commentMessages.authorId))
      .where(
        inArray(
          commentMessages.threadId,
          rows.map((row) => row.thread.id),
        ),
      )
      .orderBy(asc(commentMessages.seq));
    const byThread = new Map<string, CommentMessageRecord[]>();
    for (const { message, author: writer } of messages) {
      const list = byThread.get(message.threadId) ?? [];
      list.push({
        id: message.id,
        author: person(writer),
        body: message.deletedAt ? '' : message.body,
        createdAt: message.createdAt,
        editedAt: message.editedAt,
        deletedAt: message.deletedAt,
      });
      byThread.set(message.threadId, list);
    }
    return rows.map(({ thread, creator: made, resolver: resolved }) => ({
      id: thread.id,
      documentId: thread.documentId,
      subsectionUuid: thread.subsectionUuid,
      anchor: thread.anchor,
      quote: thread.quote,
      createdBy: person(made),
      createdAt: thread.createdAt,
      updatedAt: thread.updatedAt,
      resolvedAt: thread.resolvedAt,
      resolvedBy: person(resolved),
      messages: byThread.get(thread.id) ?? [],
    }));
  }

  /** Starts a thread with its first message. Run inside a transaction. */
  async createThread(input: {
    documentId: string;
    subsectionUuid: string | null;
    anchor: Uint8Array | null;
    quote: string;
    authorId: string;
    body: string;
    at: Date;
  }): Promise<{ threadId: string; messageId: string }> {
    const [thread] = await this.db
      .insert(commentThreads)
      .values({
        documentId: input.documentId,
        subsectionUuid: input.subsectionUuid,
        anchor: input.anchor,
        quote: input.quote,
        createdBy: input.authorId,
        createdAt: input.at,
        updatedAt: input.at,
      })
      .returning({ id: commentThreads.id });
    if (!thread) throw new Error('insert into comment_threads returned no row');
    const messageId = await this.addMessage(thread.id, input.authorId, input.body, input.at);
    return { threadId: thread.id, messageId };
  }

  /** Adds a message to a thread (and marks the thread changed); answers its id. */
  async addMessage(threadId: string, authorId: string, body: string, at: Date): Promise<string> {
    const [message] = await this.db
      .insert(commentMessages)
      .values({ threadId, authorId, body, createdAt: at })
      .returning({ id: commentMessages.id });
    if (!message) throw new Error('insert into comment_messages returned no row');
    await this.db.update(commentThreads).set({ updatedAt: at }).where(eq(commentThreads.id, threadId));
    return message.id;
  }

  /** A message of a thread that is not deleted, with its author's id. */
  async findMessage(threadId: string, messageId: string) {
    if (!isUuid(messageId)) return undefined;
    const [row] = await this.db
      .select()
      .from(commentMessages)
      .where(
        and(
          eq(commentMessages.threadId, threadId),
          eq(commentMessages.id, messageId),
          isNull(commentMessages.deletedAt),
        ),
      );
    return row;
  }

  async editMessage(messageId: string, body: string, at: Date): Promise<void> {
    await this.db
      .update(commentMessages)
      .set({ body, editedAt: at })
      .where(eq(commentMessages.id, messageId));
  }

  /**
   * Deletes a message: its text goes, its place stays (the replies after it still answer something). A thread
   * with nothing left to read goes too. Answers whether the thread went.
   */
  async deleteMessage(threadId: string, messageId: string, at: Date): Promise<boolean> {
    await this.db
      .update(commentMessages)
      .set({ body: '', deletedAt: at })
      .where(eq(commentMessages.id, messageId));
    const [left] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(commentMessages)
      .where(and(eq(commentMessages.threadId, threadId), isNull(commentMessages.deletedAt)));
    if ((left?.n ?? 0) > 0) return false;
    await this.db.delete(commentThreads).where(eq(commentThreads.id, threadId));
    return true;
  }

  /** Resolves (with who and when) or reopens a thread. */
  async setResolved(threadId: string, resolved: { by: string; at: Date } | null, at: Date): Promise<void> {
    await this.db
      .update(commentThreads)
      .set({ resolvedAt: resolved?.at ?? null, resolvedBy: resolved?.by ?? null, updatedAt: at })
      .where(eq(commentThreads.id, threadId));
  }

  /** How many open threads each subsection of the document has (the sidebar's counts). */
  async openCountsOf(documentId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ subsectionUuid: commentThreads.subsectionUuid, n: sql<number>`count(*)::int` })
      .from(commentThreads)
      .where(and(eq(commentThreads.documentId, documentId), isNull(commentThreads.resolvedAt)))
      .groupBy(commentThreads.subsectionUuid);
    return new Map(rows.flatMap((row) => (row.subsectionUuid ? [[row.subsectionUuid, row.n] as const] : [])));
  }

  /** Queues a mention of each of `userIds` in a message, to be e-mailed. */
  async addMentions(
    userIds: readonly string[],
    documentId: string,
    messageId: string,
    at: Date,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insert(mentionNotices)
      .values(userIds.map((userId) => ({ userId, documentId, messageId, createdAt: at })));
  }

  /**
   * Takes the mentions of `userId` on a plan waiting to be e-mailed, if their last e-mail for it was at least
   * `windowMs` before `now` (else none: the next digest holds them). Marks them sent. Serialised per person
   * and plan, so two instances never send the same digest twice.
   */
  async takeDigest(
    userId: string,
    documentId: string,
    now: Date,
    windowMs: number,
  ): Promise<MentionRecord[]> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mentions:${userId}:${documentId}`}))`);
      const [last] = await tx
        .select({ at: sql<Date | null>`max(${mentionNotices.sentAt})` })
        .from(mentionNotices)
        .where(and(eq(mentionNotices.userId, userId), eq(mentionNotices.documentId, documentId)));
      const lastAt = last?.at ? new Date(last.at) : null;
      if (lastAt && now.getTime() - lastAt.getTime() < windowMs) return [];
      const taken = await tx
        .update(mentionNotices)
        .set({ sentAt: now })
        .where(
          and(
            eq(mentionNotices.userId, userId),
            eq(mentionNotices.documentId, documentId),
            isNull(mentionNotices.sentAt),
          ),
        )
        .returning({ messageId: mentionNotices.messageId });
      if (taken.length === 0) return [];
      const rows = await tx
        .select({
          threadId: commentMessages.threadId,
          messageId: commentMessages.id,
          body: commentMessages.body,
          authorEmail: author.email,
          authorFirstName: author.firstName,
          authorLastName: author.lastName,
          createdAt: commentMessages.createdAt,
          deletedAt: commentMessages.deletedAt,
        })
        .from(commentMessages)
        .leftJoin(author, eq(author.id, commentMessages.authorId))
        .where(
          inArray(
            commentMessages.id,
            taken.map((row) => row.messageId),
          ),
        )
        .orderBy(asc(commentMessages.seq));
      // A mention deleted before its digest went is not e-mailed.
      return rows.filter((row) => row.deletedAt === null).map(({ deletedAt: _deleted, ...row }) => row);
    });
  }

  /** The people and plans with mentions waiting whose digest is due at `now`. */
  async dueDigests(now: Date, windowMs: number): Promise<Array<{ userId: string; documentId: string }>> {
    const since = new Date(now.getTime() - windowMs);
    const recipient = { userId: mentionNotices.userId, documentId: mentionNotices.documentId };
    const [waiting, recent] = await Promise.all([
      this.db.selectDistinct(recipient).from(mentionNotices).where(isNull(mentionNotices.sentAt)).limit(500),
      this.db.selectDistinct(recipient).from(mentionNotices).where(gt(mentionNotices.sentAt, since)),
    ]);
    const notYet = new Set(recent.map((row) => `${row.userId} ${row.documentId}`));
    return waiting.filter((row) => !notYet.has(`${row.userId} ${row.documentId}`));
  }

  /** The title of a document, for an e-mail. */
  async documentTitle(documentId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ title: documents.title })
      .from(documents)
      .where(eq(documents.id, documentId));
    return row?.title;
  }
}
