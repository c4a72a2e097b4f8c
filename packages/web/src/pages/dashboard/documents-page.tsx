import { DOCUMENT_TEXTS, type DocumentSummary, documentTitle } from '@planwright/sdk';
import { useState } from 'react';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { DOCUMENTS_PAGE_TEXTS as TEXTS } from '../../documents/document-page-texts';
import { documentPath } from '../../documents/document-paths';
import {
  DOCUMENTS_PAGE_SIZE,
  documentListQuery,
  recentDocumentsQuery,
} from '../../documents/document-queries';
import { NewDocumentModal } from '../../documents/new-document-modal';
import { InvitationsNotice } from '../../sharing/invitations-notice';
import { SharedDocuments } from '../../sharing/shared-documents';
import { ProgressMeter } from '../../ui/progress-meter';
import { ResourceListPage, type ResourceListTexts } from '../../ui/resource-list-page';
import { TimeLabel } from '../../ui/time-label';

const LIST_TEXTS: ResourceListTexts = {
  title: TEXTS.title,
  intro: TEXTS.intro,
  recent: TEXTS.recentDocuments,
  all: TEXTS.allDocuments,
  loading: TEXTS.loading,
  loadFailed: DOCUMENT_TEXTS.loadDocumentsFailed,
  fetchFailed: DOCUMENT_TEXTS.fetchDocumentsFailed,
  emptyTitle: TEXTS.emptyTitle,
  empty: TEXTS.empty,
};

/**
 * `/dashboard/documents` (spec 000 §2; SPEC.md DL1–DL4): New Document, Recent Documents (the 5 changed most
 * recently, with progress and status) and All Documents, page by page.
 */
export function DocumentsPage() {
  const client = usePlanwrightClient();
  const [creating, setCreating] = useState(false);

  return (
    <ResourceListPage
      texts={LIST_TEXTS}
      action={
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          {DOCUMENT_TEXTS.newDocument}
        </button>
      }
      recentQuery={recentDocumentsQuery(client)}
      listQuery={(query) => documentListQuery(client, query)}
      pageSize={DOCUMENTS_PAGE_SIZE}
      pathOf={documentPath}
      titleOf={documentTitle}
      recentDetails={(document, title) => <RecentDocumentDetails document={document} title={title} />}
      notice={<InvitationsNotice />}
    >
      <SharedDocuments />
      {creating && <NewDocumentModal onClose={() => setCreating(false)} />}
    </ResourceListPage>
  );
}

/** A Recent Documents entry under its title (DL2): progress bar with `finalized/total subsections`, last change. */
function RecentDocumentDetails({ document, title }: { document: DocumentSummary; title: string }) {
  return (
    <>
      <ProgressMeter progress={document.progress} label={TEXTS.progressOf(title)} />
      <p className="text-xs opacity-80">
        {TEXTS.updated} <TimeLabel value={document.updated_at || document.created_at} />
      </p>
    </>
  );
}
