import * as z from 'zod';
import { lazySchema } from '../resources/lazy-schema.js';
import {
  chatAttachmentsSchema,
  MAX_ATTACHMENT_CHARACTERS,
  MAX_ATTACHMENT_NAME_LENGTH,
  MAX_CHAT_ATTACHMENTS,
  type OutgoingFrame,
} from './chat-messages.js';

/**
 * The realtime chat's wire protocol (spec 001 §7, `chat/SPEC.md` C5 and the server's CH1–CH16), said once: the
 * frames each side sends, the close codes and the limits. The server parses what clients send with
 * {@link parseClientFrame} and types what it sends as {@link ServerFrame}; the SDK's session sends
 * {@link ClientFrame}s. A contract test (`tests/integration/chat-protocol-contract.test.ts`) parses every frame
 * each side sends with the other side's schema.
 *
 * The SDK's `parseIncomingFrame` stays more forgiving than {@link ServerFrame} (case-insensitive types, aliases
 * such as `assistant`, history entries dropped one by one): other servers speak spec 001 too.
 */

/** The limits both sides hold to. */
export const CHAT_LIMITS = {
  /** Longest user message, in characters (CH4). */
  messageCharacters: 20_000,
  /** Most files one message carries (C42, CH13). */
  attachments: MAX_CHAT_ATTACHMENTS,
  /** Longest attachment name (C42). */
  attachmentNameCharacters: MAX_ATTACHMENT_NAME_LENGTH,
  /** Most characters of one attachment's text (C42). */
  attachmentCharacters: MAX_ATTACHMENT_CHARACTERS,
  /** Messages a `history_response` holds at most (CH9). */
  historyMessages: 200,
  /** The largest frame the server reads, in bytes (CH8, CH13: three full attachments fit). */
  frameBytes: 2 * 1024 * 1024,
  /** Longest text field the SDK reads from one frame (C5). */
  textCharacters: 1_000_000,
  /** Longest id (client id, tool id, chat id) either side takes. */
  idCharacters: 200,
  /** Longest session token the `authenticate` frame carries. */
  tokenCharacters: 256,
  /** How long the server waits for `authenticate` (CH1). */
  authenticateMs: 10_000,
} as const;

/**
 * How the server closes a chat socket, with the reason texts it sends (CH2). The SDK never reconnects after
 * 4400, 4401, 4403, 4404 or 4429 (C27): trying again cannot help.
 */
export const CHAT_CLOSE = {
  /** A token in the URL ends up in logs and proxies: old clients learn why, and the token is never used. */
  tokenInUrl: {
    code: 4400,
    reason: 'Tokens in the URL are refused: send {"type":"authenticate","token":…} as the first frame.',
  },
  notAuthenticated: { code: 4401, reason: 'Authentication required: sign in again.' },
  originNotAllowed: { code: 4403, reason: 'This origin may not open the chat.' },
  notFound: { code: 4404, reason: 'No such document, section, subsection or chat.' },
  /** Past `CHAT_SOCKETS_PER_USER` on this instance (as HTTP's 429); closing another socket frees a place. */
  tooManySockets: {
    code: 4429,
    reason: 'Too many chat connections for this account: close another tab or window.',
  },
  shuttingDown: { code: 1001, reason: 'The server is restarting.' },
} as const;

/** Close codes after which reconnecting cannot help (C27): the SDK stays in `error` until told otherwise. */
export const FINAL_CHAT_CLOSE_CODES: readonly number[] = [4400, 4401, 4403, 4404, 4429, 401, 403];

/** The two proposal tools (spec 001 §3). */
export const PROPOSAL_TOOL_NAMES = ['propose_full_subsection', 'propose_partial_edits'] as const;

/** Where a `tool_call` frame's tool runs: an MCP server or the web search. */
export const TOOL_CALL_SOURCES = ['mcp', 'search'] as const;

