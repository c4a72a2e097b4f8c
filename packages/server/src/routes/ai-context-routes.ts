import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AiRuntime } from '../ai/ai-runtime.js';
import { PROMPT_HISTORY_LIMIT, promptMessagesOf } from '../ai/chat/chat-history.js';
import { assembleChatContext, ContextScopeError } from '../ai/context/assemble-context.js';
import { loadContextInput } from '../ai/context/load-context-input.js';
import type { ChatPromptMessage } from '../ai/providers/ai-provider.js';
import { providerView } from '../ai/providers/provider-view.js';
import { requireUser } from '../auth/require-user.js';
import { permitted } from '../documents/document-access.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { uuidField, uuidParam } from '../http/uuid-param.js';
import { notFound } from '../structure/not-found.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** The longest message the debug endpoint assembles a prompt for, in characters. */
export const CONTEXT_MESSAGE_MAX_LENGTH = 20_000;

const onOff = z.enum(['on', 'off']).optional();

/** `?section=&subsection=&chat=&message=&web_access=&research=` of the debug endpoint (CX12). */
const contextQuery = z.object({
  section: uuidField.optional(),
  subsection: uuidField.optional(),
  chat: uuidField.optional(),
  message: z
    .string()
    .max(CONTEXT_MESSAGE_MAX_LENGTH, `message must be at most ${CONTEXT_MESSAGE_MAX_LENGTH} characters`)
    .optional(),
  web_access: onOff,
  research: onOff,
});

function messageView(message: ChatPromptMessage) {
  switch (message.role) {
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: message.role,
        content: message.content,
        tool_calls: message.toolCalls.map((call) => ({
          tool_call_id: call.toolCallId,
          tool_name: call.toolName,
          input: call.input,
        })),
      };
    default:
      return {
        role: message.role,
        results: message.results.map((result) => ({
          tool_call_id: result.toolCallId,
          tool_name: result.toolName,
          decision: result.decision,
          ...(result.detail === undefined ? {} : { detail: result.detail }),
        })),
      };
  }
}

/**
 * `GET /api/v1/documents/{uuid}/ai/context/`: the prompt the context engine would send for a chat about
 * the document, `section` or `subsection` with `message` (design §2: inspectable by the document's
 * owner). Another user's document answers 404 like a missing one; bad query values 400 naming the field.
 */
export function aiContextRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps & { ai: AiRuntime }): void {
  const { storage, sessions, config, ai } = deps;

  app.get<{ Params: { uuid: string } }>('/api/v1/documents/:uuid/ai/context/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const documentId = uuidParam(request.params.uuid);
    if (documentId === undefined) throw notFound('document');
    const query = parseInput(contextQuery, request.query ?? {});
    const target = query.subsection ? 'subsection' : query.section ? 'section' : 'document';
    // With `chat`, the prompt the next message in that chat would send: its history and decisions too.
    let history: ChatPromptMessage[] = [];
    if (query.chat) {
      const chat = await storage.chats.findOwned(query.chat, user.id);
      if (!chat || chat.documentId !== documentId) throw new HttpError(404, 'not_found', 'Chat not found.');
      const [messages, proposals] = await Promise.all([
        storage.chats.messagesOf(chat.id, PROMPT_HISTORY_LIMIT),
        storage.chats.proposalsOf(chat.id),
      ]);
      history = promptMessagesOf(messages, proposals);
    }
    // The prompt shows the hidden AI instructions: for those who chat with the AI about it (editors).
    permitted(await storage.documents.findHeadFor(documentId, user.id), 'edit');
    if (deps.live) await deps.live.beforeRest({ kind: 'document', id: documentId });
    const input = await loadContextInput(storage, {
      documentId,
      ownerId: user.id,
      scope: { target, sectionUuid: query.section ?? null, subsectionUuid: query.subsection ?? null },
      history,
      message: query.message ?? '',
      budgetTokens: ai.config.contextTokens,
      provider: ai.provider.info,
      options: { webAccess: query.web_access === 'on', research: query.research === 'on' },
      globalSystemPromptFromEnv: config.globalSystemPrompt,
    });
    if (!input) throw notFound('document');
    let assembled: ReturnType<typeof assembleChatContext>;
    try {
      assembled = assembleChatContext(input);
    } catch (error) {
      if (error instanceof ContextScopeError) throw notFound(error.part);
      throw error;
    }
    // Prompts hold the user's plan: never kept by a shared cache.
    reply.header('cache-control', 'no-store');
    return {
      provider: providerView(ai.provider.info),
      budget_tokens: assembled.budgetTokens,
      total_tokens: assembled.totalTokens,
      over_budget: assembled.overBudget,
      system: assembled.system,
      messages: assembled.messages.map(messageView),
      parts: assembled.parts.map((part) => ({
        name: part.name,
        tokens: part.tokens,
        truncated: part.truncated,
        text: part.text,
      })),
    };
  });
}
