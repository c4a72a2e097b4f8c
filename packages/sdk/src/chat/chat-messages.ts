import * as z from 'zod';
import { lazySchema } from '../resources/lazy-schema.js';

/** Most files one message may carry (C42). */
export const MAX_CHAT_ATTACHMENTS = 3;
/** Longest attachment name (C42). */
export const MAX_ATTACHMENT_NAME_LENGTH = 255;
/** Most characters (UTF-16 code units) of one attachment's text (C42). */
export const MAX_ATTACHMENT_CHARACTERS = 100_000;

/** A text file sent with a chat message (C42): its name and its text. */
export interface ChatAttachment {
  name: string;
  content: string;
}

/** What a transcript keeps of an attachment: the name and how long it was, never the text (C42). */
export interface ChatAttachmentInfo {
  readonly name: string;
  readonly characters: number;
}

/**
 * The `attachments` of a `message` frame (C42), shared with the server: at most 3, each a non-blank name of at
 * most 255 characters and at most 100,000 characters of text.
 */
export const chatAttachmentsSchema = z
  .array(
    z.object({
      name: z
        .string()
        .max(MAX_ATTACHMENT_NAME_LENGTH)
        .refine((name) => name.trim() !== '', 'An attachment needs a name.'),
      content: z.string().max(MAX_ATTACHMENT_CHARACTERS),
    }),
  )
  .max(MAX_CHAT_ATTACHMENTS);

/** A role in the transcript. */
export type ChatRole = 'user' | 'ai' | 'system';

/** One history entry as the session keeps it. */
export interface HistoryEntry {
  id: string | null;
  role: ChatRole;
  content: string;
  timestamp: string | null;
  clientId: string | null;
  /** The files a user message carried (C42); absent when none. */
  attachments?: ChatAttachmentInfo[];
  /** An answer stopped or cut short, as the server stored it (`metadata.interrupted`, C51); absent otherwise. */
  interrupted?: boolean;
  /** The tools the AI ran on the server while answering (C55); absent when none. */
  toolCalls?: ChatToolCall[];
}

/** A tool the AI ran on the server while answering (an MCP server's tool or the web search, C55). */
export interface ChatToolCall {
  readonly callId: string;
  readonly toolName: string;
  readonly source: 'mcp' | 'search';
  /** The MCP server's host or the search service's name. */
  readonly server: string;
  readonly status: 'running' | 'done' | 'failed';
  readonly durationMs: number | null;
  /** "3 results", "1,204 characters", or what failed, in the server's fixed words. */
  readonly summary: string | null;
}

/** A proposal's state as the server records it (C44). */
export type ProposalStatus = 'pending' | 'accepted' | 'rejected';

/** An incoming frame after validation (C5): type matched case-insensitively, unknown types kept as `unknown`. */
export type IncomingFrame =
  | { type: 'authenticated'; chatId: string | null; provider: string | null }
  | { type: 'ai'; content: string; messageId: string | null; provider: string | null }
  | { type: 'human'; content: string; clientId: string | null; chatId: string | null }
  | { type: 'system'; content: string }
  | {
      type: 'tool_generating';
      toolName: string | null;
      toolId: string | null;
      messageId: string | null;
      /** The proposal's arguments so far (C54); null when the frame carries none. */
      partialPayload: Readonly<Record<string, unknown>> | null;
    }
  | {
      type: 'end_of_response';
      /** The server already had this message from an earlier socket: its answer went there (C48). */
      duplicate: boolean;
      /** Stopped by the user (server CH11): the text so far stays, marked interrupted (C51). */
      interrupted: boolean;
    }
  | { type: 'history'; messages: HistoryEntry[]; chatId: string | null }
  | {
      type: 'tool_proposal';
      toolId: string;
      toolName: string;
      payload: Record<string, unknown>;
      timestamp: string | null;
      /** The AI message that made it (C44). */
      messageId: string | null;
      /** Decided proposals come back with history (C44); absent means pending. */
      status: ProposalStatus;
    }
  | { type: 'tool_executing'; toolName: string | null; content: string | null }
  | { type: 'tool_complete'; toolName: string | null; content: string | null }
  | { type: 'tool_call'; messageId: string; call: ChatToolCall }
  | { type: 'unknown'; rawType: string };

/** Why a frame was refused. */
export interface FrameFailure {
  type: 'invalid';
  reason: string;
}

/** The longest text taken from one frame: a hostile server must not exhaust memory through one field (C5). */
const MAX_TEXT = 1_000_000;

