import { createHash } from 'node:crypto';
import { countTokens } from '../context/token-count.js';
import {
  isOfflineAction,
  OFFLINE_TRANSFORM_ACTIONS,
  offlineTransform,
} from '../transform/offline-transforms.js';
import { loadSpellChecker, NO_SPELL_CHECKER } from '../transform/spell-checker.js';
import {
  AiModelRequiredError,
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
import {
  editsFor,
  extractFacts,
  guidancePoints,
  inline,
  missingPoints,
  OFFLINE_COMMANDS,
  type OfflineEdit,
  recogniseIntent,
} from './offline-assistant.js';

/** The first line of every offline answer: it must never pass for a model's output. */
export const OFFLINE_DRAFT_NOTICE =
  '**Offline assistant** — no AI model is connected; this answer was put together by rules from the plan’s hints and your own text, not written by a model.';

/** The note the offline assistant's proposals carry. */
export const OFFLINE_PROPOSAL_NOTES =
  'Built by the offline assistant from your own words only; no AI model wrote it.';

/** How many words one streamed text event holds. */
const WORDS_PER_CHUNK = 4;
/** A section chat describes at most this many subsections. */
const MAX_SUBSECTIONS = 6;

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
  transformActions: OFFLINE_TRANSFORM_ACTIONS,
};

/** The subsections an answer is about: the one of a subsection chat, else all of the section's in scope. */
function subsectionsInScope(request: ChatTurnRequest): readonly ScopeSubsection[] {
  return request.scope.target === 'subsection'
    ? request.scope.subsections.slice(0, 1)
    : request.scope.subsections.slice(0, MAX_SUBSECTIONS);
}

/** What the answer says about one subsection: guidance, the user's facts, what looks missing. */
function describe(subsection: ScopeSubsection): string[] {
  const title = inline(subsection.title) || 'Untitled subsection';
  const lines = [`### ${title}${subsection.finalized ? ' (finalized)' : ''}`, ''];
  const points = guidancePoints(subsection);
  if (points.length > 0) {
    lines.push(
      'What this subsection should cover — guidance from the plan’s template, not text for the plan:',
    );
    for (const point of points) lines.push(`- ${point}`);
  } else {
    lines.push('The plan’s template gives no guidance for this subsection.');
  }
  lines.push('');
  const text = subsection.markdown.trim();
  if (text === '') {
    lines.push(
      'There is no text here yet: write your own notes, then I can check them against the guidance.',
    );
    return lines;
  }
  const facts = extractFacts(text);
  lines.push(
    facts.length > 0
      ? `Your facts I found here: ${facts.map((fact) => `“${fact}”`).join(', ')}.`
      : 'I found no figures, dates or names in your text yet.',
  );
  const missing = missingPoints(points, text);
  if (missing.length > 0) {
    lines.push('', 'What may be missing (none of its key words appear in your text):');
    for (const point of missing) lines.push(`- ${point}`);
  }
  return lines;
}

function commandsHelp(): string[] {
  return [
    'What I can do without a model — ask in the chat:',
    ...OFFLINE_COMMANDS.map(({ example, does }) => `- “${example}” — ${does}`),
    // A blank line ends the list: without it Markdown reads the sentence as part of the last item.
    '',
    'Anything else (writing new text, research, rewording) needs an AI model; ask your administrator to connect one.',
  ];
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
  proposal: { edits: OfflineEdit[] } | null;
}

/** Whether the same edits were proposed earlier in this chat (a repeated request proposes nothing new). */
function proposedBefore(messages: readonly ChatPromptMessage[], edits: readonly OfflineEdit[]): boolean {
  const wanted = JSON.stringify(edits);
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      message.toolCalls.some((call) => {
        const input = call.input as { edits?: unknown } | null;
        return typeof input === 'object' && input !== null && JSON.stringify(input.edits) === wanted;
      }),
  );
}

