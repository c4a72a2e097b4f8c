import { planRoleAllows } from '@planwright/sdk';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { COMMENT_TEXTS } from '../comments/comment-texts';
import { type ActiveThread, CommentsPanel } from '../comments/comments-panel';
import { DOCUMENTS_PAGE_TEXTS } from '../documents/document-page-texts';
import { DOCUMENTS_PATH, documentPath } from '../documents/document-paths';
import { ShareDialog } from '../sharing/share-dialog';
import { SHARING_TEXTS } from '../sharing/sharing-texts';
import { VersionHistoryDialog } from '../versions/version-history-dialog';
import { ChatPanelArea } from './chat-panel-area';
import type { PlanWorkspace } from './plan-workspace';
import { PlanWorkspaceView, type SideContext, type WorkspaceVariant } from './plan-workspace-view';
import { DOCUMENT_SPLIT } from './split-layout';
import { SystemPromptDialog } from './system-prompt-dialog';
import { TOP_BAR_TEXTS, WORKSPACE_TEXTS } from './workspace-texts';

type SideTab = 'chat' | 'comments';

/**
 * W28, W44: the side panel follows the selection. Editors and the owner switch between the AI assistant and the
 * comments; viewers and commenters get the comments alone (the assistant is for editors), under a note that says so.
 */
function DocumentSide({ workspace, selection, cursor, outline }: SideContext) {
  const { canEdit, role } = useSyncExternalStore(workspace.subscribe, workspace.getSnapshot);
  // A mention e-mail's link (`?comment={thread}`) opens on that thread.
  const [params] = useSearchParams();
  const linkedThread = params.get('comment');
  const [tab, setTab] = useState<SideTab>(linkedThread ? 'comments' : 'chat');
  // A click on a comment's highlighted text shows its thread: the Comments tab, the thread marked and in view.
  const [clicked, setClicked] = useState<ActiveThread | null>(null);
  useEffect(
    () =>
      workspace.onCommentClick((id) => {
        setTab('comments');
        setClicked((last) => ({ id, seq: (last?.seq ?? 0) + 1 }));
      }),
    [workspace],
  );
  const tabs = useRef<Record<SideTab, HTMLButtonElement | null>>({ chat: null, comments: null });
  const ids = { chat: useId(), comments: useId() };
  if (!canEdit) {
    return (
      <div className="flex h-full min-h-0 flex-col">
        <p className="border-b border-base-300 px-4 py-2 text-sm opacity-80">
          {SHARING_TEXTS.chatForEditors}
        </p>
        <div className="min-h-0 flex-1">
          <CommentsPanel
            workspace={workspace}
            selection={selection}
            outline={outline}
            canComment={planRoleAllows(role, 'comment')}
            cursor={cursor}
            linkedThread={linkedThread}
            activeThread={clicked}
          />
        </div>
      </div>
    );
  }
  const choose = (next: SideTab) => {
    setTab(next);
    tabs.current[next]?.focus();
  };
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        role="tablist"
        aria-label={COMMENT_TEXTS.tabs}
        className="tabs tabs-border border-b border-base-300 px-2"
      >
        {(['chat', 'comments'] as const).map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabs.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`${ids[name]}-tab`}
            aria-selected={tab === name}
            // Only the chosen tab's panel is drawn: the other names none (a missing id is invalid ARIA).
            aria-controls={tab === name ? ids[name] : undefined}
            tabIndex={tab === name ? 0 : -1}
            className={`tab ${tab === name ? 'tab-active' : 'text-base-content!'}`}
            onClick={() => setTab(name)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                event.preventDefault();
                choose(name === 'chat' ? 'comments' : 'chat');
              }
            }}
          >
            {name === 'chat' ? COMMENT_TEXTS.chatTab : COMMENT_TEXTS.commentsTab}
          </button>
        ))}
      </div>
      <div id={ids[tab]} role="tabpanel" aria-labelledby={`${ids[tab]}-tab`} className="min-h-0 flex-1">
        {tab === 'chat' ? (
          <ChatPanelArea workspace={workspace} selection={selection} outline={outline} />
        ) : (
          <CommentsPanel
            workspace={workspace}
            selection={selection}
            outline={outline}
            canComment
            cursor={cursor}
            linkedThread={linkedThread}
            activeThread={clicked}
          />
        )}
      </div>
    </div>
  );
}

const DOCUMENT_VARIANT: WorkspaceVariant = {
  testId: 'document-workspace',
  texts: {
    loading: WORKSPACE_TEXTS.loading,
    notFound: WORKSPACE_TEXTS.notFound,
    backToList: WORKSPACE_TEXTS.backToDocuments,
    loadFailed: WORKSPACE_TEXTS.loadFailed,
    untitled: TOP_BAR_TEXTS.untitled,
    titleLabel: TOP_BAR_TEXTS.titleLabel,
    renameHeading: TOP_BAR_TEXTS.renameDocument,
    readOnly: SHARING_TEXTS.readOnly,
  },
  list: { label: DOCUMENTS_PAGE_TEXTS.title, path: DOCUMENTS_PATH },
  detailPath: documentPath,
  split: DOCUMENT_SPLIT,
  finalize: true,
  renameBlankCloses: true,
  side: (context) => <DocumentSide {...context} />,
  systemPromptDialog: (_workspace, onClose) => <SystemPromptDialog onClose={onClose} />,
  shareDialog: (context) => <ShareDialog {...context} />,
  historyDialog: (context) => <VersionHistoryDialog {...context} />,
};

/**
 * The document editing workspace (spec 001 §2 "Document editor layout"; SPEC.md W1–W28): the shared workspace
 * with the chat panel at 65/35, progress and finalize, and the global system prompt read-only.
 */
export function DocumentWorkspaceView({ workspace }: { workspace: PlanWorkspace }) {
  return <PlanWorkspaceView workspace={workspace} variant={DOCUMENT_VARIANT} />;
}
