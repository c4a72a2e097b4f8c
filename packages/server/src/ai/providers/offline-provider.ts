import { createHash } from 'node:crypto';
import { countTokens } from '../context/token-count.js';
import { offlineTransform } from '../transform/offline-transforms.js';
import {
  type AiProvider,
  AiProviderError,
  type AiStreamEvent,
  type ChatPromptMessage,
  type ChatTurnRequest,
  type ProviderInfo,
  type ScopeSubsection,
  type ToolResultRecord,
  type TransformCall,
  type TransformResult,
} from './ai-provider.js';

/** The first line of every offline answer: it must never pass for a model's output. */
export const OFFLINE_DRAFT_NOTICE =
  "**Offline draft** — no AI model is connected; this text was assembled from the plan's hints, not written by a model.";

/** The note the offline drafter's proposals carry. */
export const OFFLINE_PROPOSAL_NOTES = 'Offline draft assembled from the plan’s hints; no AI model wrote it.';

/** How many words one streamed text event holds. */
const WORDS_PER_CHUNK = 4;
/** At most this many hint-derived bullet points in a draft. */
const MAX_BULLETS = 8;
/** A bullet point, a title or a quoted message is cut to this many characters. */
const MAX_INLINE_CHARS = 240;

/** Options of the offline provider (none are needed; the label can be changed for a demo). */
export interface OfflineProviderOptions {
  label?: string;
}

const OFFLINE_INFO: ProviderInfo = {
  name: 'offline',
  model: 'offline-drafter',
  label: 'Offline drafts (no AI model)',
  offline: true,
  supports: { webAccess: false, research: false, tools: true },
};

/** One line of untrusted text for inline use: whitespace (newlines too) collapsed, cut to a readable length. */
function inline(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_INLINE_CHARS ? `${flat.slice(0, MAX_INLINE_CHARS).trimEnd()}…` : flat;
}

/** The sentences (or lines) of a hint, as bullet texts. */
function hintPoints(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map(inline)
    .filter((point) => /[\p{L}\p{N}]/u.test(point));
}

/** The subsection a draft is for: the only one of a subsection chat, else the first that is not finalized. */
function pickSubsection(subsections: readonly ScopeSubsection[], target: string): ScopeSubsection | null {
  if (target === 'subsection') return subsections[0] ?? null;
  return subsections.find((subsection) => !subsection.finalized) ?? null;
}

/** The draft body: the user's text kept as it is, then points to cover and a paragraph scaffold. */
export function offlineDraftBody(subsection: ScopeSubsection): string {
  const title = inline(subsection.title) || 'this subsection';
  const points = [...hintPoints(subsection.userHint), ...hintPoints(subsection.developerPrompt)];
  const unique = [...new Set(points)].slice(0, MAX_BULLETS);
  const parts: string[] = [];
  const existing = subsection.markdown.trim();
  if (existing) parts.push(existing);
  parts.push(unique.length > 0 ? 'Points to cover, from the plan’s hints:' : 'Points to cover:');
  parts.push(
    (unique.length > 0 ? unique : [`What ${title} means for this plan, in your own words.`])
      .map((point) => `- ${point}`)
      .join('\n'),
  );
  parts.push(
    `${existing ? 'To round it off' : 'To start'}, write a short paragraph on ${title}: the situation today, ` +
      'what you plan to do, and how you will know it worked.',
  );
  return parts.join('\n\n');
}

const DECISION_WORDS: Record<ToolResultRecord['decision'], string> = {
  accepted: 'accepted — it is now in the plan',
  rejected: 'rejected — the plan is unchanged',
  pending: 'still waiting for your decision',
  invalid: 'could not be applied',
};

/** Cuts a text into deterministic chunks of a few words that join back to the text. */
function chunksOf(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK)
    chunks.push(words.slice(i, i + WORDS_PER_CHUNK).join(''));
  return chunks;
}

function promptText(system: string, messages: readonly ChatPromptMessage[]): string {
  const parts = [system];
  for (const message of messages) {
    if (message.role === 'tool') parts.push(JSON.stringify(message.results));
    else if (message.role === 'assistant') parts.push(message.content, JSON.stringify(message.toolCalls));
    else parts.push(message.content);
  }
  return parts.join('\n');
}

function cancelled(): AiProviderError {
  return new AiProviderError('cancelled', 'The AI call was cancelled.');
}