/** The incoming frames' schemas (C5), built when the first frame arrives rather than at import. */
const frameSchemas = lazySchema(() => {
  const text = z.string().max(MAX_TEXT);
  const optionalText = text.optional().catch(undefined);
  const id = z.union([z.string().max(200), z.number().finite()]).transform(String);

  const toolCall = z
    .object({
      call_id: z.string().min(1).max(200),
      tool_name: z.string().max(200),
      source: z.enum(['mcp', 'search']),
      server: z.string().max(200),
      status: z.enum(['running', 'done', 'failed']),
      duration_ms: z.number().nonnegative().finite().optional().catch(undefined),
      summary: z.string().max(2_000).optional().catch(undefined),
    })
    .transform(
      (wire): ChatToolCall => ({
        callId: wire.call_id,
        toolName: wire.tool_name,
        source: wire.source,
        server: wire.server,
        status: wire.status,
        durationMs: wire.duration_ms ?? null,
        summary: wire.summary ?? null,
      }),
    );

  const historyItem = z
    .object({
      id: id.optional().catch(undefined),
      tool_calls: z.array(toolCall).max(100).optional().catch(undefined),
      role: optionalText,
      type: optionalText,
      sender: optionalText,
      content: z.union([text, z.null()]).optional().catch(undefined),
      message: optionalText,
      timestamp: z.union([text, z.number().finite()]).optional().catch(undefined),
      client_id: optionalText,
      attachments: z
        .array(
          z.object({
            name: z.string().max(MAX_ATTACHMENT_NAME_LENGTH),
            characters: z.number().int().nonnegative(),
          }),
        )
        .max(MAX_CHAT_ATTACHMENTS)
        .optional()
        .catch(undefined),
      metadata: z
        .object({ interrupted: z.boolean().optional().catch(undefined) })
        .passthrough()
        .optional()
        .catch(undefined),
    })
    .passthrough();
  const base = z.object({ type: z.string().max(100) }).passthrough();
  const content = z.object({
    content: z.union([text, z.null()]).optional().catch(undefined),
    message: optionalText,
    message_id: id.optional().catch(undefined),
    id: id.optional().catch(undefined),
    client_id: optionalText,
    tool_name: optionalText,
    tool_id: id.optional().catch(undefined),
    partial_payload: z.record(z.string(), z.unknown()).optional().catch(undefined),
    chat_id: id.optional().catch(undefined),
    duplicate: z.boolean().optional().catch(undefined),
    interrupted: z.boolean().optional().catch(undefined),
    // The server sends `{ name, model, label, offline }`; the label is what people read (C43).
    provider: z
      .union([z.string().max(200), z.object({ label: z.string().max(200) }).transform((p) => p.label)])
      .optional()
      .catch(undefined),
  });
  const proposal = z.object({
    tool_id: id,
    tool_name: z.enum(['propose_full_subsection', 'propose_partial_edits']),
    payload: z.record(z.string(), z.unknown()),
    timestamp: z.union([text, z.number().finite()]).optional().catch(undefined),
    message_id: id.optional().catch(undefined),
    status: z.enum(['pending', 'accepted', 'rejected']).optional().catch(undefined),
  });
  const history = z.object({
    messages: z.array(z.unknown()).max(10_000).optional().catch(undefined),
    history: z.array(z.unknown()).max(10_000).optional().catch(undefined),
  });
  return { historyItem, base, content, proposal, history, toolCall };
});

function roleOf(raw: string | undefined): ChatRole | null {
  switch ((raw ?? '').toLowerCase()) {
    case 'user':
    case 'human':
      return 'user';
    case 'ai':
    case 'assistant':
      return 'ai';
    case 'system':
      return 'system';
    default:
      return null;
  }
}

function historyEntryOf(raw: unknown): HistoryEntry | null {
  const parsed = frameSchemas().historyItem.safeParse(raw);
  if (!parsed.success) return null;
  const item = parsed.data;
  const role = roleOf(item.role ?? item.type ?? item.sender);
  const content = item.content ?? item.message;
  if (!role || typeof content !== 'string') return null;
  return {
    id: item.id ?? null,
    role,
    content,
    timestamp: item.timestamp === undefined ? null : String(item.timestamp),
    clientId: item.client_id ?? null,
    ...(item.attachments && item.attachments.length > 0 ? { attachments: item.attachments } : {}),
    ...(role === 'ai' && item.metadata?.interrupted === true ? { interrupted: true } : {}),
    ...(role === 'ai' && item.tool_calls && item.tool_calls.length > 0 ? { toolCalls: item.tool_calls } : {}),
  };
}

/**
 * Reads one socket frame: JSON text with a string `type`. Never throws; hostile input gives a `FrameFailure` (C5).
 */
