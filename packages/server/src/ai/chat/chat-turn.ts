import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../../config/config.js';
import type { LiveDocuments } from '../../live/live-documents.js';
import type { ChatProposalRecord, ChatRecord } from '../../storage/chat-repository.js';
import type { Storage } from '../../storage/storage.js';
import type { AiRuntime } from '../ai-runtime.js';
import { assembleChatContext, ContextScopeError } from '../context/assemble-context.js';
import { loadContextInput } from '../context/load-context-input.js';
import { loadHtmlParser } from '../html-parser.js';
import { AiProviderError, type ProposalToolName, type TokenUsage } from '../providers/ai-provider.js';
import { providerSummary } from '../providers/provider-view.js';
import { prepareTurnTools } from '../tools/turn-tools.js';
import type { OutgoingChatFrame } from './chat-frames.js';
import { PROMPT_HISTORY_LIMIT, promptMessagesOf, type StoredToolCall } from './chat-history.js';
import { ProposalDrafts } from './chat-proposal-drafts.js';
import { proposalForClient } from './chat-proposals.js';
import type { ChatScope } from './chat-scope.js';
import { ChatToolCalls } from './chat-tool-calls.js';

/** Everything a chat turn needs from the server. */
export interface ChatDeps {
  config: ServerConfig;
  storage: Storage;
  ai: AiRuntime;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Live plans, when on: a turn reads the plan as people have it now (pending changes derived first). */
  live?: LiveDocuments | undefined;
}

/** Where a turn's frames go; a closed socket simply drops them (the turn still finishes and is stored). */
export type FrameSink = (frame: OutgoingChatFrame) => void;

/** What the user sees when a provider fails (never the provider's own words: they may name keys or hosts). */
export const AI_FAILURE_TEXT: Record<AiProviderError['kind'], string> = {
  timeout: 'The AI took too long to answer. Please try again.',
  cancelled: 'Stopped.',
  rate_limited: 'The AI service is busy right now. Please wait a moment and try again.',
  unavailable: 'The AI service is unavailable right now. Please try again later.',
  bad_response: 'The AI service sent an answer that could not be read. Please try again.',
};

/** One user message and the answer to it. */
export interface ChatTurnInput {
  chat: ChatRecord;
  scope: ChatScope;
  userId: string;
  message: string;
  options: { webAccess: boolean; research: boolean };
  signal: AbortSignal;
}

/**
 * Streams the answer to one message: assembles the context, relays cumulative `ai` frames, turns tool
 * calls into stored proposals the client can apply, records usage, and always ends with
 * `end_of_response`. The answer is stored even when nobody is listening any more.
 */
