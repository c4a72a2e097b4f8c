import { AI_TEXTS, type PlanwrightClient, PlanwrightError, type TransformAction } from '@planwright/sdk';
import type { SuggestionQueue } from '@planwright/sdk/proposals';
import type { Editor } from '@tiptap/core';
import { SnapshotStore } from '../workspace/snapshot-store';
import { actionProposal } from './action-proposal.js';
import { type TransformTarget, transformTarget } from './ai-actions.js';

/** One AI action as asked: which, how it is labelled, and the user's own words for "Ask AI to…" (E44). */
export interface AiActionRequest {
  readonly action: TransformAction;
  readonly label: string;
  readonly customPrompt?: string;
}

/** Where the AI actions of one editor stand (E32–E34). */
export interface AiActionRunsSnapshot {
  /** The action being answered, while it is. */
  readonly running: AiActionRequest | null;
  /** Why the last one gave nothing to review. */
  readonly failure: string | null;
}

/** The texts of an AI action's outcomes (E34). */
export const AI_ACTION_TEXTS = {
  changed: 'The selected text has changed; select it again and retry.',
  unchanged: 'The AI answered with the same text: nothing to change.',
} as const;

/** The message a failed transform shows (E34): the SDK's words, else the spec's fallback. */
export function transformFailureMessage(error: unknown): string {
  return PlanwrightError.isInstance(error) && error.message.trim() !== ''
    ? error.message
    : AI_TEXTS.transformFailed;
}

/**
 * The AI actions of one editor (E32–E34, E43–E44), framework-free: `run` sends the selection to
 * `client.ai.transformText` and puts the answer in the plan's suggestion queue as a whole change of the
 * selected blocks, reviewed in the text; `retry` (Try again) asks again for the same text; `cancel` drops a
 * call still out.
 */
export class AiActionRuns extends SnapshotStore<AiActionRunsSnapshot> {
  private abort: AbortController | null = null;
  private runs = 0;
  /** The turn being written, while it is (E46). */
  private streaming: string | null = null;
  private readonly asked = new Map<string, { request: AiActionRequest; target: TransformTarget }>();

  constructor(
    private readonly editor: Editor,
    private readonly client: PlanwrightClient,
    private readonly queue: SuggestionQueue,
    private readonly documentUuid: string | null,
  ) {
    super({ running: null, failure: null });
  }

  /** Runs `request` on the editor's selection. */
  run(request: AiActionRequest): void {
    this.ask(request, transformTarget(this.editor.state));
  }

  /** Try again: the turn's suggestions go and the same action is asked again for the same text. */
  retry(turnId: string): boolean {
    const asked = this.asked.get(turnId);
    if (asked === undefined) return false;
    this.queue.remove(turnId);
    this.asked.delete(turnId);
    this.ask(asked.request, asked.target);
    return true;
  }

  /** Whether `turnId` is an AI action this object can ask again. */
  canRetry(turnId: string): boolean {
    return this.asked.has(turnId);
  }

  /** Drops the call still out (and what it wrote so far), and the failure shown. */
  cancel(): void {
    this.abort?.abort();
    this.abort = null;
    this.dropStreaming();
    this.update({ running: null, failure: null });
  }

  dispose(): void {
    this.abort?.abort();
    this.abort = null;
  }

  private ask(request: AiActionRequest, target: TransformTarget): void {
    this.abort?.abort();
    this.dropStreaming();
    const abort = new AbortController();
    this.abort = abort;
    const id = `action-${++this.runs}`;
    this.update({ running: request, failure: null });
    this.client.ai
      .transformText(
        {
          text: target.text,
          action: request.action,
          ...(request.customPrompt ? { customPrompt: request.customPrompt } : {}),
          ...(this.documentUuid ? { documentUuid: this.documentUuid } : {}),
        },
        {
          signal: abort.signal,
          // E46: the answer grows in the text as the AI writes it, a suggestion not yet decidable.
          onText: (text) => {
            if (!abort.signal.aborted) this.streamed(id, request, target, text);
          },
        },
      )
      .then(
        (result) => {
          if (abort.signal.aborted) return;
          this.abort = null;
          this.answered(id, request, target, result.transformedText, result.provider.label);
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          this.abort = null;
          this.dropStreaming();
          this.update({ running: null, failure: transformFailureMessage(error) });
        },
      );
  }

  private streamed(id: string, request: AiActionRequest, target: TransformTarget, text: string): void {
    if (this.editor.isDestroyed) return;
    const proposal = actionProposal(this.editor.state, target, text);
    if (proposal === null) return;
    this.streaming = id;
    this.queue.add({
      id,
      toolName: proposal.toolName,
      payload: proposal.payload,
      origin: 'action',
      label: request.label,
      provider: null,
      whole: true,
      streaming: true,
    });
  }

  private dropStreaming(): void {
    if (this.streaming !== null) this.queue.remove(this.streaming);
    this.streaming = null;
  }

  private answered(
    id: string,
    request: AiActionRequest,
    target: TransformTarget,
    text: string,
    provider: string,
  ): void {
    if (this.editor.isDestroyed) return;
    this.streaming = null;
    if (text === target.text) {
      this.queue.remove(id);
      this.update({ running: null, failure: AI_ACTION_TEXTS.unchanged });
      return;
    }
    const proposal = actionProposal(this.editor.state, target, text);
    if (proposal === null) {
      this.queue.remove(id);
      this.update({ running: null, failure: AI_ACTION_TEXTS.changed });
      return;
    }
    for (const asked of [...this.asked.keys()]) if (!this.queue.has(asked)) this.asked.delete(asked);
    this.asked.set(id, { request, target });
    this.queue.add({
      id,
      toolName: proposal.toolName,
      payload: proposal.payload,
      origin: 'action',
      label: request.label,
      provider,
      whole: true,
    });
    this.update({ running: null, failure: null });
  }
}