export function parseIncomingFrame(data: unknown): IncomingFrame | FrameFailure {
  if (typeof data !== 'string') return { type: 'invalid', reason: 'frame is not text' };
  if (data.length > MAX_TEXT * 2) return { type: 'invalid', reason: 'frame too large' };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { type: 'invalid', reason: 'frame is not JSON' };
  }
  const base = frameSchemas().base.safeParse(json);
  if (!base.success) return { type: 'invalid', reason: 'frame has no type' };
  const type = base.data.type.toLowerCase();
  const fields = frameSchemas().content.safeParse(json);
  const f = fields.success ? fields.data : {};
  const body = (): string | null => {
    const value = f.content ?? f.message;
    return typeof value === 'string' ? value : null;
  };
  switch (type) {
    case 'authenticated':
      return { type: 'authenticated', chatId: f.chat_id ?? null, provider: f.provider ?? null };
    case 'ai':
    case 'assistant': {
      const content = body();
      if (content === null) return { type: 'invalid', reason: `${type} frame without content` };
      return { type: 'ai', content, messageId: f.message_id ?? null, provider: f.provider ?? null };
    }
    case 'human': {
      const content = body();
      if (content === null) return { type: 'invalid', reason: 'human frame without content' };
      return { type: 'human', content, clientId: f.client_id ?? null, chatId: f.chat_id ?? null };
    }
    case 'system': {
      const content = body();
      if (content === null) return { type: 'invalid', reason: 'system frame without content' };
      return { type: 'system', content };
    }
    case 'tool_generating': {
      const partial = f.partial_payload;
      return {
        type: 'tool_generating',
        toolName: f.tool_name ?? null,
        toolId: f.tool_id ?? null,
        messageId: f.message_id ?? null,
        partialPayload: partial ?? null,
      };
    }
    case 'end_of_response':
      return {
        type: 'end_of_response',
        duplicate: f.duplicate === true,
        interrupted: f.interrupted === true,
      };
    case 'history':
    case 'history_response': {
      const parsed = frameSchemas().history.safeParse(json);
      const list = parsed.success ? (parsed.data.messages ?? parsed.data.history) : undefined;
      if (!list) return { type: 'invalid', reason: 'history frame without messages' };
      const messages = list.map(historyEntryOf).filter((entry): entry is HistoryEntry => entry !== null);
      return { type: 'history', messages, chatId: f.chat_id ?? null };
    }
    case 'tool_proposal': {
      const parsed = frameSchemas().proposal.safeParse(json);
      if (!parsed.success) return { type: 'invalid', reason: 'malformed tool_proposal' };
      const p = parsed.data;
      return {
        type: 'tool_proposal',
        toolId: p.tool_id,
        toolName: p.tool_name,
        payload: p.payload,
        timestamp: p.timestamp === undefined ? null : String(p.timestamp),
        messageId: p.message_id ?? null,
        status: p.status ?? 'pending',
      };
    }
    case 'tool_executing':
      return { type: 'tool_executing', toolName: f.tool_name ?? null, content: body() };
    case 'tool_complete':
      return { type: 'tool_complete', toolName: f.tool_name ?? null, content: body() };
    case 'tool_call': {
      const call = frameSchemas().toolCall.safeParse(json);
      if (!call.success || f.message_id === undefined)
        return { type: 'invalid', reason: 'malformed tool_call frame' };
      return { type: 'tool_call', messageId: f.message_id, call: call.data };
    }
    default:
      return { type: 'unknown', rawType: type };
  }
}

/** Chat options as the user sets them (spec 001 §3); only web_access and research go on the wire (C13). */
export interface ChatSendOptions {
  webAccess?: boolean;
  research?: boolean;
  /** Text files sent with the message (C42): at most 3, names ≤ 255 and texts ≤ 100,000 characters. */
  attachments?: readonly ChatAttachment[];
}

/** The context sent with each message: the scope ids. */
export interface ChatWireContext {
  document_uuid: string;
  section_uuid: string | null;
  subsection_uuid: string | null;
  chat_id: string | null;
}

/** Outgoing frames (spec 001 §7). */
export type OutgoingFrame =
  | { type: 'authenticate'; token: string }
  | { type: 'ping'; timestamp: number }
  | { type: 'history'; content: string }
  | {
      type: 'message';
      message: string;
      client_id: string;
      options: { web_access: 'on' | 'off'; research: 'on' | 'off' };
      context: ChatWireContext;
      attachments?: ChatAttachment[];
    }
  | { type: 'tool_approval'; tool_id: string; action: 'accept' | 'reject'; client_id: string }
  /** Stops the answer being streamed (not in spec 001; the Stop button of issue 8). */
  | { type: 'stop'; client_id: string };

/** Builds the `message` frame; options become "on"/"off" (C13). */
export function messageFrame(
  message: string,
  clientId: string,
  options: ChatSendOptions,
  context: ChatWireContext,
): OutgoingFrame {
  const frame: Extract<OutgoingFrame, { type: 'message' }> = {
    type: 'message',
    message,
    client_id: clientId,
    options: { web_access: options.webAccess ? 'on' : 'off', research: options.research ? 'on' : 'off' },
    context,
  };
  const attachments = options.attachments ?? [];
  if (attachments.length > 0) {
    frame.attachments = attachments.map(({ name, content }) => ({ name, content }));
  }
  return frame;
}
