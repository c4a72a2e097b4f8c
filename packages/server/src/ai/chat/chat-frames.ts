import { z } from 'zod';

/** The longest user message a chat takes (characters). */
export const MAX_CHAT_MESSAGE_LENGTH = 20_000;

const clientId = z.string().trim().min(1).max(200).optional().catch(undefined);
const onOff = z.enum(['on', 'off', 'auto']).optional().catch(undefined);

/** Frames a client sends (spec 001 §7 "Realtime chat", plus `stop`). Everything else is refused. */
const incomingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticate'), token: z.string().max(256) }),
  z.object({ type: z.literal('ping'), timestamp: z.union([z.number(), z.string().max(100)]).optional() }),
  z.object({ type: z.literal('history'), content: z.string().max(200).optional().catch(undefined) }),
  z.object({
    type: z.literal('message'),
    message: z.string().max(MAX_CHAT_MESSAGE_LENGTH, {
      message: `A message can be at most ${MAX_CHAT_MESSAGE_LENGTH.toLocaleString('en')} characters.`,
    }),
    client_id: clientId,
    options: z
      .object({ web_access: onOff, research: onOff, fact_check: onOff })
      .partial()
      .optional()
      .catch(undefined),
    // Checked when the message is taken, so an over-limit list answers `invalid_message` (CH13).
    attachments: z.unknown().optional(),
  }),
  z.object({
    type: z.literal('tool_approval'),
    tool_id: z.string().min(1).max(200),
    action: z.enum(['accept', 'reject']),
    client_id: clientId,
  }),
  /** Cancels the answer being streamed (the Stop button). */
  z.object({ type: z.literal('stop'), client_id: clientId }),
]);

export type IncomingChatFrame = z.infer<typeof incomingSchema>;

/** A frame the server could not take, and why (sent back as an `error` frame). */
export interface FrameRefusal {
  refused: true;
  detail: string;
}

/** Reads one client frame: JSON text with a known `type` (matched case-insensitively). Never throws. */
export function parseChatFrame(data: string): IncomingChatFrame | FrameRefusal {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { refused: true, detail: 'A frame must be JSON.' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { refused: true, detail: 'A frame must be a JSON object with a type.' };
  }
  const record = json as Record<string, unknown>;
  const type = typeof record.type === 'string' ? record.type.toLowerCase() : undefined;
  const parsed = incomingSchema.safeParse({ ...record, type });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'type';
    return { refused: true, detail: `${field}: ${issue?.message ?? 'invalid'}` };
  }
  return parsed.data;
}

/** How a chat socket is closed (spec 001 §7; the SDK's C27 reads 4401 and 4403). */
export const CHAT_CLOSE = {
  notAuthenticated: { code: 4401, reason: 'Authentication required: sign in again.' },
  /** A token in the URL ends up in logs and proxies: old clients learn why, and the token is never used. */
  tokenInUrl: {
    code: 4400,
    reason: 'Tokens in the URL are refused: send {"type":"authenticate","token":…} as the first frame.',
  },
  originNotAllowed: { code: 4403, reason: 'This origin may not open the chat.' },
  notFound: { code: 4404, reason: 'No such document, section, subsection or chat.' },
  /** Past CHAT_SOCKETS_PER_USER on this instance (as HTTP's 429); closing another socket frees a place. */
  tooManySockets: {
    code: 4429,
    reason: 'Too many chat connections for this account: close another tab or window.',
  },
  shuttingDown: { code: 1001, reason: 'The server is restarting.' },
} as const;

/** An external tool call (an MCP server's tool or the web search) as the chat shows and keeps it (CH17). */
export interface ToolCallView {
  /** Our id for the call (`tcall_…`), the same in its `running` and its final frame and in the history. */
  call_id: string;
  tool_name: string;
  source: 'mcp' | 'search';
  /** The MCP server's host (`mcp.example.com:8443`) or the search service's name (`Brave Search`). */
  server: string;
  status: 'running' | 'done' | 'failed';
  /** How long the call took; on the final frame only. */
  duration_ms?: number;
  /** On the final frame: "3 results", "1,204 characters", or what failed in fixed words. */
  summary?: string;
}

/** The `tool_call` frame: `running` when a call starts, `done` or `failed` when it ends (CH17). */
export function toolCallFrame(messageId: string, call: ToolCallView): Record<string, unknown> {
  return { type: 'tool_call', message_id: messageId, ...call };
}
