import type { ChatMessage, ChatProposal, ChatSession, ChatToolCall } from '@planwright/sdk';
import type { SuggestionQueue, SuggestionQueueSnapshot } from '@planwright/sdk/proposals';
import { memo, useEffect, useRef, useSyncExternalStore } from 'react';
import { ProposalCard } from '../proposals';
import { ChatMarkdown } from './chat-markdown';
import { isThinking } from './chat-panel-rules';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';
import { useSessionField } from './use-session-field';

/** The characters of an attached file, as the user message keeps them (contract 1b). */
interface AttachmentNote {
  readonly name: string;
  readonly characters: number;
}

const BUBBLE = {
  user: 'chat-bubble chat-bubble-primary',
  ai: 'chat-bubble',
  system: 'chat-bubble chat-bubble-warning',
} as const;

/** Whether a click meant to select text rather than open the message. */
function selectingText(): boolean {
  const selection = globalThis.getSelection?.();
  return selection !== null && selection !== undefined && !selection.isCollapsed;
}

/**
 * One message (K13, K14, K17): memoised on the message object, which the session keeps the same until that
 * message changes, so a streamed delta re-renders only the message it belongs to (K19).
 */
export const ChatMessageView = memo(function ChatMessageView({
  message,
  onInsert,
  onOpen,
}: {
  message: ChatMessage;
  onInsert: (code: string) => void;
  onOpen: (message: ChatMessage) => void;
}) {
  const attachments = (message.metadata as { attachments?: readonly AttachmentNote[] }).attachments ?? [];
  const side = message.role === 'user' ? 'chat-end' : 'chat-start';
  return (
    <div
      className={`chat ${side}`}
      data-testid="chat-message"
      data-role={message.role}
      data-partial={message.isPartial ? 'true' : undefined}
    >
      <div className="chat-header flex items-center gap-2 text-xs opacity-80">
        <span>{message.role === 'user' ? TEXTS.you : message.role === 'ai' ? TEXTS.ai : ''}</span>
        <button
          type="button"
          className="link link-hover"
          aria-label={TEXTS.openMessage}
          title={TEXTS.openMessage}
          onClick={() => onOpen(message)}
        >
          ⤢
        </button>
      </div>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the Open message button is the keyboard's way in. */}
      <div
        className={`${BUBBLE[message.role]} max-w-full min-w-0 cursor-pointer text-sm`}
        dir="auto"
        onClick={(event) => {
          if (event.target instanceof Element && event.target.closest('a, button')) return;
          if (!selectingText()) onOpen(message);
        }}
      >
        {message.toolCalls && message.toolCalls.length > 0 && <ToolCallList calls={message.toolCalls} />}
        {message.role === 'ai' ? (
          <ChatMarkdown content={message.content} onInsert={onInsert} />
        ) : (
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.content}</p>
        )}
        {attachments.length > 0 && (
          <ul className="mt-1 flex flex-wrap gap-1">
            {attachments.map((file, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: stateless chips, and one file may be attached twice.
                key={index}
                className="badge badge-sm badge-ghost"
                title={TEXTS.characters(file.characters)}
              >
                {file.name}
              </li>
            ))}
          </ul>
        )}
      </div>
      {(message.metadata.interrupted ||
        message.metadata.delivery === 'failed' ||
        message.metadata.delivery === 'queued') && (
        <div className="chat-footer text-xs opacity-80">
          {message.metadata.interrupted
            ? TEXTS.interrupted
            : message.metadata.delivery === 'failed'
              ? TEXTS.notSent
              : TEXTS.queued}
        </div>
      )}
    </div>
  );
});

const NO_QUEUE: SuggestionQueueSnapshot = { suggestions: [], currentId: null };

function noQueue(): SuggestionQueueSnapshot {
  return NO_QUEUE;
}

function noSubscribe(): () => void {
  return () => {};
}

/**
 * K23: the tools the AI ran on the server for an answer (an MCP server's tool, the web search), each with where it
 * ran, whether it is running, done or failed, how long it took and what came back, as text.
 */
function ToolCallList({ calls }: { calls: readonly ChatToolCall[] }) {
  return (
    <ul className="mb-1 flex flex-col gap-0.5 text-xs opacity-80" aria-label={TEXTS.toolCalls}>
      {calls.map((call) => (
        <li
          key={call.callId}
          data-testid="tool-call"
          data-status={call.status}
          className="[overflow-wrap:anywhere]"
        >
          {call.status === 'running' && (
            <span className="loading loading-spinner loading-xs mr-1" aria-hidden="true" />
          )}
          {TEXTS.toolCallLine(call)}
        </li>
      ))}
    </ul>
  );
}