async function composeAnswer(request: ChatTurnRequest): Promise<OfflineAnswer> {
  const lines = [OFFLINE_DRAFT_NOTICE, ''];
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    const said = last.results.map((result) => `Your proposal was ${DECISION_WORDS[result.decision]}.`);
    lines.push(said.length > 0 ? said.join(' ') : 'Noted.');
    return { text: lines.join('\n'), proposal: null };
  }
  const message = last?.role === 'user' ? last.content : '';
  const userMessage = inline(message);
  if (userMessage) lines.push(`You asked: “${userMessage}”`, '');
  const cannot = [
    request.options.webAccess ? 'search the web' : null,
    request.options.research ? 'do research' : null,
  ].filter((item): item is string => item !== null);
  if (cannot.length > 0)
    lines.push(`The offline assistant cannot ${cannot.join(' or ')}; it only reads the plan.`, '');

  const subsections = subsectionsInScope(request);
  let proposal: OfflineAnswer['proposal'] = null;
  const intent = recogniseIntent(message);
  if (intent !== null) {
    const open = subsections.filter((subsection) => !subsection.finalized);
    if (open.length === 0) {
      lines.push(
        subsections.length === 0
          ? 'There is no subsection here to change: open a subsection’s chat.'
          : 'Everything here is finalized, so I change nothing.',
      );
    } else {
      const spell = intent === 'fix_spelling' ? await loadSpellChecker() : NO_SPELL_CHECKER;
      const edits: OfflineEdit[] = [];
      for (const subsection of open) {
        const outcome = editsFor(intent, subsection, spell);
        edits.push(...outcome.edits);
        lines.push(`**${inline(subsection.title) || 'Untitled subsection'}**: ${outcome.summary}`);
      }
      if (edits.length > 0 && proposedBefore(request.messages, edits)) {
        lines.push('', 'I proposed exactly these changes before: accept or reject that proposal above.');
      } else if (edits.length > 0 && request.tools) {
        lines.push('', 'The changes are proposed below; review them before they go into the plan.');
        proposal = { edits };
      } else if (edits.length > 0) {
        lines.push('', 'Proposals are switched off here, so nothing is proposed.');
      }
    }
    lines.push('');
  }
  if (subsections.length === 0) {
    lines.push(
      'This chat is about the whole plan: open a section or a subsection to see what it should cover.',
      '',
    );
  }
  for (const subsection of subsections) lines.push(...describe(subsection), '');
  lines.push(...commandsHelp());
  return { text: lines.join('\n'), proposal };
}

/**
 * The offline assistant: no network, no model. Its answers are deterministic (the same request gives the same
 * events), always open with {@link OFFLINE_DRAFT_NOTICE}, give the plan's guidance as guidance (never as a
 * proposal), quote the user's facts and say what looks missing; it proposes partial edits only when asked for
 * one it can do, built from the user's own words, through the same tool a model uses.
 */
export function createOfflineProvider(options: OfflineProviderOptions = {}): AiProvider {
  const info: ProviderInfo = { ...OFFLINE_INFO, label: options.label ?? OFFLINE_INFO.label };
  return {
    info,

    async *streamChat(request: ChatTurnRequest): AsyncGenerator<AiStreamEvent> {
      if (request.signal.aborted) throw cancelled();
      const answer = await composeAnswer(request);
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
        const input = { edits: answer.proposal.edits, notes: OFFLINE_PROPOSAL_NOTES };
        toolText = JSON.stringify(input);
        // Derived from the whole request, so a repeated turn in a longer history gets a new id.
        const toolCallId = `offline_${createHash('sha256')
          .update(JSON.stringify(request.messages))
          .update('\0')
          .update(toolText)
          .digest('hex')
          .slice(0, 24)}`;
        yield { type: 'tool-generating', toolCallId, toolName: 'propose_partial_edits' };
        // The arguments stream as a model's do, so the edit is drawn in the text while it is written.
        for (const delta of slicesOf(toolText, OFFLINE_TOOL_INPUT_CHUNK)) {
          if (request.signal.aborted) throw cancelled();
          yield { type: 'tool-input', toolCallId, delta };
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        if (request.signal.aborted) throw cancelled();
        yield { type: 'tool-call', toolCallId, toolName: 'propose_partial_edits', input };
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
      // Improving, extending or changing the tone needs a model: refused rather than faked (TR10).
      if (!isOfflineAction(call.action)) throw new AiModelRequiredError(call.action);
      const spell = call.action === 'fix_grammar' ? await loadSpellChecker() : NO_SPELL_CHECKER;
      if (call.signal.aborted) throw cancelled();
      const text = offlineTransform(call.action, call.text, { spell, selection: call.selection === true });
      // Streamed like a model's answer (TR57), so the suggestion grows in the text the same way.
      if (call.onText) for (const delta of slicesOf(text, OFFLINE_TOOL_INPUT_CHUNK)) call.onText(delta);
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

/** How many characters of the offline proposal's arguments go in one `tool-input` event. */
const OFFLINE_TOOL_INPUT_CHUNK = 48;

function slicesOf(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks;
}
