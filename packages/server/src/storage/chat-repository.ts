import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { chatMessages, chatProposals, chats } from '../db/schema.js';

/** What a chat is about (spec 001 §7 `chats/` `target`). */
export type ChatTarget = 'document' | 'section' | 'subsection';
export type ChatRecord = typeof chats.$inferSelect;
export type ChatMessageRecord = typeof chatMessages.$inferSelect;
export type ChatProposalRecord = typeof chatProposals.$inferSelect;
export type ProposalStatus = ChatProposalRecord['status'];

/** The title a chat has until its first message names it (spec 001 §3). */
export const UNTITLED_CHAT = 'Untitled Chat';

/** Where a chat belongs: its owner, document, and the object (document id, section or subsection uuid). */
export interface ChatScopeKey {
  ownerId: string;
  documentId: string;
  target: ChatTarget;
  objectId: string;
}

/** What `decideProposal` found. */
export type ProposalDecision =
  | { kind: 'decided'; proposal: ChatProposalRecord }
  | { kind: 'already'; proposal: ChatProposalRecord }
  | { kind: 'missing' };

/**
 * Chats, their messages and proposals: everything a chat socket serves is here, so a restart or another
 * instance serves the same history and pending proposals.
 */
export class ChatRepository {
  constructor(private readonly db: Db) {}

  async create(
    scope: ChatScopeKey & { sectionUuid: string | null; title?: string },
    now: Date,
  ): Promise<ChatRecord> {
    const [row] = await this.db
      .insert(chats)
      .values({
        ownerId: scope.ownerId,
        documentId: scope.documentId,
        target: scope.target,
        objectId: scope.objectId,
        sectionUuid: scope.sectionUuid,
        title: scope.title ?? UNTITLED_CHAT,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('chat insert returned nothing');
    return row;
  }

  /** The owner's chat with this id, or undefined (another user's chat is as good as missing). */
  async findOwned(id: string, ownerId: string): Promise<ChatRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(chats)
      .where(and(eq(chats.id, id), eq(chats.ownerId, ownerId)));
    return row;
  }

  /** The most recently used chat of a scope: where a socket without a chat id continues. */
  async latest(scope: ChatScopeKey): Promise<ChatRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(chats)
      .where(scopeWhere(scope))
      .orderBy(desc(chats.updatedAt), desc(chats.createdAt))
      .limit(1);
    return row;
  }

  /**
   * The owner's recent chats about an object, newest first. Without a document, chats about that object in
   * any of the owner's documents (section uuids can repeat across documents).
   */
  async listRecent(
    query: { ownerId: string; target: ChatTarget; objectId: string; documentId?: string },
    limit: number,
  ): Promise<ChatRecord[]> {
    const conditions = [
      eq(chats.ownerId, query.ownerId),
      eq(chats.target, query.target),
      eq(chats.objectId, query.objectId),
    ];
    if (query.documentId) conditions.push(eq(chats.documentId, query.documentId));
    return this.db
      .select()
      .from(chats)
      .where(and(...conditions))
      .orderBy(desc(chats.updatedAt), desc(chats.createdAt))
      .limit(limit);
  }

  /** Names an untitled chat (from its first message); a chat that has a title keeps it. */
  async nameIfUntitled(chatId: string, title: string, now: Date): Promise<void> {
    await this.db
      .update(chats)
      .set({ title, updatedAt: now })
      .where(and(eq(chats.id, chatId), eq(chats.title, UNTITLED_CHAT)));
  }

  async touch(chatId: string, now: Date): Promise<void> {
    await this.db.update(chats).set({ updatedAt: now }).where(eq(chats.id, chatId));
  }

