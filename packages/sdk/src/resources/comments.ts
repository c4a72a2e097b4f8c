import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { longTextInputSchema } from './text-fields.js';
import { optionalText, textOrEmpty, wireId } from './wire-fields.js';

/** `docs/teams.md` "Comments": a message is 1 to 10,000 characters (code points) after trimming. */
export const COMMENT_MAX_LENGTH = 10_000;
/** The text a thread was started on, as it read then: at most 1,000 characters (longer is cut). */
export const COMMENT_QUOTE_MAX_LENGTH = 1_000;

/** A comment message's text: trimmed, 1 to {@link COMMENT_MAX_LENGTH} characters, no control characters. */
export const commentBodySchema = z
  .string({ error: 'Comment must be text' })
  // Trimmed first: the limit counts what is kept.
  .transform((value) => value.trim())
  .pipe(longTextInputSchema('Comment', COMMENT_MAX_LENGTH))
  .refine((value) => value.length > 0, { message: 'Write a comment first' });

/** Someone who wrote or resolved a comment, as a plan's members see them. */
export interface CommentAuthor {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
}

/** One message of a thread. A deleted one keeps its place: `deleted` with an empty `body`. */
export interface CommentMessage {
  id: string;
  author: CommentAuthor | null;
  body: string;
  created_at: string;
  edited_at: string | null;
  deleted: boolean;
}

/** A comment thread on a plan. */
export interface CommentThread {
  id: string;
  /** The subsection it is on (`null` once unknown). */
  subsection_uuid: string | null;
  /** Where in the text, as the editor made it (two Yjs relative positions, base64); `null`: the subsection's first line. */
  anchor: string | null;
  /** The text it was started on, as it read then. */
  quote: string;
  status: 'open' | 'resolved';
  created_by: CommentAuthor | null;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  resolved_by: CommentAuthor | null;
  messages: CommentMessage[];
}

/** A new thread: on a subsection, optionally on a range of its text. */
export interface NewCommentThread {
  subsection: string;
  body: string;
  anchor?: string | null;
  quote?: string;
}

const authorSchema = z
  .object({ id: wireId, username: textOrEmpty, first_name: textOrEmpty, last_name: textOrEmpty })
  .nullish()
  .transform((value) => value ?? null);

const messageSchema: z.ZodType<CommentMessage> = z.object({
  id: wireId,
  author: authorSchema,
  body: textOrEmpty,
  created_at: z.string(),
  edited_at: optionalText,
  deleted: z.boolean(),
});

/** A thread as answered. */
export const commentThreadSchema: z.ZodType<CommentThread> = z.object({
  id: wireId,
  subsection_uuid: optionalText,
  anchor: optionalText,
  quote: textOrEmpty,
  status: z.enum(['open', 'resolved']),
  created_by: authorSchema,
  created_at: z.string(),
  updated_at: z.string(),
  resolved_at: optionalText,
  resolved_by: authorSchema,
  messages: z.array(messageSchema),
});

const newThreadSchema = z.object({
  subsection: z.string().trim().min(1, 'Name the subsection'),
  body: commentBodySchema,
  anchor: z.string().max(4096).nullish(),
  quote: z.string().optional(),
});

/**
 * Comments on a plan (`docs/http-api.md` "Comments"; docs/teams.md): everyone on it reads them; commenters,
 * editors and the owner start threads, reply, resolve and reopen; each edits and deletes their own messages.
 * `@username` in a message mentions a person on the plan, who gets an e-mail (at most one per plan per 10
 * minutes, holding every mention since); a mention of someone not on the plan is refused (400).
 */
export interface CommentsResource {
  /** `GET documents/{uuid}/comments/`: the threads, oldest first, `open`, `resolved` or all (the default). */
  list(
    documentUuid: string,
    filter?: { status?: 'open' | 'resolved' | 'all'; subsection?: string },
    options?: CallOptions,
  ): Promise<CommentThread[]>;
  /** `POST documents/{uuid}/comments/`: a new thread with its first message. */
  create(documentUuid: string, input: NewCommentThread, options?: CallOptions): Promise<CommentThread>;
  /** `POST documents/{uuid}/comments/{thread}/messages/`: a reply. Answers the thread. */
  reply(documentUuid: string, threadId: string, body: string, options?: CallOptions): Promise<CommentThread>;
  /** `PATCH documents/{uuid}/comments/{thread}/messages/{message}/`: changes one's own message. */
  edit(
    documentUuid: string,
    threadId: string,
    messageId: string,
    body: string,
    options?: CallOptions,
  ): Promise<CommentThread>;
  /** `DELETE documents/{uuid}/comments/{thread}/messages/{message}/`: one's own; a thread left empty goes. */
  remove(documentUuid: string, threadId: string, messageId: string, options?: CallOptions): Promise<void>;
  /** `PATCH documents/{uuid}/comments/{thread}/` `{status}`: resolves or reopens a thread. */
  setStatus(
    documentUuid: string,
    threadId: string,
    status: 'open' | 'resolved',
    options?: CallOptions,
  ): Promise<CommentThread>;
}

/** The comments resource over a request helper. */
export function createCommentsResource(http: HttpClient): CommentsResource {
  const base = (uuid: string) => `documents/${pathSegment(uuid, 'uuid')}/comments/`;
  const thread = (uuid: string, id: string) => `${base(uuid)}${pathSegment(id, 'threadId')}/`;
  const message = (uuid: string, id: string, messageId: string) =>
    `${thread(uuid, id)}messages/${pathSegment(messageId, 'messageId')}/`;
  const body = (text: string) => ({ body: parseInput(commentBodySchema, text, 'comment') });
  const answer = { schema: commentThreadSchema };
  return {
    list: async (uuid, filter = {}, options = {}) => {
      const listed = await http.get(base(uuid), {
        params: { status: filter.status, subsection: filter.subsection },
        schema: z.object({ data: z.array(commentThreadSchema) }),
        signal: options.signal,
      });
      return listed.data;
    },
    create: (uuid, input, options = {}) =>
      http.post(base(uuid), parseInput(newThreadSchema, input, 'comment'), {
        ...answer,
        signal: options.signal,
      }),
    reply: (uuid, id, text, options = {}) =>
      http.post(`${thread(uuid, id)}messages/`, body(text), { ...answer, signal: options.signal }),
    edit: (uuid, id, messageId, text, options = {}) =>
      http.patch(message(uuid, id, messageId), body(text), { ...answer, signal: options.signal }),
    remove: async (uuid, id, messageId, options = {}) => {
      await http.delete(message(uuid, id, messageId), { signal: options.signal });
    },
    setStatus: (uuid, id, status, options = {}) =>
      http.patch(thread(uuid, id), { status }, { ...answer, signal: options.signal }),
  };
}