/** The protocol's zod schemas, built on first use (an exported function, so importing the SDK builds none). */
export const chatProtocolSchemas = lazySchema(() => {
  const id = z.string().min(1).max(CHAT_LIMITS.idCharacters);
  const text = z.string().max(CHAT_LIMITS.textCharacters);
  // The server forgives a missing or malformed client id (old clients); the SDK always sends one.
  const clientId = z.string().trim().min(1).max(CHAT_LIMITS.idCharacters).optional().catch(undefined);
  const onOff = z.enum(['on', 'off', 'auto']).optional().catch(undefined);
  const nullableId = id.nullable().optional();

  /** The scope the message was written in (C13): the server refuses one that is not its socket's. */
  const context = z.object({
    document_uuid: id.optional(),
    section_uuid: nullableId,
    subsection_uuid: nullableId,
    chat_id: nullableId,
  });

  const clientFrame = z.discriminatedUnion('type', [
    z.object({ type: z.literal('authenticate'), token: z.string().max(CHAT_LIMITS.tokenCharacters) }),
    z.object({ type: z.literal('ping'), timestamp: z.union([z.number(), z.string().max(100)]).optional() }),
    z.object({
      type: z.literal('history'),
      content: z.string().max(CHAT_LIMITS.idCharacters).optional().catch(undefined),
    }),
    z.object({
      type: z.literal('message'),
      message: z.string().max(CHAT_LIMITS.messageCharacters, {
        message: `A message can be at most ${CHAT_LIMITS.messageCharacters.toLocaleString('en')} characters.`,
      }),
      client_id: clientId,
      options: z
        .object({ web_access: onOff, research: onOff, fact_check: onOff })
        .partial()
        .optional()
        .catch(undefined),
      context: context.optional(),
      // Checked when the message is taken, so an over-limit list answers `invalid_message` (CH13).
      attachments: z.unknown().optional(),
    }),
    z.object({
      type: z.literal('tool_approval'),
      tool_id: id,
      action: z.enum(['accept', 'reject']),
      client_id: clientId,
    }),
    z.object({ type: z.literal('stop'), client_id: clientId }),
  ]);

  const provider = z.object({
    name: z.string().max(100),
    model: z.string().max(200),
    label: z.string().max(200),
    offline: z.boolean(),
  });
  const attachmentInfo = z.object({
    name: z.string().max(CHAT_LIMITS.attachmentNameCharacters),
    characters: z.number().int().nonnegative(),
  });
  const historyMessage = z.object({
    id,
    role: z.enum(['user', 'ai', 'system']),
    content: text,
    timestamp: z.string(),
    client_id: id.nullable(),
    metadata: z.record(z.string(), z.unknown()),
    attachments: z.array(attachmentInfo).max(CHAT_LIMITS.attachments).optional(),
  });
  const proposalStatus = z.enum(['pending', 'accepted', 'rejected']);

  const serverFrame = z.discriminatedUnion('type', [
    z.object({ type: z.literal('authenticated'), chat_id: id.nullable(), provider }),
    z.object({ type: z.literal('pong'), timestamp: z.union([z.number(), z.string(), z.null()]) }),
    z.object({
      type: z.literal('history_response'),
      chat_id: id.nullable(),
      messages: z.array(historyMessage).max(CHAT_LIMITS.historyMessages),
    }),
    z.object({ type: z.literal('human'), id, content: text, client_id: id.nullable(), chat_id: id }),
    z.object({ type: z.literal('ai'), content: text, message_id: id, provider: provider.optional() }),
    z.object({
      type: z.literal('tool_generating'),
      tool_name: z.string().max(200),
      /** The id the proposal will have (its `tool_proposal`'s `tool_id`), so the draft is replaced by it. */
      tool_id: id.optional(),
      message_id: id.optional(),
      /** The proposal's arguments so far, as JSON repaired where the model is mid-way (C54). */
      partial_payload: z.record(z.string(), z.unknown()).optional(),
    }),
    z.object({
      type: z.literal('tool_proposal'),
      tool_id: id,
      tool_name: z.enum(PROPOSAL_TOOL_NAMES),
      payload: z.record(z.string(), z.unknown()),
      timestamp: z.string(),
      message_id: id.nullable(),
      status: proposalStatus,
    }),
    z.object({
      type: z.literal('tool_executing'),
      tool_id: id,
      tool_name: z.string().max(200),
      content: text,
    }),
    z.object({
      type: z.literal('tool_complete'),
      tool_id: id,
      tool_name: z.string().max(200),
      status: proposalStatus,
      content: text,
    }),
    z.object({
      type: z.literal('tool_call'),
      call_id: id,
      message_id: id,
      tool_name: z.string().max(200),
      source: z.enum(TOOL_CALL_SOURCES),
      server: z.string().max(200),
      status: z.enum(['running', 'done', 'failed']),
      duration_ms: z.number().nonnegative().optional(),
      summary: z.string().max(2_000).optional(),
    }),
    z.object({ type: z.literal('system'), content: text }),
    z.object({
      type: z.literal('end_of_response'),
      message_id: id.optional(),
      /** Ended by `stop` (CH11): the text so far is kept and marked. */
      interrupted: z.literal(true).optional(),
      /** A resend the server already had (CH7). */
      duplicate: z.literal(true).optional(),
      client_id: id.nullable().optional(),
    }),
    z.object({
      type: z.literal('error'),
      code: z.enum(['invalid_frame', 'invalid_message', 'blank_message', 'unknown_tool', 'wrong_scope']),
      detail: z.string().max(2_000),
      client_id: id.nullable().optional(),
    }),
  ]);

  return { clientFrame, serverFrame, context, attachments: chatAttachmentsSchema };
});

