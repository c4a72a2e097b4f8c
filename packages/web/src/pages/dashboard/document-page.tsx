import {
  ACTIVITY_LEVELS,
  DOCUMENT_TEXTS,
  type DocumentDetail,
  documentTitle,
  formatProgress,
  progressPercent,
  validateDocumentTitle,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ActivityList } from '../../activity/activity-list';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { DOCUMENTS_PAGE_TEXTS, DOCUMENT_PAGE_TEXTS as TEXTS } from '../../documents/document-page-texts';
import { DOCUMENTS_PATH, documentEditorPath } from '../../documents/document-paths';
import { documentQuery, useDeleteDocument, useRenameDocument } from '../../documents/document-queries';
import { CardSection } from '../../ui/card-section';
import { DetailHeader } from '../../ui/detail-header';
import { ResourceDetailPage, type ResourceDetailTexts } from '../../ui/resource-detail-page';
import { StatusBadge } from '../../ui/status-badge';
import { useRenameAndDelete } from '../../ui/use-rename-and-delete';

const DETAIL_TEXTS: ResourceDetailTexts = {
  listTitle: DOCUMENTS_PAGE_TEXTS.title,
  loading: DOCUMENT_TEXTS.loading,
  notFound: DOCUMENT_TEXTS.notFound,
  backToList: TEXTS.backToDocuments,
  loadFailed: TEXTS.loadFailed,
};

/**
 * `/dashboard/documents/:uuid` (spec 000 §2; SPEC.md DD1–DD4, RN1–RN5, DE1–DE3): the document's title, Edit,
 * Rename and Delete, its Progress, Tasks and Due Date, description, Key Objectives and Recent Activity.
 */
export function DocumentPage() {
  const { uuid = '' } = useParams();
  const client = usePlanwrightClient();
  const document = useQuery(documentQuery(client, uuid));
  return (
    <ResourceDetailPage
      query={document}
      titleOf={documentTitle}
      listPath={DOCUMENTS_PATH}
      texts={DETAIL_TEXTS}
    >
      {(data) => <DocumentView key={data.uuid} document={data} />}
    </ResourceDetailPage>
  );
}

function DocumentView({ document }: { document: DocumentDetail }) {
  const rename = useRenameDocument(document.uuid);
  const remove = useDeleteDocument(document.uuid);
  const title = documentTitle(document);
  const { menu, dialogs } = useRenameAndDelete({
    kind: 'document',
    texts: TEXTS,
    title,
    current: document.title,
    validate: validateDocumentTitle,
    rename: (newTitle) => rename.mutateAsync({ title: newTitle, revision: document.revision }),
    remove: () => remove.mutateAsync(document.revision),
    renameFailed: DOCUMENT_TEXTS.renameFailed,
    deleteFailed: DOCUMENT_TEXTS.deleteFailed,
    listPath: DOCUMENTS_PATH,
  });
  const description = document.description.trim();
  const percent = progressPercent(document.progress.finalized, document.progress.total);

  return (
    <div className="flex flex-col gap-6">
      <DetailHeader
        title={title}
        edit={{ to: documentEditorPath(document.uuid), label: TEXTS.edit }}
        menu={menu}
      >
        <div>
          <StatusBadge status={document.status} />
        </div>
      </DetailHeader>

      <div className="stats stats-vertical w-full border border-base-300 bg-base-100 shadow-sm sm:stats-horizontal">
        <div className="stat">
          <div className="stat-title">{TEXTS.progress}</div>
          <div className="stat-value">{percent}%</div>
          <div className="stat-desc">
            <progress
              className="progress progress-primary w-full"
              value={percent}
              max={100}
              aria-label={TEXTS.progress}
            />
          </div>
        </div>
        <div className="stat">
          <div className="stat-title">{TEXTS.tasks}</div>
          <div className="stat-value">
            {document.progress.finalized}/{document.progress.total}
          </div>
          <div className="stat-desc">{formatProgress(document.progress)}</div>
        </div>
        <div className="stat">
          <div className="stat-title">{TEXTS.dueDate}</div>
          <div className="stat-value">{DOCUMENT_TEXTS.dueDatePlaceholder}</div>
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <CardSection title={TEXTS.description}>
            <p dir="auto" className="whitespace-pre-line [overflow-wrap:anywhere]">
              {description === '' ? DOCUMENT_TEXTS.noDescription : document.description}
            </p>
          </CardSection>
          <CardSection title={TEXTS.keyObjectives}>
            <ul className="list-inside list-disc">
              {TEXTS.objectives.map((objective) => (
                <li key={objective}>{objective}</li>
              ))}
            </ul>
          </CardSection>
        </div>
        <ActivityList query={{ ...ACTIVITY_LEVELS.document, target: 'document', objectId: document.uuid }} />
      </div>

      {dialogs}
    </div>
  );
}
