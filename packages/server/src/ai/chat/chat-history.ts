import { z } from 'zod';
import type { ChatMessageRecord, ChatProposalRecord } from '../../storage/chat-repository.js';
import type { ChatPromptMessage, ProposalToolName, ToolResultRecord } from '../providers/ai-provider.js';
import { storedAttachmentsOf, withAttachments } from './chat-attachments.js';
import type { ToolCallView } from './chat-frames.js';

/** How many of a chat's latest messages a history answer and a prompt start from. */
export const HISTORY_LIMIT = 200;
/** How many of the latest messages a prompt starts from; the context engine keeps what fits its budget. */
export const PROMPT_HISTORY_LIMIT = 60;

/** A tool call as an AI message keeps it: the model's id and input, our `tool_id` when it became a proposal. */
export interface StoredToolCall {
  toolCallId: string;
  toolName: ProposalToolName;
  input: unknown;
  /** The proposal's id; null when the call was refused. */
  toolId: string | null;
  /** Why the call was refused (fed back to the model). */
  invalid?: string;
}

const storedToolCallSchema = z.object({
  toolCallId: z.string(),
  toolName: z.enum(['propose_full_subsection', 'propose_partial_edits']),
  input: z.unknown(),
  toolId: z.string().nullable(),
  invalid: z.string().optional(),
});

const externalCallSchema = z.object({
  call_id: z.string(),
  tool_name: z.string(),
  source: z.enum(['mcp', 'search']),
  server: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  duration_ms: z.number().optional(),
  summary: z.string().optional(),
});

/** The external tool calls an AI message made, as kept in its `metadata.tool_calls` (CH20). */
export function externalCallsOf(message: ChatMessageRecord): ToolCallView[] {
  const parsed = z
    .array(externalCallSchema)
    .safeParse((message.metadata as Record<string, unknown>).tool_calls);
  return parsed.success ? parsed.data : [];
}

function toolCallsOf(message: ChatMessageRecord): StoredToolCall[] {
  const parsed = z.array(storedToolCallSchema).safeParse(message.toolCalls);
  return parsed.success ? parsed.data : [];
}

/** An AI message whose stream died with its server and left nothing to show. */
function isEmptyPartial(message: ChatMessageRecord): boolean {
  const metadata = message.metadata as Record<string, unknown>;
  return (
    message.role === 'ai' &&
    message.content === '' &&
    toolCallsOf(message).length === 0 &&
    externalCallsOf(message).length === 0 &&
    metadata.partial === true
  );
}

/**
 * The `history_response` entries (spec 001 §7): id, role, content, timestamp, client_id, metadata, and a
 * user message's `attachments` as names and lengths only (CH13): their text never goes back out.
 */
export function historyEntries(messages: readonly ChatMessageRecord[]) {
  return messages
    .filter((message) => !isEmptyPartial(message))
    .map((message) => {
      const {
        attachments: _text,
        tool_calls: _calls,
        ...metadata
      } = message.metadata as Record<string, unknown>;
      const attachments = storedAttachmentsOf(message.metadata);
      const calls = message.role === 'ai' ? externalCallsOf(message) : [];
      return {
        id: message.id,
        role: message.role,
        content: message.content,
        timestamp: message.createdAt.toISOString(),
        client_id: message.clientId,
        metadata,
        ...(attachments.length > 0
          ? { attachments: attachments.map(({ name, characters }) => ({ name, characters })) }
          : {}),
        // An AI message's MCP and web-search calls, in the order they ran (CH20).
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      };
    });
}

/**
 * The conversation as the model reads it: user and AI messages in order, each AI tool call followed by
 * its result — the user's decision, `pending` while undecided, or why it was refused. System messages
 * are the server's notes to the user and stay out.
 */
export function promptMessagesOf(
  messages: readonly ChatMessageRecord[],
  proposals: readonly ChatProposalRecord[],
): ChatPromptMessage[] {
  const decisions = new Map(proposals.map((proposal) => [proposal.toolId, proposal.status]));
  const out: ChatPromptMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      // The model keeps reading a file attached earlier in the chat (CH13).
      out.push({
        role: 'user',
        content: withAttachments(message.content, storedAttachmentsOf(message.metadata)),
      });
      continue;
    }
    if (message.role !== 'ai' || isEmptyPartial(message)) continue;
    const calls = toolCallsOf(message);
    out.push({
      role: 'assistant',
      content: message.content,
      toolCalls: calls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
    });
    if (calls.length === 0) continue;
    const results: ToolResultRecord[] = calls.map((call) => {
      if (call.invalid !== undefined || call.toolId === null) {
        return {
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          decision: 'invalid',
          detail: call.invalid ?? 'refused',
        };
      }
      return {
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        decision: decisions.get(call.toolId) ?? 'pending',
      };
    });
    out.push({ role: 'tool', results });
  }
  return out;
}

/** A chat's title from its first message: its first line, whitespace collapsed, at most 60 characters. */
export function chatTitleFrom(message: string): string {
  const line = message
    .split(/\r?\n/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .find((part) => part !== '');
  if (!line) return 'Untitled Chat';
  const chars = Array.from(line);
  if (chars.length <= 60) return line;
  const cut = chars.slice(0, 59).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length >= 30 ? atWord : cut}…`;
}
