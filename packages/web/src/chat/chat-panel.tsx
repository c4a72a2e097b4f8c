import type { ChatMessage, ChatProposal, ChatProposalDraft, ChatSessionExtras } from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { readableDraft, type SuggestionQueue, type SuggestionTurn } from '@planwright/sdk/proposals';
import { useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { askAgainMessage } from '../proposals';
import { focusSuggestionBar } from '../suggestions/suggestion-bar';
import type { SuggestionListener } from '../workspace/plan-workspace';
import { ChatComposer } from './chat-composer';
import { ChatHistoryMenu } from './chat-history-menu';
import { ChatMessageList } from './chat-message-list';
import { type ChatPanelClient, ChatPanelModel } from './chat-panel-model';
import { type ChatContext, type ChatSelection, chatContextLine, providerText } from './chat-panel-rules';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';
import { ChatSessionOptionsContext } from './chat-session-context';
import { MessagePreviewDialog } from './message-preview-dialog';
import { useSessionField } from './use-session-field';

/** What the panel needs of the editing workspace (the `PlanWorkspace`, contract 2). */
export interface ChatEditor {
  currentContent(): DocumentJson;
  applyContent(next: DocumentJson): boolean;
  insertParagraphAfterCursor(text: string): boolean;
  /** The plan's suggestions in the text: the chat's proposals are reviewed there (W50). */
  readonly suggestions: SuggestionQueue;
  onSuggestionEvents(listener: SuggestionListener): () => void;
  showSuggestionTurn(turnId: string): boolean;
}

/** A chat proposal as a turn of suggestions in the text (K21). */
export function chatTurn(
  proposal: Pick<ChatProposal, 'toolId' | 'toolName' | 'payload'>,
  provider: string | null,
): SuggestionTurn {
  return {
    id: proposal.toolId,
    toolName: proposal.toolName,
    payload: proposal.payload,
    origin: 'chat',
    label: null,
    provider,
    whole: false,
  };
}

/** After the bar has drawn the suggestion just shown (it renders on the queue's change). */
function focusBarSoon(): void {
  requestAnimationFrame(() => focusSuggestionBar());
}

/**
 * K21: the chat's proposals are reviewed in the text. Pending ones (and rejected ones the user opened again)
 * are the queue's chat turns; a turn decided there sends `tool_approval`; "Ask again" there asks here.
 */
function useProposalsInText(
  editor: ChatEditor,
  model: ChatPanelModel,
  proposals: readonly ChatProposal[],
  drafts: readonly ChatProposalDraft[],
  provider: string | null,
): (proposal: ChatProposal) => void {
  const { session } = model;
  const [reopened, setReopened] = useState<ReadonlySet<string>>(() => new Set());
  const showNext = useRef<string | null>(null);
  const turns = useMemo(
    () => [
      ...proposals
        .filter((p) => p.status === 'pending' || (p.status === 'rejected' && reopened.has(p.toolId)))
        .map((p) => chatTurn(p, provider)),
      // K22: a proposal the AI is still writing is drawn in the text as it grows.
      ...drafts.map(
        (draft): SuggestionTurn => ({
          ...chatTurn({ ...draft, payload: readableDraft(draft.toolName, draft.payload) }, provider),
          streaming: true,
        }),
      ),
    ],
    [proposals, drafts, reopened, provider],
  );
  useEffect(() => {
    editor.suggestions.sync(turns, 'chat');
    if (showNext.current !== null && editor.showSuggestionTurn(showNext.current)) {
      showNext.current = null;
      focusBarSoon();
    }
  }, [editor, turns]);
  useEffect(() => () => editor.suggestions.sync([], 'chat'), [editor]);
  useEffect(
    () =>
      editor.onSuggestionEvents({
        decided: (turn, decision) => {
          if (turn.origin !== 'chat') return;
          if (decision === 'accepted') session.acceptProposal(turn.id);
          else session.rejectProposal(turn.id);
          setReopened((current) => {
            if (!current.has(turn.id)) return current;
            const next = new Set(current);
            next.delete(turn.id);
            return next;
          });
        },
        askAgain: (_turnId, suggestions) => {
          model.send(askAgainMessage(suggestions.map((suggestion) => suggestion.item)));
        },
      }),
    [editor, session, model],
  );
  return useCallback(
    (proposal: ChatProposal) => {
      if (proposal.status === 'accepted') return;
      if (proposal.status === 'rejected' && !reopened.has(proposal.toolId)) {
        showNext.current = proposal.toolId;
        setReopened((current) => new Set(current).add(proposal.toolId));
        return;
      }
      if (editor.showSuggestionTurn(proposal.toolId)) focusBarSoon();
    },
    [editor, reopened],
  );
}

/**
 * K1, K4: the panel's model for one opened document: made (and connected) when the panel mounts, disposed when
 * it leaves; it follows the selection after that.
 */
export function useChatPanelModel(documentUuid: string, selection: ChatSelection): ChatPanelModel | null {
  const client: ChatPanelClient = usePlanwrightClient();
  const { clock } = useBrowserPorts();
  const extras = useContext(ChatSessionOptionsContext);
  const options = useMemo<ChatSessionExtras>(() => ({ clock, ...extras }), [clock, extras]);
  const [model, setModel] = useState<ChatPanelModel | null>(null);
  const selected = useRef(selection);
  selected.current = selection;

  useEffect(() => {
    const next = new ChatPanelModel({ client, documentUuid, selection: selected.current, session: options });
    next.start();
    setModel(next);
    return () => {
      next.dispose();
      setModel(null);
    };
  }, [client, documentUuid, options]);

  const { sectionUuid, subsectionUuid } = selection;
  useEffect(() => {
    model?.follow({ sectionUuid, subsectionUuid });
  }, [model, sectionUuid, subsectionUuid]);
  return model;
}

/**
 * The chat panel (spec 001 §2 "Chat panel"; SPEC.md K1–K20): header with the context line, the provider and
 * the history menu; the connection banner; the message list; the composer. Proposals are reviewed in the
 * text (K21), their cards show them there; code blocks insert after the editor's cursor.
 */
export function ChatPanel({
  model,
  editor,
  context,
}: {
  model: ChatPanelModel;
  editor: ChatEditor;
  context: ChatContext;
}) {
  const { session } = model;
  const panel = useSyncExternalStore(model.subscribe, model.getSnapshot);
  const status = useSessionField(session, 'status');
  const error = useSessionField(session, 'error');
  const scope = useSessionField(session, 'scope');
  const proposals = useSessionField(session, 'proposals');
  const drafts = useSessionField(session, 'drafts');
  const sessionProvider = useSessionField(session, 'provider');
  const [preview, setPreview] = useState<ChatMessage | null>(null);
  const [insertFailed, setInsertFailed] = useState(false);
  const line = chatContextLine(context);
  const provider = providerText({ session: sessionProvider, info: panel.providerInfo });
  const showProposal = useProposalsInText(
    editor,
    model,
    proposals,
    drafts,
    panel.providerInfo?.label ?? provider,
  );

  const insert = useCallback(
    (code: string) => setInsertFailed(!editor.insertParagraphAfterCursor(code)),
    [editor],
  );

  return (
    <section
      aria-label={TEXTS.panel}
      data-status={status}
      className="flex h-full min-w-0 flex-col bg-base-100"
    >
      <div className="border-b border-base-300 px-4 py-2">
        <div className="flex flex-wrap items-center gap-x-2">
          <h2 className="font-semibold whitespace-nowrap">{TEXTS.heading}</h2>
          {provider !== null && (
            <span
              className="badge badge-ghost badge-sm min-w-0 truncate"
              title={panel.providerInfo?.label ?? provider}
            >
              <span className="sr-only">{TEXTS.provider}: </span>
              <span data-testid="chat-provider">{provider}</span>
            </span>
          )}
          <span className="flex-1" />
          <button
            type="button"
            className="btn btn-ghost btn-sm whitespace-nowrap"
            onClick={() => void model.newChat()}
          >
            {TEXTS.newChatButton}
          </button>
          <ChatHistoryMenu
            recent={panel.recent}
            currentChatId={scope.chatId}
            onOpen={() => void model.loadRecent()}
            onNewChat={() => void model.newChat()}
            onSelect={(chat) => model.openChat(chat.id)}
          />
        </div>
        <p className="truncate text-sm opacity-80" title={line}>
          <span className="sr-only">{TEXTS.context}: </span>
          <span dir="auto" data-testid="chat-context">
            {line}
          </span>
        </p>
      </div>
      {(status === 'error' && error) || panel.notice || insertFailed ? (
        <div className="flex flex-col gap-2 px-3 pt-2">
          {status === 'error' && error && (
            <div role="alert" className="alert alert-soft alert-error text-sm">
              <div className="grid min-w-0 [overflow-wrap:anywhere]">
                <strong>{TEXTS.connectionError}</strong>
                <span>{error}</span>
              </div>
            </div>
          )}
          {panel.notice && (
            <div role="alert" className="alert alert-soft alert-warning text-sm">
              <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{panel.notice}</span>
              <button type="button" className="btn btn-ghost btn-xs" onClick={() => model.dismissNotice()}>
                {TEXTS.dismiss}
              </button>
            </div>
          )}
          {insertFailed && (
            <div role="alert" className="alert alert-soft alert-warning text-sm">
              <span className="min-w-0 flex-1">{TEXTS.insertFailed}</span>
              <button type="button" className="btn btn-ghost btn-xs" onClick={() => setInsertFailed(false)}>
                {TEXTS.dismiss}
              </button>
            </div>
          )}
        </div>
      ) : null}
      <ChatMessageList
        session={session}
        onInsert={insert}
        onOpenMessage={setPreview}
        onOpenProposal={(toolId) => {
          const proposal = proposals.find((candidate) => candidate.toolId === toolId);
          if (proposal) showProposal(proposal);
        }}
        suggestions={editor.suggestions}
      />
      <ChatComposer model={model} session={session} />
      {preview && (
        <MessagePreviewDialog message={preview} onInsert={insert} onClose={() => setPreview(null)} />
      )}
    </section>
  );
}