/** What an offline answer says and proposes, before it is streamed. */
interface OfflineAnswer {
  text: string;
  proposal: { subsectionUuid: string; content: string } | null;
}

function composeAnswer(request: ChatTurnRequest): OfflineAnswer {
  const lines = [OFFLINE_DRAFT_NOTICE, ''];
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    const said = last.results.map((result) => `Your proposal was ${DECISION_WORDS[result.decision]}.`);
    lines.push(said.length > 0 ? said.join(' ') : 'Noted.');
    return { text: lines.join('\n'), proposal: null };
  }
  const userMessage = last?.role === 'user' ? inline(last.content) : '';
  if (userMessage) lines.push(`You asked: “${userMessage}”`, '');
  const cannot = [
    request.options.webAccess ? 'search the web' : null,
    request.options.research ? 'do research' : null,
  ].filter((item): item is string => item !== null);
  if (cannot.length > 0)
    lines.push(`The offline drafter cannot ${cannot.join(' or ')}; it only uses the plan.`, '');

  const subsection = pickSubsection(request.scope.subsections, request.scope.target);
  if (!subsection) {
    lines.push(
      'There is nothing left to draft here: every subsection in scope is finalized (or there is none).',
    );
    return { text: lines.join('\n'), proposal: null };
  }
  const title = inline(subsection.title) || 'this subsection';
  if (subsection.finalized) {
    lines.push(`**${title}** is finalized, so the offline drafter leaves it as it is.`);
    return { text: lines.join('\n'), proposal: null };
  }
  const body = offlineDraftBody(subsection);
  lines.push(`A draft for **${title}**, from its hints and current text:`, '', body);
  if (request.tools) lines.push('', 'This draft is proposed below; accept it to put it into the plan.');
  return {
    text: lines.join('\n'),
    proposal: request.tools ? { subsectionUuid: subsection.uuid, content: body } : null,
  };
}

/**
 * The offline drafter: no network, no model. Its answers are deterministic (the same request gives the same
 * events), always open with {@link OFFLINE_DRAFT_NOTICE}, and propose a draft built from the hints and the
 * current text through the same tool a model would use, so every chat flow works without an AI service.
 */
export function createOfflineProvider(options: OfflineProviderOptions = {}): AiProvider {
  const info: ProviderInfo = { ...OFFLINE_INFO, label: options.label ?? OFFLINE_INFO.label };
  return {
    info,

    async *streamChat(request: ChatTurnRequest): AsyncGenerator<AiStreamEvent> {
      if (request.signal.aborted) throw cancelled();
      const answer = composeAnswer(request);
      for (const delta of chunksOf(answer.text)) {
        if (request.signal.aborted) throw cancelled();
        yield { type: 'text', delta };
        // One event-loop turn between chunks (no wall-clock wait): the relay sends each as its own frame,
        // so the draft streams like a model's answer, and a Stop in between is heard.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      let toolText = '';
      if (answer.proposal) {
        if (request.signal.aborted) throw cancelled();
        const input = {
          subsection_uuid: answer.proposal.subsectionUuid,
          format: 'markdown' as const,
          content: answer.proposal.content,
          notes: OFFLINE_PROPOSAL_NOTES,
        };
        toolText = JSON.stringify(input);
        // Derived from the whole request, so a repeated turn in a longer history gets a new id.
        const toolCallId = `offline_${createHash('sha256')
          .update(JSON.stringify(request.messages))
          .update('\0')
          .update(toolText)
          .digest('hex')
          .slice(0, 24)}`;
        yield { type: 'tool-generating', toolCallId, toolName: 'propose_full_subsection' };
        if (request.signal.aborted) throw cancelled();
        yield { type: 'tool-call', toolCallId, toolName: 'propose_full_subsection', input };
      }
      if (request.signal.aborted) throw cancelled();
      yield {
        type: 'finish',
        usage: {
          inputTokens: countTokens(promptText(request.system, request.messages)),
          outputTokens: countTokens(answer.text + toolText),
        },
        finishReason: answer.proposal ? 'tool-calls' : 'stop',
      };
    },

    async transform(call: TransformCall): Promise<TransformResult> {
      if (call.signal.aborted) throw cancelled();
      const text = offlineTransform(call.action, call.text, call.customPrompt);
      return {
        text,
        usage: {
          inputTokens: countTokens(`${call.system}\n${call.prompt}`),
          outputTokens: countTokens(text),
        },
      };
    },
  };
}