  /**
   * Appends a message. A user message whose client id is already in the chat is not added again: the
   * existing one comes back with `duplicate` (a client that resends after a drop must not double it).
   */
  async addMessage(message: {
    chatId: string;
    role: ChatMessageRecord['role'];
    content: string;
    clientId?: string | null;
    toolCalls?: unknown[];
    metadata?: Record<string, unknown>;
    createdAt: Date;
  }): Promise<{ message: ChatMessageRecord; duplicate: boolean }> {
    const [row] = await this.db
      .insert(chatMessages)
      .values({
        chatId: message.chatId,
        role: message.role,
        content: message.content,
        clientId: message.clientId ?? null,
        toolCalls: message.toolCalls ?? [],
        metadata: message.metadata ?? {},
        createdAt: message.createdAt,
      })
      .onConflictDoNothing({ target: [chatMessages.chatId, chatMessages.clientId] })
      .returning();
    if (row) return { message: row, duplicate: false };
    const [existing] = await this.db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, message.chatId), eq(chatMessages.clientId, message.clientId ?? '')));
    if (!existing) throw new Error('chat message insert conflicted but nothing was found');
    return { message: existing, duplicate: true };
  }

  /** Whether the chat already holds the user message the sender gave this id. */
  async hasClientMessage(chatId: string, clientId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.clientId, clientId)))
      .limit(1);
    return row !== undefined;
  }

  /** Replaces an AI message's text, tool calls and metadata (at the end of its stream). */
  async updateMessage(
    id: string,
    patch: { content: string; toolCalls?: unknown[]; metadata?: Record<string, unknown> },
  ): Promise<void> {
    await this.db
      .update(chatMessages)
      .set({
        content: patch.content,
        ...(patch.toolCalls ? { toolCalls: patch.toolCalls } : {}),
        ...(patch.metadata ? { metadata: patch.metadata } : {}),
      })
      .where(eq(chatMessages.id, id));
  }

  /**
   * CH19: the instance answering a user message holds a lease on it (`metadata.lease_until`, epoch ms) and renews
   * it while the answer streams; an instance that dies stops renewing.
   */
  async renewAnswerLease(messageId: string, until: number): Promise<void> {
    await this.db
      .update(chatMessages)
      .set({
        metadata: sql`jsonb_set(${chatMessages.metadata}, '{lease_until}', to_jsonb(${until}::bigint))`,
      })
      .where(eq(chatMessages.id, messageId));
  }

  /** CH19: the answer is stored (or refused): nobody needs to answer the message again. */
  async releaseAnswerLease(messageId: string): Promise<void> {
    await this.db
      .update(chatMessages)
      .set({ metadata: sql`${chatMessages.metadata} - 'lease_until'` })
      .where(eq(chatMessages.id, messageId));
  }

  /**
   * CH19: the chat's last user message when its answer was being made by an instance whose lease ran out before
   * it `now` (it died mid-answer) and no finished answer follows it, taken over for the caller until `until`:
   * one instance wins (a compare-and-set on the lease). A partial answer the dead instance left is closed
   * (`partial` false, `interrupted`, `lost`), so history shows what remains of it as cut short.
   */
  async claimOrphanedQuestion(
    chatId: string,
    now: number,
    until: number,
  ): Promise<ChatMessageRecord | undefined> {
    const [question] = await this.db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.role, 'user')))
      .orderBy(desc(chatMessages.position))
      .limit(1);
    const lease = (question?.metadata as Record<string, unknown> | undefined)?.lease_until;
    if (!question || typeof lease !== 'number' || lease >= now) return undefined;
    const later = await this.db
      .select()
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.chatId, chatId),
          eq(chatMessages.role, 'ai'),
          sql`${chatMessages.position} > ${question.position}`,
        ),
      );
    if (later.some((message) => (message.metadata as Record<string, unknown>).partial !== true))
      return undefined;
    const [claimed] = await this.db
      .update(chatMessages)
      .set({
        metadata: sql`jsonb_set(${chatMessages.metadata}, '{lease_until}', to_jsonb(${until}::bigint))`,
      })
      .where(
        and(
          eq(chatMessages.id, question.id),
          sql`(${chatMessages.metadata}->>'lease_until')::bigint < ${now}`,
        ),
      )
      .returning();
    if (!claimed) return undefined;
    for (const dead of later) {
      // An empty one stays partial, so history leaves it out (CH9); one with text shows, marked cut short.
      if (dead.content === '') continue;
      await this.db
        .update(chatMessages)
        .set({
          metadata: sql`${chatMessages.metadata} || '{"partial": false, "interrupted": true, "lost": true}'::jsonb`,
        })
        .where(eq(chatMessages.id, dead.id));
    }
    return claimed;
  }

  /** The chat's last `limit` messages, oldest first. */
  /** Who wrote an AI message, as its provider's label was when it answered; null when unknown. */
  async providerOf(messageId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ metadata: chatMessages.metadata })
      .from(chatMessages)
      .where(eq(chatMessages.id, messageId))
      .limit(1);
    // Stored as the provider's summary `{name, model, label, offline}` (older rows: the label alone).
    const provider = (row?.metadata as { provider?: unknown } | undefined)?.provider;
    const label =
      typeof provider === 'object' && provider !== null ? (provider as { label?: unknown }).label : provider;
    return typeof label === 'string' && label.trim() !== '' ? label.slice(0, 200) : null;
  }

  async messagesOf(chatId: string, limit: number): Promise<ChatMessageRecord[]> {
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.chatId, chatId))
      .orderBy(desc(chatMessages.position))
      .limit(limit);
    return rows.reverse();
  }

  async addProposal(proposal: {
    toolId: string;
    chatId: string;
    messageId: string;
    providerToolCallId: string;
    toolName: ChatProposalRecord['toolName'];
    payload: unknown;
    createdAt: Date;
  }): Promise<ChatProposalRecord> {
    const [row] = await this.db.insert(chatProposals).values(proposal).returning();
    if (!row) throw new Error('proposal insert returned nothing');
    return row;
  }

  /** The chat's proposals in the order they were made (optionally only some statuses). */
  async proposalsOf(chatId: string, statuses?: readonly ProposalStatus[]): Promise<ChatProposalRecord[]> {
    const conditions = [eq(chatProposals.chatId, chatId)];
    if (statuses) conditions.push(inArray(chatProposals.status, [...statuses]));
    return this.db
      .select()
      .from(chatProposals)
      .where(and(...conditions))
      .orderBy(asc(chatProposals.createdAt), asc(chatProposals.toolId));
  }

  /**
   * Records the user's decision: a pending proposal takes either; a rejected one may still be accepted
   * (CH15); anything else (a resend, another tab, a decision on an accepted one) changes nothing.
   */
  async decideProposal(
    chatId: string,
    toolId: string,
    status: 'accepted' | 'rejected',
    now: Date,
  ): Promise<ProposalDecision> {
    const [row] = await this.db
      .update(chatProposals)
      .set({ status, decidedAt: now })
      .where(
        and(
          eq(chatProposals.chatId, chatId),
          eq(chatProposals.toolId, toolId),
          status === 'accepted'
            ? or(eq(chatProposals.status, 'pending'), eq(chatProposals.status, 'rejected'))
            : eq(chatProposals.status, 'pending'),
        ),
      )
      .returning();
    if (row) return { kind: 'decided', proposal: row };
    const [existing] = await this.db
      .select()
      .from(chatProposals)
      .where(and(eq(chatProposals.chatId, chatId), eq(chatProposals.toolId, toolId)));
    return existing ? { kind: 'already', proposal: existing } : { kind: 'missing' };
  }

  /** How many chats and messages a user has (for tests and the admin). */
  async countMessages(chatId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(chatMessages)
      .where(eq(chatMessages.chatId, chatId));
    return row?.n ?? 0;
  }
}

function scopeWhere(scope: ChatScopeKey) {
  return and(
    eq(chats.ownerId, scope.ownerId),
    eq(chats.documentId, scope.documentId),
    eq(chats.target, scope.target),
    eq(chats.objectId, scope.objectId),
  );
}
