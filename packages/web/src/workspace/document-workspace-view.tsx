import { useSyncExternalStore } from 'react';
import { DOCUMENTS_PAGE_TEXTS } from '../documents/document-page-texts';
import { DOCUMENTS_PATH, documentPath } from '../documents/document-paths';
import { ShareDialog } from '../sharing/share-dialog';
import { SHARING_TEXTS } from '../sharing/sharing-texts';
import { Alert } from '../ui/alert';
import { ChatPanelArea } from './chat-panel-area';
import type { PlanWorkspace } from './plan-workspace';
import { PlanWorkspaceView, type SideContext, type WorkspaceVariant } from './plan-workspace-view';
import { DOCUMENT_SPLIT } from './split-layout';
import { SystemPromptDialog } from './system-prompt-dialog';
import { TOP_BAR_TEXTS, WORKSPACE_TEXTS } from './workspace-texts';

/** W28: the chat panel, following the selection; for those who may not change the plan, why there is none. */
function ChatSide({ workspace, selection, outline }: SideContext) {
  const { canEdit } = useSyncExternalStore(workspace.subscribe, workspace.getSnapshot);
  if (!canEdit) {
    return (
      <div className="p-4">
        <Alert kind="info">{SHARING_TEXTS.chatForEditors}</Alert>
      </div>
    );
  }
  return <ChatPanelArea workspace={workspace} selection={selection} outline={outline} />;
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
  side: (context) => <ChatSide {...context} />,
  systemPromptDialog: (_workspace, onClose) => <SystemPromptDialog onClose={onClose} />,
  shareDialog: (context) => <ShareDialog {...context} />,
};

/**
 * The document editing workspace (spec 001 §2 "Document editor layout"; SPEC.md W1–W28): the shared workspace
 * with the chat panel at 65/35, progress and finalize, and the global system prompt read-only.
 */
export function DocumentWorkspaceView({ workspace }: { workspace: PlanWorkspace }) {
  return <PlanWorkspaceView workspace={workspace} variant={DOCUMENT_VARIANT} />;
}
