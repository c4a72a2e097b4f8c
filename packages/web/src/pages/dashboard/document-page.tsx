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
import { type ReactNode, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { SIGNED_IN_TEXTS } from '../../account/account-texts';
import { ActivityList } from '../../activity/activity-list';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { isGone, writeFailureMessage } from '../../api/write-failure';
import { DOCUMENTS_PAGE_TEXTS, DOCUMENT_PAGE_TEXTS as TEXTS } from '../../documents/document-page-texts';
import { DOCUMENTS_PATH, documentEditorPath } from '../../documents/document-paths';
import { documentQuery, useDeleteDocument, useRenameDocument } from '../../documents/document-queries';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { ActionsMenu } from '../../ui/actions-menu';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { RenameDialog } from '../../ui/rename-dialog';
import { StatusBadge } from '../../ui/status-badge';
import { TitleCrumb } from '../../ui/title-crumb';

const DOCUMENTS_CRUMBS: readonly BreadcrumbItem[] = [
  { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
  { label: DOCUMENTS_PAGE_TEXTS.title, to: DOCUMENTS_PATH },
];

/**
 * `/dashboard/documents/:uuid` (spec 000 §2; SPEC.md DD1–DD4, RN1–RN5, DE1–DE3): the document's title, Edit,
 * Rename and Delete, its Progress, Tasks and Due Date, description, Key Objectives and Recent Activity.
 */
export function DocumentPage() {
  const { uuid = '' } = useParams();
  const client = usePlanwrightClient();
  const document = useQuery(documentQuery(client, uuid));
  const title = document.data ? documentTitle(document.data) : null;
  const crumbs = useMemo<readonly BreadcrumbItem[]>(
    () =>
      title === null
        ? DOCUMENTS_CRUMBS
        : [...DOCUMENTS_CRUMBS, { key: 'document', content: <TitleCrumb title={title} /> }],
    [title],
  );
  useBreadcrumbs(crumbs);

  let body: ReactNode;
  if (document.data) body = <DocumentView key={document.data.uuid} document={document.data} />;
  else if (document.isError && isGone(document.error)) {
    body = (
      <div className="flex flex-col items-start gap-4">
        <h1 className="text-2xl font-bold">{DOCUMENT_TEXTS.notFound}</h1>
        <Link to={DOCUMENTS_PATH} className="btn">
          {TEXTS.backToDocuments}
        </Link>
      </div>
    );
  } else if (document.isError) {
    body = <LoadError title={TEXTS.loadFailed} onRetry={() => void document.refetch()} />;
  } else body = <LoadingStatus>{DOCUMENT_TEXTS.loading}</LoadingStatus>;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <title>{`${title ?? DOCUMENTS_PAGE_TEXTS.title} · Planwright`}</title>
      {body}
    </section>
  );
}

type OpenDialog = 'rename' | 'delete' | null;

function DocumentView({ document }: { document: DocumentDetail }) {
  const navigate = useNavigate();
  const rename = useRenameDocument(document.uuid);
  const remove = useDeleteDocument(document.uuid);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const title = documentTitle(document);
  const description = document.description.trim();
  const percent = progressPercent(document.progress.finalized, document.progress.total);

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <h1 dir="auto" className="text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">
            {title}
          </h1>
          <div>
            <StatusBadge status={document.status} />
          </div>
        </div>
        <div className="flex items-center gap-2">
          <Link to={documentEditorPath(document.uuid)} className="btn btn-primary">
            {TEXTS.edit}
          </Link>
          <ActionsMenu
            label={TEXTS.actions}
            actions={[
              { label: TEXTS.rename, onSelect: () => setDialog('rename') },
              { label: TEXTS.delete, onSelect: () => setDialog('delete'), danger: true },
            ]}
          />
        </div>
      </header>

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
          <section
            aria-labelledby="document-description"
            className="card border border-base-300 bg-base-100 shadow-sm"
          >
            <div className="card-body gap-2">
              <h2 id="document-description" className="card-title">
                {TEXTS.description}
              </h2>
              <p dir="auto" className="whitespace-pre-line [overflow-wrap:anywhere]">
                {description === '' ? DOCUMENT_TEXTS.noDescription : document.description}
              </p>
            </div>
          </section>
          <section
            aria-labelledby="document-objectives"
            className="card border border-base-300 bg-base-100 shadow-sm"
          >
            <div className="card-body gap-2">
              <h2 id="document-objectives" className="card-title">
                {TEXTS.keyObjectives}
              </h2>
              <ul className="list-inside list-disc">
                {TEXTS.objectives.map((objective) => (
                  <li key={objective}>{objective}</li>
                ))}
              </ul>
            </div>
          </section>
        </div>
        <ActivityList query={{ ...ACTIVITY_LEVELS.document, target: 'document', objectId: document.uuid }} />
      </div>

      {dialog === 'rename' && (
        <RenameDialog
          heading={TEXTS.renameHeading}
          current={document.title}
          validate={validateDocumentTitle}
          onRename={(newTitle) => rename.mutateAsync({ title: newTitle, revision: document.revision })}
          failureMessage={(error) => writeFailureMessage(error, DOCUMENT_TEXTS.renameFailed, 'document')}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && (
        <ConfirmDialog
          heading={TEXTS.deleteHeading}
          confirmLabel={TEXTS.delete}
          busyLabel={TEXTS.deleting}
          cancelLabel={TEXTS.cancel}
          onConfirm={async () => {
            await remove.mutateAsync(document.revision);
            // Replace: Back must not lead to the page of a document that no longer exists.
            navigate(DOCUMENTS_PATH, { replace: true });
          }}
          failureMessage={(error) => writeFailureMessage(error, DOCUMENT_TEXTS.deleteFailed, 'document')}
          onClose={() => setDialog(null)}
        >
          <p dir="auto">{TEXTS.deleteBody(title)}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
