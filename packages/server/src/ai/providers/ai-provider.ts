/**
 * The one interface every AI provider implements: a model reached through the AI SDK, or the offline
 * drafter. Chat turns and text transforms go through it; nothing else in the server knows which answers.
 */

import type { TransformAction } from '@planwright/sdk';

/** The eight transform actions of spec 001 §7: the SDK's list, one for the client and the server. */
export { TRANSFORM_ACTIONS, type TransformAction } from '@planwright/sdk';

/** The two proposal tools (spec 001 §3). */
export type ProposalToolName = 'propose_full_subsection' | 'propose_partial_edits';

/** Who answers, as the UI shows it and every answer carries it. */
export interface ProviderInfo {
  /** `openai`, `anthropic`, `openai-compatible` or `offline`. */
  name: 'openai' | 'anthropic' | 'openai-compatible' | 'offline';
  model: string;
  /** A human label, e.g. "OpenAI gpt-4.1-mini" or "Offline drafts (no AI model)". */
  label: string;
  /** True for the offline drafter: its output must never be presented as a model's. */
  offline: boolean;
  /** What the provider can honour; a request for something else is answered with a note saying so. */
  supports: { webAccess: boolean; research: boolean; tools: boolean };
}

/** A proposal tool call as it is kept in history. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: ProposalToolName;
  input: unknown;
}

/** What became of a proposal; fed back to the model as the tool's result. */
export interface ToolResultRecord {
  toolCallId: string;
  toolName: ProposalToolName;
  decision: 'accepted' | 'rejected' | 'pending' | 'invalid';
  /** Why an invalid proposal was refused, for the model to correct itself. */
  detail?: string;
}

/** One message of the conversation sent to the provider (after the system prompt). */
export type ChatPromptMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallRecord[] }
  | { role: 'tool'; results: ToolResultRecord[] };

/** One subsection as the offline drafter sees it. */
export interface ScopeSubsection {
  uuid: string;
  title: string;
  userHint: string;
  developerPrompt: string;
  finalized: boolean;
  /** The subsection's current body as Markdown (without its heading). */
  markdown: string;
}

/** The part of the plan a chat is about, in plain fields (the offline drafter reads these, not the prompt). */
export interface ScopeBrief {
  documentTitle: string;
  target: 'document' | 'section' | 'subsection';
  section: {
    uuid: string;
    title: string;
    userHint: string;
    developerPrompt: string;
  } | null;
  /** The subsections in scope: one for a subsection chat, all of the section's for a section chat. */
  subsections: ScopeSubsection[];
}

/** One chat turn. */
export interface ChatTurnRequest {
  /** The assembled system prompt (the context engine's). */
  system: string;
  /** History and, last, the user's new message. */
  messages: ChatPromptMessage[];
  /** Offer the two proposal tools. */
  tools: boolean;
  options: { webAccess: boolean; research: boolean };
  scope: ScopeBrief;
  /** Aborted by the Stop button, a time-out or shutdown. */
  signal: AbortSignal;
}

/** Token counts as the provider reports them (null when it does not). */
export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

/** What a chat turn streams, in order. */
export type AiStreamEvent =
  | { type: 'text'; delta: string }
  /** A tool call has started; its arguments are still streaming. */
  | { type: 'tool-generating'; toolCallId: string; toolName: ProposalToolName }
  /** A complete tool call; `input` is untrusted (validated by the caller). */
  | { type: 'tool-call'; toolCallId: string; toolName: ProposalToolName; input: unknown }
  | { type: 'finish'; usage: TokenUsage; finishReason: string };

/** One text transform (spec 001 §7 `apps/ai/transform/`). */
export interface TransformCall {
  action: TransformAction;
  /** The user's text (plain text or Markdown). */
  text: string;
  customPrompt: string | null;
  /** The instructions the transform module built for a model. */
  system: string;
  prompt: string;
  signal: AbortSignal;
}

export interface TransformResult {
  text: string;
  usage: TokenUsage;
}

/** Why a provider call failed, in words the server can show. */
export type AiFailureKind = 'timeout' | 'cancelled' | 'rate_limited' | 'unavailable' | 'bad_response';

export class AiProviderError extends Error {
  override name = 'AiProviderError';
  constructor(
    readonly kind: AiFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A provider: one per server, shared by every request. */
export interface AiProvider {
  readonly info: ProviderInfo;
  /** Streams one chat turn. Throws (or the iterator throws) {@link AiProviderError}. */
  streamChat(request: ChatTurnRequest): AsyncIterable<AiStreamEvent>;
  /** Transforms one text. Throws {@link AiProviderError}. */
  transform(call: TransformCall): Promise<TransformResult>;
}