/** The proposals made by each AI message (by its server id); those of no shown message go last. */
function proposalsByMessage(messages: readonly ChatMessage[], proposals: readonly ChatProposal[]) {
  const shown = new Set(
    messages.map((message) => message.metadata.serverId).filter((id) => id !== undefined),
  );
  const byMessage = new Map<string, ChatProposal[]>();
  const rest: ChatProposal[] = [];
  for (const proposal of proposals) {
    const id = proposal.messageId;
    if (id && shown.has(id)) byMessage.set(id, [...(byMessage.get(id) ?? []), proposal]);
    else rest.push(proposal);
  }
  return { byMessage, rest };
}

/**
 * The message list (K12–K18): the transcript with its proposal cards, the Thinking indicator, "Loading chat
 * history", the history warning and the tool status. Scrolls to the end as messages arrive.
 */
export function ChatMessageList({
  session,
  onInsert,
  onOpenMessage,
  onOpenProposal,
  suggestions,
}: {
  session: ChatSession;
  onInsert: (code: string) => void;
  onOpenMessage: (message: ChatMessage) => void;
  onOpenProposal: (toolId: string) => void;
  /** The plan's suggestions: a pending card counts its changes there (K21). */
  suggestions?: SuggestionQueue;
}) {
  const queued = useSyncExternalStore(
    suggestions?.subscribe ?? noSubscribe,
    suggestions?.getSnapshot ?? noQueue,
  );
  const messages = useSessionField(session, 'messages');
  const proposals = useSessionField(session, 'proposals');
  const loading = useSessionField(session, 'loading');
  const historyLoading = useSessionField(session, 'historyLoading');
  const historyWarning = useSessionField(session, 'historyWarning');
  const tool = useSessionField(session, 'toolExecution');
  const logRef = useRef<HTMLDivElement>(null);
  const thinking = isThinking(loading, messages);
  const { byMessage, rest } = proposalsByMessage(messages, proposals);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every new message or delta scrolls to the end.
  useEffect(() => {
    const log = logRef.current;
    if (log && typeof log.scrollTo === 'function') log.scrollTo({ top: log.scrollHeight });
  }, [messages, proposals, thinking]);

  const card = (proposal: ChatProposal) => (
    <div key={proposal.toolId} className="my-2">
      <ProposalCard
        proposal={proposal}
        pending={queued.suggestions.filter((suggestion) => suggestion.turnId === proposal.toolId)}
        onOpen={() => onOpenProposal(proposal.toolId)}
      />
    </div>
  );

  return (
    <div
      ref={logRef}
      role="log"
      aria-label={TEXTS.messages}
      aria-live="polite"
      className="flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto p-3"
    >
      {historyLoading && (
        <p role="status" className="flex items-center gap-2 text-sm opacity-80">
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          {TEXTS.loadingHistory}
        </p>
      )}
      {historyWarning && (
        <div role="status" className="alert alert-soft alert-warning text-sm">
          {historyWarning}
        </div>
      )}
      {messages.length === 0 && !historyLoading && rest.length === 0 && (
        <p className="m-auto text-center text-sm opacity-80">{TEXTS.empty}</p>
      )}
      {messages.map((message) => (
        <div key={message.id}>
          <ChatMessageView message={message} onInsert={onInsert} onOpen={onOpenMessage} />
          {message.metadata.serverId && byMessage.get(message.metadata.serverId)?.map(card)}
        </div>
      ))}
      {rest.map(card)}
      {thinking && (
        <p data-testid="chat-thinking" role="status" className="flex items-center gap-2 text-sm opacity-80">
          <span className="loading loading-dots loading-xs" aria-hidden="true" />
          {TEXTS.thinking}
        </p>
      )}
      {tool.message && tool.state !== 'awaiting_approval' && (
        <p data-testid="chat-tool-status" role="status" className="text-sm opacity-80">
          {tool.state === 'executing' && (
            <span className="loading loading-spinner loading-xs me-2" aria-hidden="true" />
          )}
          {tool.message}
        </p>
      )}
    </div>
  );
}
