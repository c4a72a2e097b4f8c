import { randomUUID } from 'node:crypto';
import type { ToolCallFrame } from '@planwright/sdk';
import type { AiStreamEvent } from '../providers/ai-provider.js';
import { STOPPED_SUMMARY } from '../tools/external-tool-limits.js';
import { type ToolCallView, toolCallFrame } from './chat-frames.js';

type CallStart = Extract<AiStreamEvent, { type: 'external-call-start' }>;
type CallEnd = Extract<AiStreamEvent, { type: 'external-call-end' }>;

/** How many sources an answer that cited none is given (CH21). */
const MAX_LISTED_SOURCES = 5;

/** A link's text with Markdown's brackets and emphasis characters escaped, on one line. */
function markdownLabel(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\[\]*_`<>]/g, (char) => `\\${char}`);
}

/** A URL that cannot end a Markdown link early (parentheses, spaces and angle brackets encoded). */
function markdownUrl(url: string): string {
  return url.replace(
    /[()\s<>]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * The external tool calls of one AI message (CH20): the `tool_call` frames to send as they start and end,
 * the server note for a failed one, and the list its `metadata.tool_calls` keeps.
 */
export class ChatToolCalls {
  private readonly calls = new Map<string, ToolCallView>();
  private readonly sources = new Map<string, string>();

  constructor(private readonly messageId: string) {}

  /** The `running` frame of a call that starts. */
  started(event: CallStart): ToolCallFrame {
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
  ended(event: CallEnd): { frame: ToolCallFrame; call: ToolCallView; note: string | null } | null {
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
    if (event.outcome.ok)
      for (const source of event.outcome.sources ?? []) this.sources.set(source.url, source.title);
    const what =
      call.source === 'mcp'
        ? `The MCP tool ${call.tool_name} (${call.server})`
        : `The web search (${call.server})`;
    // A call the user stopped needs no note: they know.
    const note = ok || summary === STOPPED_SUMMARY ? null : `${what} failed: ${summary}`;
    return { frame: toolCallFrame(this.messageId, call), call, note };
  }

  /**
   * What to add to an answer that searched the web but links none of the pages it found (CH21): a line of
   * Markdown links to the first five, so a search-grounded answer always carries its sources. Empty otherwise.
   */
  sourcesMissingFrom(answer: string): string {
    if (this.sources.size === 0) return '';
    const urls = [...this.sources.keys()];
    if (urls.some((url) => answer.includes(url))) return '';
    const links = urls
      .slice(0, MAX_LISTED_SOURCES)
      .map((url) => `[${markdownLabel(this.sources.get(url) ?? url)}](${markdownUrl(url)})`);
    return `${answer.trim() === '' ? '' : '\n\n'}**Sources:** ${links.join(' · ')}`;
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
