import type { ChatMessage, ChatSessionExtras } from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { ProposalReviewDialog } from '../proposals';
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
 * the history menu; the connection banner; the message list; the composer. Proposal cards open the review
 * dialog, which applies through the workspace; code blocks insert after the editor's cursor.
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
  const sessionProvider = useSessionField(session, 'provider');
  const [preview, setPreview] = useState<ChatMessage | null>(null);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const [insertFailed, setInsertFailed] = useState(false);
  const line = chatContextLine(context);
  const provider = providerText({ session: sessionProvider, info: panel.providerInfo });
  const reviewed =
    reviewing === null ? undefined : proposals.find((proposal) => proposal.toolId === reviewing);

  const insert = useCallback(
    (code: string) => setInsertFailed(!editor.insertParagraphAfterCursor(code)),
    [editor],
  );
  const getDocument = useCallback(() => editor.currentContent(), [editor]);
  const applyDocument = useCallback((next: DocumentJson) => editor.applyContent(next), [editor]);

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
        onOpenProposal={setReviewing}
      />
      <ChatComposer model={model} session={session} />
      {preview && (
        <MessagePreviewDialog message={preview} onInsert={insert} onClose={() => setPreview(null)} />
      )}
      {reviewed && (
        <ProposalReviewDialog
          proposal={reviewed}
          getDocument={getDocument}
          applyDocument={applyDocument}
          onAccepted={() => session.acceptProposal(reviewed.toolId)}
          onRejected={() => session.rejectProposal(reviewed.toolId)}
          onAskAgain={(message) => {
            model.send(message);
          }}
          onClose={() => setReviewing(null)}
        />
      )}
    </section>
  );
}