/** The protocol's schemas, as {@link chatProtocolSchemas} answers them. */
export type ChatProtocolSchemas = ReturnType<typeof chatProtocolSchemas>;

/** A frame a client sends, as the server reads it (spec 001 §7 plus `stop`). */
export type ClientFrame = z.infer<ChatProtocolSchemas['clientFrame']>;
/** A frame the server sends. */
export type ServerFrame = z.infer<ChatProtocolSchemas['serverFrame']>;
/** The `context` of a `message` frame (C13). */
export type ChatFrameContext = z.infer<ChatProtocolSchemas['context']>;
/** The `tool_call` frame: a tool the AI ran on the server (an MCP server's or the web search), for the UI to show. */
export type ToolCallFrame = Extract<ServerFrame, { type: 'tool_call' }>;

/** Every frame the SDK's session sends is one the server's schema takes: checked when the SDK compiles. */
type SessionFramesFitTheProtocol =
  OutgoingFrame extends z.input<ChatProtocolSchemas['clientFrame']> ? true : never;
const sessionFramesFitTheProtocol: SessionFramesFitTheProtocol = true;
void sessionFramesFitTheProtocol;

/** A frame refused, and why (the field and the problem, for the server's `error` frame, CH8). */
export interface ProtocolRefusal {
  refused: true;
  detail: string;
}

function readJsonObject(data: string): { record: Record<string, unknown> } | ProtocolRefusal {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { refused: true, detail: 'A frame must be JSON.' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { refused: true, detail: 'A frame must be a JSON object with a type.' };
  }
  return { record: json as Record<string, unknown> };
}

function refusalOf(error: z.ZodError): ProtocolRefusal {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'type';
  return { refused: true, detail: `${field}: ${issue?.message ?? 'invalid'}` };
}

/** Reads one client frame: JSON text with a known `type` (matched case-insensitively). Never throws (CH8). */
export function parseClientFrame(data: string): ClientFrame | ProtocolRefusal {
  const read = readJsonObject(data);
  if (!('record' in read)) return read;
  const { record } = read;
  const type = typeof record.type === 'string' ? record.type.toLowerCase() : undefined;
  const parsed = chatProtocolSchemas().clientFrame.safeParse({ ...record, type });
  return parsed.success ? parsed.data : refusalOf(parsed.error);
}

/** Reads one server frame strictly, as the contract test does; apps use the forgiving `parseIncomingFrame`. */
export function parseServerFrame(data: string): ServerFrame | ProtocolRefusal {
  const read = readJsonObject(data);
  if (!('record' in read)) return read;
  const parsed = chatProtocolSchemas().serverFrame.safeParse(read.record);
  return parsed.success ? parsed.data : refusalOf(parsed.error);
}
