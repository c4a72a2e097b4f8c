import { COMMENT_QUOTE_MAX_LENGTH, commentBodySchema } from '@planwright/sdk';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { usernameOf } from '../auth/username.js';
import type { MentionDigests } from '../comments/mention-digests.js';
import { resolveMentions } from '../comments/mentions.js';
import { permitted } from '../documents/document-access.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { withinRateLimits } from '../http/rate-limited.js';
import { uuidParam } from '../http/uuid-param.js';
import type { CommentPerson, CommentThreadRecord } from '../storage/comment-repository.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { recordActivity } from '../structure/activity-entries.js';
import { notFound } from '../structure/not-found.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** Comments that mention people send e-mail: limited per author like the account e-mails. */
export const MENTION_RATE_LIMIT = { limit: 30, windowMs: 60 * 60_000 } as const;

const uuidText = z
  .string()
  .refine((value) => uuidParam(value) !== undefined, 'Not a subsection of this document');
const newThreadInput = z.object({
  subsection: uuidText,
  body: commentBodySchema,
  // Two Yjs relative positions as the editor encoded them: opaque here, bounded.
  anchor: z.base64('anchor must be base64').max(4096, 'anchor is too long').nullish(),
  quote: z
    .string()
    .optional()
    .transform((value) =>
      Array.from((value ?? '').replace(/[\p{Cc}\p{Cs}]/gu, ' '))
        .slice(0, COMMENT_QUOTE_MAX_LENGTH)
        .join('')
        .trim(),
    ),
});
const bodyInput = z.object({ body: commentBodySchema });
const statusInput = z.object({
  status: z.enum(['open', 'resolved'], { error: 'status must be open or resolved' }),
});
const listQuery = z.object({
  status: z.enum(['open', 'resolved', 'all']).default('all'),
  subsection: uuidText.optional(),
});

type DocumentParams = { uuid: string };
type ThreadParams = DocumentParams & { thread: string };
type MessageParams = ThreadParams & { message: string };

function personBody(person: CommentPerson | null) {
  return (
    person && {
      id: person.id,
      username: usernameOf(person.email),
      first_name: person.firstName,
      last_name: person.lastName,
    }
  );
}

/** A thread as answered (`docs/http-api.md` "Comments"). */
export function threadBody(thread: CommentThreadRecord) {
  return {
    id: thread.id,
    subsection_uuid: thread.subsectionUuid,
    anchor: thread.anchor ? Buffer.from(thread.anchor).toString('base64') : null,
    quote: thread.quote,
    status: thread.resolvedAt ? 'resolved' : 'open',
    created_by: personBody(thread.createdBy),
    created_at: thread.createdAt.toISOString(),
    updated_at: thread.updatedAt.toISOString(),
    resolved_at: thread.resolvedAt?.toISOString() ?? null,
    resolved_by: personBody(thread.resolvedBy),
    messages: thread.messages.map((message) => ({
      id: message.id,
      author: personBody(message.author),
      body: message.body,
      created_at: message.createdAt.toISOString(),
      edited_at: message.editedAt?.toISOString() ?? null,
      deleted: message.deletedAt !== null,
    })),
  };
}

export interface CommentRouteDeps extends WorkspaceRouteDeps {
  mentions: MentionDigests;
}

/**
 * Comments on a document (docs/teams.md "Comments"): threads on a subsection (and a range of its text), replies,
 * editing and deleting one's own messages, resolving and reopening, `@username` mentions e-mailed as digests.
 * Everyone on the plan reads them; commenters, editors and the owner write. Each change is announced to the
 * people with the plan open, on every instance.
 */
