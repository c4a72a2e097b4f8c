import { randomUUID } from 'node:crypto';
import type { ServerFrame } from '@planwright/sdk';
import { parsePartialJson } from 'ai';
import type { ProposalToolName } from '../providers/ai-provider.js';

/** At most one draft frame per proposal this often (CH22): a model writes arguments in many tiny pieces. */
export const DRAFT_FRAME_INTERVAL_MS = 50;

/** Past this much argument text a proposal stops streaming as a draft (its frames would near the frame limit). */
export const MAX_DRAFT_CHARACTERS = 256 * 1024;

interface Draft {
  readonly toolId: string;
  readonly toolName: ProposalToolName;
  text: string;
  sentLength: number;
}

/**
 * The proposals of one answer while the model writes them (CH22): each gets its proposal's `tool_id` when it
 * starts, and its arguments so far go to the client as `tool_generating {tool_id, message_id, partial_payload}`
 * (JSON repaired where the model is mid-way), the first at once and then at most every
 * {@link DRAFT_FRAME_INTERVAL_MS}, so the client draws the edit in the text while it is written.
 */
export class ProposalDrafts {
  private readonly drafts = new Map<string, Draft>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastSent = 0;
  private disposed = false;

  constructor(
    private readonly messageId: string,
    private readonly send: (frame: ServerFrame) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A proposal starts: the frame saying so, with the id its proposal will have. */
  start(toolCallId: string, toolName: ProposalToolName): ServerFrame {
    const toolId = `tool_${randomUUID()}`;
    this.drafts.set(toolCallId, { toolId, toolName, text: '', sentLength: 0 });
    return { type: 'tool_generating', tool_name: toolName, tool_id: toolId, message_id: this.messageId };
  }

  /** More of a proposal's arguments. */
  input(toolCallId: string, delta: string): void {
    const draft = this.drafts.get(toolCallId);
    if (draft === undefined || this.disposed) return;
    draft.text += delta;
    if (draft.text.length > MAX_DRAFT_CHARACTERS) return;
    this.schedule();
  }

  /** The id the complete proposal takes: its draft's, so the client replaces the draft with it. */
  complete(toolCallId: string): string {
    const draft = this.drafts.get(toolCallId);
    this.drafts.delete(toolCallId);
    return draft?.toolId ?? `tool_${randomUUID()}`;
  }

  /** The answer ended: nothing more is sent. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.drafts.clear();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastSent + DRAFT_FRAME_INTERVAL_MS - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, wait);
  }

  private async flush(): Promise<void> {
    for (const draft of [...this.drafts.values()]) {
      if (draft.text.length === draft.sentLength || draft.text.length > MAX_DRAFT_CHARACTERS) continue;
      const length = draft.text.length;
      const parsed = await parsePartialJson(draft.text);
      // Completed or disposed while parsing: the proposal (or nothing) is what the client gets now.
      if (this.disposed || !this.isOpen(draft)) return;
      draft.sentLength = length;
      const value = parsed.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      this.lastSent = this.now();
      this.send({
        type: 'tool_generating',
        tool_name: draft.toolName,
        tool_id: draft.toolId,
        message_id: this.messageId,
        partial_payload: value as Record<string, unknown>,
      });
    }
  }

  private isOpen(draft: Draft): boolean {
    for (const open of this.drafts.values()) if (open === draft) return true;
    return false;
  }
}
