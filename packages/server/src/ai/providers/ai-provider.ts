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
  /** The transform actions it can do; absent means all of {@link TRANSFORM_ACTIONS} (a model can). */
  transformActions?: readonly TransformAction[];
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

/** One block of a subsection as the offline assistant sees it: what its partial edits target. */
export interface ScopeBlock {
  /** The block's real `nodeId`, or null when it has none (such a block is never targeted). */
  nodeId: string | null;
  /** The node type: `paragraph`, `heading`, `bulletList`, `orderedList`, `blockquote`, … */
  type: string;
  /** The block as Markdown, as the context engine shows it. */
  markdown: string;
}

/** One subsection as the offline assistant sees it. */
export interface ScopeSubsection {
  uuid: string;
  title: string;
  userHint: string;
  developerPrompt: string;
  finalized: boolean;
  /** The subsection's current body as Markdown (without its heading). */
  markdown: string;
  /** The same body block by block, with each block's `nodeId`. */
  blocks: ScopeBlock[];
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

/** Where an external tool's answers come from, as the chat's `tool_call` frames name it. */
export type ExternalToolSource = 'mcp' | 'search';

/**
 * What one external tool call came to. `output` is what the model reads (already capped); `summary` is what
 * the user sees, in fixed words (never the remote server's own text on failure).
 */
export type ExternalToolOutcome =
  | {
      ok: true;
      output: string;
      summary: string;
      /** Pages the result points to (web search results), for the answer's sources when it cites none. */
      sources?: Array<{ title: string; url: string }>;
    }
  | { ok: false; output: string; summary: string };

/**
 * A tool outside the plan that the model may call within a turn (an MCP server's tool, `web_search`). Unlike the
 * proposal tools it runs on the server at once and its result goes straight back to the model.
 */
export interface ExternalToolDefinition {
  /** The name the model calls it by (`^[a-zA-Z0-9_-]{1,64}$`, never a proposal tool's). */
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  inputSchema: Record<string, unknown>;
  source: ExternalToolSource;
  /** Who answers it: the MCP server's host or the search provider's name. */
  server: string;
  /**
   * Runs one call with untrusted `input`. Never throws: time limits, size caps and failures are settled
   * inside and reported as an outcome.
   */
  execute(input: unknown, signal: AbortSignal): Promise<ExternalToolOutcome>;
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
  /**
   * Tools the model may call and have answered within this turn (AP44); omitted or empty: none. A provider
   * that cannot run tools ignores them.
   */
  externalTools?: readonly ExternalToolDefinition[];
  /** The most external tool calls this turn may make; later calls are answered with a refusal (AP46). */
  maxExternalCalls?: number;
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
  /** More of a proposal tool call's arguments (JSON text), as the model writes them: drawn in the text as it streams. */
  | { type: 'tool-input'; toolCallId: string; delta: string }
  /** A complete tool call; `input` is untrusted (validated by the caller). */
  | { type: 'tool-call'; toolCallId: string; toolName: ProposalToolName; input: unknown }
  /** An external tool call starts running on the server. */
  | {
      type: 'external-call-start';
      toolCallId: string;
      toolName: string;
      source: ExternalToolSource;
      server: string;
    }
  /** It ended; `durationMs` is measured around `execute`. */
  | {
      type: 'external-call-end';
      toolCallId: string;
      toolName: string;
      source: ExternalToolSource;
      server: string;
      outcome: ExternalToolOutcome;
      durationMs: number;
    }
  | { type: 'finish'; usage: TokenUsage; finishReason: string };

/** One text transform (spec 001 §7 `apps/ai/transform/`). */
export interface TransformCall {
  action: TransformAction;
  /** The user's text (plain text or Markdown). */
  text: string;
  /** `text` is a selection from a longer text (text mode), not a whole body or title (structured mode). */
  selection?: boolean;
  customPrompt: string | null;
  /** The instructions the transform module built for a model. */
  system: string;
  prompt: string;
  signal: AbortSignal;
  /** Receives the answer's text as it is written (TR57); a provider that cannot stream calls it with the whole. */
  onText?: (delta: string) => void;
}

export interface TransformResult {
  text: string;
  usage: TokenUsage;
}

/** Why a provider call failed, in words the server can show. */
export type AiFailureKind = 'timeout' | 'cancelled' | 'rate_limited' | 'unavailable' | 'bad_response';

/**
 * The provider cannot do this action without a model (the offline provider's refused transforms): the route
 * answers 409 `ai_model_required` instead of pretending.
 */
export class AiModelRequiredError extends Error {
  override name = 'AiModelRequiredError';
  constructor(readonly action: TransformAction) {
    super(`The ${action} action needs an AI model.`);
  }
}

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