export function commentRoutes(app: FastifyInstance, deps: CommentRouteDeps): void {
  const { storage, sessions, now, mentions } = deps;

  async function documentFor(
    request: FastifyRequest<{ Params: DocumentParams }>,
    action: 'read' | 'comment',
  ) {
    const user = await requireUser(request, sessions);
    const id = uuidParam(request.params.uuid);
    if (id === undefined) throw notFound('document');
    return { user, doc: permitted(await storage.documents.findHeadFor(id, user.id), action) };
  }

  async function threadOf(documentId: string, threadId: string) {
    const thread = await storage.comments.findThread(documentId, threadId);
    if (!thread) throw new HttpError(404, 'not_found', 'Comment not found.');
    return thread;
  }

  /**
   * Who `body` mentions among the people on the plan; a mention of anyone else is refused, and a comment that
   * mentions people counts against the author's limit (429, nothing saved).
   */
  async function mentionsIn(body: string, documentId: string, author: UserRecord, reply: FastifyReply) {
    const people = await storage.documentMembers.peopleOf(documentId);
    const { userIds, unknown } = resolveMentions(body, people);
    if (unknown.length > 0) {
      throw new HttpError(400, 'invalid', 'Invalid input: body', [
        {
          param: 'body',
          code: 'unknown_mention',
          message: `${unknown.map((name) => `@${name}`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not on this plan: mention someone it is shared with.`,
        },
      ]);
    }
    const others = userIds.filter((id) => id !== author.id);
    const allowed =
      others.length === 0 ||
      (await withinRateLimits(
        storage,
        reply,
        [[`mention:user:${author.id}`, MENTION_RATE_LIMIT]],
        now(),
        'Too many mentions sent. Please wait a while and try again.',
      ));
    return allowed ? others : null;
  }

  /** Saves a message's mentions and the announcement in its transaction; e-mails once it has committed. */
  async function written(
    tx: TransactionalStorage,
    documentId: string,
    messageId: string | null,
    mentioned: readonly string[],
  ) {
    if (messageId !== null) await tx.comments.addMentions(mentioned, documentId, messageId, now());
    await tx.liveStates.announce({ kind: 'document', id: documentId }, 'comments');
  }

  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/comments/', async (request) => {
    const { doc } = await documentFor(request, 'read');
    const query = parseInput(listQuery, request.query ?? {});
    const threads = await storage.comments.threadsOf(doc.id, {
      status: query.status,
      subsectionUuid: query.subsection,
    });
    return { data: threads.map(threadBody) };
  });

  app.post<{ Params: DocumentParams }>('/api/v1/documents/:uuid/comments/', async (request, reply) => {
    const { user, doc } = await documentFor(request, 'comment');
    const input = parseInput(newThreadInput, request.body ?? {});
    const subsection = input.subsection.toLowerCase();
    if (!(await storage.documents.hasSubsection(doc.id, subsection))) {
      throw new HttpError(400, 'invalid', 'Invalid input: subsection', [
        { param: 'subsection', code: 'not_found', message: 'Not a subsection of this document' },
      ]);
    }
    const mentioned = await mentionsIn(input.body, doc.id, user, reply);
    if (mentioned === null) return reply;
    const created = await storage.transaction(async (tx) => {
      const made = await tx.comments.createThread({
        documentId: doc.id,
        subsectionUuid: subsection,
        anchor: input.anchor ? Buffer.from(input.anchor, 'base64') : null,
        quote: input.quote,
        authorId: user.id,
        body: input.body,
        at: now(),
      });
      await written(tx, doc.id, made.messageId, mentioned);
      await recordActivity(
        tx,
        {
          ownerId: doc.ownerId,
          actor: user,
          target: 'document',
          objectId: doc.id,
          targetLabel: doc.title,
          at: now(),
        },
        [{ verb: 'commented', message: `commented on the document ${JSON.stringify(doc.title)}`, level: 1 }],
      );
      return made;
    });
    await mentions.deliver(mentioned, doc.id);
    return reply.status(201).send(threadBody(await threadOf(doc.id, created.threadId)));
  });

  app.post<{ Params: ThreadParams }>(
    '/api/v1/documents/:uuid/comments/:thread/messages/',
    async (request, reply) => {
      const { user, doc } = await documentFor(request, 'comment');
      const thread = await threadOf(doc.id, request.params.thread);
      const { body } = parseInput(bodyInput, request.body ?? {});
      const mentioned = await mentionsIn(body, doc.id, user, reply);
      if (mentioned === null) return reply;
      await storage.transaction(async (tx) => {
        const messageId = await tx.comments.addMessage(thread.id, user.id, body, now());
        await written(tx, doc.id, messageId, mentioned);
      });
      await mentions.deliver(mentioned, doc.id);
      return reply.status(201).send(threadBody(await threadOf(doc.id, thread.id)));
    },
  );

  app.patch<{ Params: ThreadParams }>('/api/v1/documents/:uuid/comments/:thread/', async (request) => {
    const { user, doc } = await documentFor(request, 'comment');
    const thread = await threadOf(doc.id, request.params.thread);
    const { status } = parseInput(statusInput, request.body ?? {});
    const at = now();
    if ((status === 'resolved') !== (thread.resolvedAt !== null)) {
      await storage.transaction(async (tx) => {
        await tx.comments.setResolved(thread.id, status === 'resolved' ? { by: user.id, at } : null, at);
        await written(tx, doc.id, null, []);
        await recordActivity(
          tx,
          {
            ownerId: doc.ownerId,
            actor: user,
            target: 'document',
            objectId: doc.id,
            targetLabel: doc.title,
            at,
          },
          [
            {
              verb: status === 'resolved' ? 'resolved a comment' : 'reopened a comment',
              message: `${status === 'resolved' ? 'resolved' : 'reopened'} a comment on the document ${JSON.stringify(doc.title)}`,
              level: 1,
            },
          ],
        );
      });
    }
    return threadBody(await threadOf(doc.id, thread.id));
  });

  /** The caller's own message of a thread, or 404 (someone else's is not theirs to change). */
  async function ownMessage(documentId: string, threadId: string, messageId: string, user: UserRecord) {
    const thread = await threadOf(documentId, threadId);
    const message = await storage.comments.findMessage(thread.id, messageId);
    if (!message) throw new HttpError(404, 'not_found', 'Comment not found.');
    if (message.authorId !== user.id) {
      throw new HttpError(404, 'not_permitted', 'You can only change or delete your own comments.');
    }
    return { thread, message };
  }

  app.patch<{ Params: MessageParams }>(
    '/api/v1/documents/:uuid/comments/:thread/messages/:message/',
    async (request, reply) => {
      const { user, doc } = await documentFor(request, 'comment');
      const { thread, message } = await ownMessage(
        doc.id,
        request.params.thread,
        request.params.message,
        user,
      );
      const { body } = parseInput(bodyInput, request.body ?? {});
      const found = await mentionsIn(body, doc.id, user, reply);
      if (found === null) return reply;
      // Only those the edit mentions anew are told: the others had their e-mail.
      const before = resolveMentions(message.body, await storage.documentMembers.peopleOf(doc.id)).userIds;
      const mentioned = found.filter((id) => !before.includes(id));
      await storage.transaction(async (tx) => {
        await tx.comments.editMessage(message.id, body, now());
        await written(tx, doc.id, message.id, mentioned);
      });
      await mentions.deliver(mentioned, doc.id);
      return threadBody(await threadOf(doc.id, thread.id));
    },
  );

  app.delete<{ Params: MessageParams }>(
    '/api/v1/documents/:uuid/comments/:thread/messages/:message/',
    async (request, reply) => {
      const { user, doc } = await documentFor(request, 'comment');
      const { thread, message } = await ownMessage(
        doc.id,
        request.params.thread,
        request.params.message,
        user,
      );
      await storage.transaction(async (tx) => {
        await tx.comments.deleteMessage(thread.id, message.id, now());
        await written(tx, doc.id, null, []);
      });
      return reply.status(204).send();
    },
  );
}
