import * as z from 'zod';
import { ChatSession, type ChatSessionOptions } from '../chat/chat-session.js';
import { CHAT_TEXTS } from '../chat/chat-texts.js';
import type { ChatScope } from '../chat/chat-url.js';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { detailEnvelope } from './detail-envelope.js';
import { type ListPage, listSchema } from './list.js';
import { parseInput } from './parse-input.js';
import { wireId } from './wire-fields.js';

/** What a chat is about (spec 001 §7 "List chats"). */
export const CHAT_TARGETS = ['document', 'section', 'subsection'] as const;

/** One of {@link CHAT_TARGETS}. */
export type ChatTarget = (typeof CHAT_TARGETS)[number];

/** The most recent chats a list may ask for at once (the server's cap). */
export const CHATS_PAGE_SIZE_MAX = 50;

/** A chat as the recent-chats list shows it (AI1). */
export interface ChatSummary {
  /** `id`, else `uuid`, else `pk` of the answer, as text. */
  id: string;
  /** "Untitled Chat" until its first message names it (spec 001 §3). */
  title: string;
  /** ISO 8601 date-time; `null` when the server did not say. */
  createdAt: string | null;
  /** ISO 8601 date-time; the creation time when the server gave no update time. */
  updatedAt: string | null;
  target: ChatTarget;
  /** The uuid of the document, section or subsection the chat is about. */
  objectId: string;
  /** The document the chat belongs to; `null` when neither the server nor the caller said. */
  documentUuid: string | null;
}

/** Which chats to list, or what a new chat is about. */
export interface ChatTargetInput {
  target: ChatTarget;
  /** The uuid of the document, section or subsection. */
  objectId: string;
  /** The document holding the section or subsection; needed when its uuid is in several documents. */
  documentUuid?: string;
}

/** Which recent chats to list. */
export interface ChatListQuery extends ChatTargetInput {
  /** 1 to {@link CHATS_PAGE_SIZE_MAX}; the server's default is 10. */
  pageSize?: number;
}

/** The chat calls (spec 001 §7 "List chats", "Create chat"). */
export interface ChatsResource {
  /** The recent chats about a document, section or subsection, newest first (`GET chats/`). */
  list(query: ChatListQuery, options?: CallOptions): Promise<ListPage<ChatSummary>>;
  /** A new, untitled chat (`POST chats/`); another user's document is a 404 `ApiError`. */
  create(input: ChatTargetInput, options?: CallOptions): Promise<ChatSummary>;
}

const identifier = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty');

const targetInputSchema = z.object({
  target: z.enum(CHAT_TARGETS, { error: `Choose one of: ${CHAT_TARGETS.join(', ')}.` }),
  objectId: identifier,
  documentUuid: identifier.optional(),
});

const listQuerySchema = targetInputSchema.extend({
  pageSize: z.number().int().min(1).max(CHATS_PAGE_SIZE_MAX).optional(),
});

const chatWire = z.object({
  id: wireId.nullish(),
  uuid: wireId.nullish(),
  pk: wireId.nullish(),
  title: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  target: z.enum(CHAT_TARGETS).nullish(),
  object_id: wireId.nullish(),
  document_uuid: wireId.nullish(),
});

/** A chat answer, with what the request itself said standing in for fields a server leaves out (AI2, AI3). */
function chatSchema(asked: z.output<typeof targetInputSchema>) {
  return chatWire.transform((wire, ctx): ChatSummary => {
    const id = wire.id || wire.uuid || wire.pk;
    if (!id) {
      ctx.addIssue({ code: 'custom', message: 'Expected id, uuid or pk', path: ['id'], input: wire });
      return z.NEVER;
    }
    const target = wire.target ?? asked.target;
    const objectId = wire.object_id ?? asked.objectId;
    const created = wire.created_at ?? null;
    return {
      id,
      title: wire.title?.trim() ? wire.title : CHAT_TEXTS.untitledChat,
      createdAt: created,
      updatedAt: wire.updated_at ?? created,
      target,
      objectId,
      documentUuid: wire.document_uuid ?? asked.documentUuid ?? (target === 'document' ? objectId : null),
    };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Spec 001 §7: a chat list may also come under `list`; read it as `results` so the house list applies. */
function chatListSchema(asked: z.output<typeof targetInputSchema>) {
  return z.preprocess(
    (body) => {
      if (
        isRecord(body) &&
        Array.isArray(body.list) &&
        !Array.isArray(body.results) &&
        !Array.isArray(body.data)
      ) {
        return { ...body, results: body.list };
      }
      return body;
    },
    listSchema(chatSchema(asked)),
  );
}

function wireTarget(input: z.output<typeof targetInputSchema>) {
  return {
    target: input.target,
    object_id: input.objectId,
    ...(input.documentUuid === undefined ? {} : { document_uuid: input.documentUuid }),
  };
}

/** The chats resource over a request helper. */
export function createChatsResource(http: HttpClient): ChatsResource {
  return {
    list: async (query, options = {}) => {
      const asked = parseInput(listQuerySchema, query, 'chat list query');
      return http.get('chats/', {
        params: { ...wireTarget(asked), page_size: asked.pageSize },
        schema: chatListSchema(asked),
        signal: options.signal,
      });
    },
    create: async (input, options = {}) => {
      const asked = parseInput(targetInputSchema, input, 'chat');
      return http.post('chats/', wireTarget(asked), {
        schema: detailEnvelope(chatSchema(asked)),
        signal: options.signal,
      });
    },
  };
}

/** What `PlanwrightClient.chatSession` leaves to the caller: everything but where, what and whose. */
export type ChatSessionExtras = Omit<ChatSessionOptions, 'baseUrl' | 'scope' | 'getToken'>;

/**
 * The client's base URL as the absolute URL a socket needs (AI20): a relative base (`''`, `/prefix`) is
 * resolved against the page's address, looked up when the session is made.
 */
export function absoluteBaseUrl(baseUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(baseUrl)) return baseUrl;
  const page = (globalThis as { location?: { href?: unknown } }).location?.href;
  if (typeof page !== 'string') return baseUrl;
  return new URL(baseUrl === '' ? '/' : baseUrl, page).toString();
}

/** A {@link ChatSession} on the client's server with the client's session token (AI20, AI21). */
export function chatSessionFor(
  http: HttpClient,
  getToken: () => string | null,
  scope: ChatScope,
  options: ChatSessionExtras = {},
): ChatSession {
  return new ChatSession({ ...options, baseUrl: absoluteBaseUrl(http.baseUrl), scope, getToken });
}
