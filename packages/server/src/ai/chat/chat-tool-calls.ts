import { randomUUID } from 'node:crypto';
import type { AiStreamEvent } from '../providers/ai-provider.js';
import { STOPPED_SUMMARY } from '../tools/external-tool-limits.js';
import { type ToolCallView, toolCallFrame } from './chat-frames.js';

type CallStart = Extract<AiStreamEvent, { type: 'external-call-start' }>;
type CallEnd = Extract<AiStreamEvent, { type: 'external-call-end' }>;

/**
 * The external tool calls of one AI message (CH17): the `tool_call` frames to send as they start and end,
 * the server note for a failed one, and the list its `metadata.tool_calls` keeps.
 */
export class ChatToolCalls {
  private readonly calls = new Map<string, ToolCallView>();

  constructor(private readonly messageId: string) {}

  /** The `running` frame of a call that starts. */
  started(event: CallStart): Record<string, unknown> {
    const call: ToolCallView = {
      // Our own id: a model's call ids need not be unique across answers (local models say "call_0").
      call_id: `tcall_${randomUUID()}`,
      tool_name: event.toolName,
      source: event.source,
      server: event.server,
      status: 'running',
    };
    this.calls.set(event.toolCallId, call);
    return toolCallFrame(this.messageId, call);
  }

  /** The final frame of a call that ended and, when it failed, the note for the user; null for an unknown call. */
  ended(event: CallEnd): { frame: Record<string, unknown>; call: ToolCallView; note: string | null } | null {
    const started = this.calls.get(event.toolCallId);
    if (!started) return null;
    const { ok, summary } = event.outcome;
    const call: ToolCallView = {
      ...started,
      status: ok ? 'done' : 'failed',
      duration_ms: event.durationMs,
      summary,
    };
    this.calls.set(event.toolCallId, call);
    const what =
      call.source === 'mcp'
        ? `The MCP tool ${call.tool_name} (${call.server})`
        : `The web search (${call.server})`;
    // A call the user stopped needs no note: they know.
    const note = ok || summary === STOPPED_SUMMARY ? null : `${what} failed: ${summary}`;
    return { frame: toolCallFrame(this.messageId, call), call, note };
  }

  /** What the AI message's metadata keeps: `{tool_calls}` when there were calls; one still running is failed. */
  metadata(): { tool_calls?: ToolCallView[] } {
    if (this.calls.size === 0) return {};
    return {
      tool_calls: [...this.calls.values()].map((call) =>
        call.status === 'running' ? { ...call, status: 'failed', summary: STOPPED_SUMMARY } : call,
      ),
    };
  }
}