export async function runChatTurn(deps: ChatDeps, input: ChatTurnInput, send: FrameSink): Promise<void> {
  const { storage, ai, now } = deps;
  const { chat, scope } = input;
  const provider = ai.provider.info;
  const providerLabel = providerSummary(provider);
  const [history, proposals] = await Promise.all([
    storage.chats.messagesOf(chat.id, PROMPT_HISTORY_LIMIT),
    storage.chats.proposalsOf(chat.id),
  ]);
  // The question is the last user message (the one just stored, or one answered again after its instance died,
  // CH19, maybe followed by what that instance left); the context engine takes it apart.
  const question = history.findLastIndex((message) => message.role === 'user');
  const earlier = question >= 0 ? history.slice(0, question) : history;
  await deps.live?.beforeRest({ kind: 'document', id: scope.document.id });
  const contextInput = await loadContextInput(storage, {
    documentId: scope.document.id,
    ownerId: input.userId,
    scope: { target: scope.target, sectionUuid: scope.sectionUuid, subsectionUuid: scope.subsectionUuid },
    history: promptMessagesOf(earlier, proposals),
    message: input.message,
    budgetTokens: ai.config.contextTokens,
    provider,
    options: input.options,
    globalSystemPromptFromEnv: deps.config.globalSystemPrompt,
  });
  if (!contextInput) {
    send({ type: 'system', content: 'This document is no longer available.' });
    send({ type: 'end_of_response' });
    return;
  }
  let context: ReturnType<typeof assembleChatContext>;
  try {
    context = assembleChatContext(contextInput);
  } catch (error) {
    if (!(error instanceof ContextScopeError)) throw error;
    // The section or subsection was deleted since the chat opened.
    send({ type: 'system', content: `This ${error.part} no longer exists in the document.` });
    send({ type: 'end_of_response' });
    return;
  }
  /** A note from the server to the user: shown now and kept in the history (the model never reads these). */
  const note = async (content: string) => {
    await storage.chats.addMessage({ chatId: chat.id, role: 'system', content, createdAt: now() });
    send({ type: 'system', content });
  };
  const unsupported = [
    input.options.webAccess && !provider.supports.webAccess ? 'search the web' : null,
    input.options.research && !provider.supports.research ? 'do research' : null,
  ].filter((what): what is string => what !== null);
  // The offline drafter says so in its own text; a model is not trusted to.
  if (unsupported.length > 0 && !provider.offline) {
    await note(
      `${provider.label} cannot ${unsupported.join(' or ')}: this answer uses your plan and the model's own knowledge.`,
    );
  }

  // The section's MCP server and the web search, when its tool mode or the user's options ask for them (CH20).
  const turnTools = await prepareTurnTools({
    ai: ai.config,
    provider,
    sections: await storage.documents.sectionsOf(scope.document.id),
    sectionUuid: scope.sectionUuid,
    subsectionUuid: scope.subsectionUuid,
    options: input.options,
    signal: input.signal,
  });
  for (const content of turnTools.notes) await note(content);

  const { message: aiMessage } = await storage.chats.addMessage({
    chatId: chat.id,
    role: 'ai',
    content: '',
    metadata: { partial: true, provider: providerLabel },
    createdAt: now(),
  });
  let text = '';
  // Chunks that arrive together go out as one cumulative frame: the client keeps only the latest text,
  // and under load one frame per event-loop turn costs far less than one per chunk.
  let textPending = false;
  const flushText = () => {
    if (!textPending) return;
    textPending = false;
    send({ type: 'ai', content: text, message_id: aiMessage.id, provider: providerLabel });
  };
  const sendAfterText: FrameSink = (frame) => {
    flushText();
    send(frame);
  };
  const toolCalls: StoredToolCall[] = [];
  const externalCalls = new ChatToolCalls(aiMessage.id);
  const drafts = new ProposalDrafts(aiMessage.id, sendAfterText);
  let usage: TokenUsage = { inputTokens: null, outputTokens: null };
  let failure: AiProviderError | null = null;
  let finishReason = 'unknown';
  try {
    const stream = ai.provider.streamChat({
      system: context.system + turnTools.instructions,
      messages: context.messages,
      tools: true,
      options: input.options,
      externalTools: turnTools.tools,
      maxExternalCalls: turnTools.maxCalls,
      scope: context.scope,
      signal: input.signal,
    });
    for await (const event of stream) {
      switch (event.type) {
        case 'text':
          if (event.delta === '') break;
          text += event.delta;
          if (!textPending) {
            textPending = true;
            setImmediate(flushText);
          }
          break;
        case 'tool-generating':
          sendAfterText(drafts.start(event.toolCallId, event.toolName));
          break;
        case 'tool-input':
          drafts.input(event.toolCallId, event.delta);
          break;
        case 'tool-call': {
          // Its draft stops streaming now; the proposal, if it fits, takes the draft's id (CH22).
          const toolId = drafts.complete(event.toolCallId);
          const document = await storage.documents.findFor(scope.document.id, input.userId);
          const checked = proposalForClient(
            event.toolName,
            event.input,
            document?.content,
            await loadHtmlParser(),
          );
          if (!checked.ok) {
            toolCalls.push({ ...event, toolId: null, invalid: checked.detail });
            deps.log.info({ chatId: chat.id, reason: checked.detail }, 'AI proposal refused');
            flushText();
            await note(
              `The AI proposed an edit that does not fit the document, so it was not shown: ${checked.detail}`,
            );
            break;
          }
          toolCalls.push({
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            input: event.input,
            toolId,
          });
          const stored = await storage.chats.addProposal({
            toolId,
            chatId: chat.id,
            messageId: aiMessage.id,
            providerToolCallId: event.toolCallId,
            toolName: event.toolName,
            payload: checked.payload,
            createdAt: now(),
          });
          sendAfterText(proposalFrame(stored));
          break;
        }
        case 'external-call-start':
          sendAfterText(externalCalls.started(event));
          break;
        case 'external-call-end': {
          const ended = externalCalls.ended(event);
          if (ended) sendAfterText(ended.frame);
          if (ended?.note) {
            deps.log.info(
              { chatId: chat.id, tool: ended.call.tool_name, server: ended.call.server },
              'AI tool call failed',
            );
            await note(ended.note);
          }
          break;
        }
        case 'finish':
          usage = event.usage;
          finishReason = event.finishReason;
          break;
      }
    }
  } catch (error) {
    failure =
      error instanceof AiProviderError ? error : new AiProviderError('bad_response', 'The provider failed.');
    if (!(error instanceof AiProviderError))
      deps.log.error({ err: error, chatId: chat.id }, 'AI turn failed');
  } finally {
    drafts.dispose();
    await turnTools.close();
  }
  const interrupted = failure?.kind === 'cancelled';
  const sources = failure ? '' : externalCalls.sourcesMissingFrom(text);
  if (sources) {
    text += sources;
    textPending = true;
  }
  // One transaction, one commit: the answer, the chat's "last used" time and the tokens used.
  await storage.transaction(async (tx) => {
    await tx.chats.updateMessage(aiMessage.id, {
      content: text,
      toolCalls,
      metadata: {
        provider: providerLabel,
        finish_reason: failure ? failure.kind : finishReason,
        ...(interrupted ? { interrupted: true } : {}),
        ...(failure && !interrupted ? { error: failure.kind } : {}),
        usage,
        ...externalCalls.metadata(),
      },
    });
    await tx.chats.touch(chat.id, now());
    await ai.usage.record(
      { userId: input.userId, documentId: scope.document.id, kind: 'chat', provider, usage },
      tx,
    );
  });
  flushText();
  if (failure && !interrupted) await note(AI_FAILURE_TEXT[failure.kind]);
  send({ type: 'end_of_response', message_id: aiMessage.id, ...(interrupted ? { interrupted: true } : {}) });
}

/** The `tool_proposal` frame of a stored proposal (spec 001 §3). */
export function proposalFrame(
  proposal: Pick<
    ChatProposalRecord,
    'toolId' | 'toolName' | 'payload' | 'createdAt' | 'messageId' | 'status'
  >,
): Extract<OutgoingChatFrame, { type: 'tool_proposal' }> {
  return {
    type: 'tool_proposal',
    tool_id: proposal.toolId,
    // Stored only after the SDK's applyProposal took them (CH5): one of the two tools, an object payload.
    tool_name: proposal.toolName as ProposalToolName,
    payload: proposal.payload as Record<string, unknown>,
    timestamp: proposal.createdAt.toISOString(),
    // The AI message that made it, and whether the user decided already (CH14).
    message_id: proposal.messageId,
    status: proposal.status,
  };
}
