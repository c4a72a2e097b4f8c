import { DOCUMENT_TEXTS, type DocumentSummary, documentTitle } from '@planwright/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { SIGNED_IN_TEXTS } from '../../account/account-texts';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { DOCUMENTS_PAGE_TEXTS as TEXTS } from '../../documents/document-page-texts';
import { documentPath } from '../../documents/document-paths';
import {
  DOCUMENTS_PAGE_SIZE,
  documentListQuery,
  recentDocumentsQuery,
} from '../../documents/document-queries';
import { NewDocumentModal } from '../../documents/new-document-modal';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { Pagination, pageCount } from '../../ui/pagination';
import { ProgressMeter } from '../../ui/progress-meter';
import { StatusBadge } from '../../ui/status-badge';
import { TimeLabel } from '../../ui/time-label';

const BREADCRUMBS: readonly BreadcrumbItem[] = [
  { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
  { label: TEXTS.title },
];

/**
 * `/dashboard/documents` (spec 000 §2; SPEC.md DL1–DL4): New Document, Recent Documents (the 5 changed most
 * recently, with progress and status) and All Documents, page by page.
 */
export function DocumentsPage() {
  useBreadcrumbs(BREADCRUMBS);
  const client = usePlanwrightClient();
  const [creating, setCreating] = useState(false);
  const [page, setPage] = useState(1);
  const recent = useQuery(recentDocumentsQuery(client));
  const all = useQuery({
    ...documentListQuery(client, { page, pageSize: DOCUMENTS_PAGE_SIZE, ordering: '-updated_at' }),
    // The page being left stays on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

  // A page past the end (its last documents were deleted): go to the last page there is.
  if (all.data && !all.isPlaceholderData && all.data.items.length === 0 && page > 1) {
    setPage(Math.min(page - 1, pageCount(all.data.total, DOCUMENTS_PAGE_SIZE)));
  }

  let body: ReactNode;
  if (recent.isError && !recent.data) {
    body = (
      <LoadError
        title={DOCUMENT_TEXTS.loadDocumentsFailed}
        detail={DOCUMENT_TEXTS.fetchDocumentsFailed}
        onRetry={() => {
          void recent.refetch();
          void all.refetch();
        }}
      />
    );
  } else if (!recent.data) {
    body = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
  } else if (recent.data.total === 0) {
    body = (
      <div className="card border border-dashed border-base-300 bg-base-100">
        <div className="card-body items-start">
          <h2 className="card-title">{TEXTS.emptyTitle}</h2>
          <p className="opacity-80">{TEXTS.empty}</p>
        </div>
      </div>
    );
  } else {
    body = (
      <div className="grid gap-6 lg:grid-cols-5">
        <RecentDocuments documents={recent.data.items} />
        <section aria-labelledby="all-documents" className="lg:col-span-2">
          <div className="card border border-base-300 bg-base-100 shadow-sm">
            <div className="card-body gap-3">
              <h2 id="all-documents" className="card-title">
                {TEXTS.allDocuments}
              </h2>
              {all.data ? (
                <>
                  <ul className="flex flex-col divide-y divide-base-300">
                    {all.data.items.map((document) => (
                      <li key={document.uuid} className="flex items-center gap-3 py-2">
                        <Link
                          to={documentPath(document.uuid)}
                          dir="auto"
                          className="link-hover link min-w-0 flex-1 [overflow-wrap:anywhere]"
                        >
                          {documentTitle(document)}
                        </Link>
                        <StatusBadge status={document.status} />
                      </li>
                    ))}
                  </ul>
                  <Pagination
                    what={TEXTS.allDocuments}
                    page={page}
                    total={all.data.total}
                    pageSize={DOCUMENTS_PAGE_SIZE}
                    onPage={setPage}
                  />
                </>
              ) : all.isError ? (
                <LoadError
                  title={DOCUMENT_TEXTS.loadDocumentsFailed}
                  detail={DOCUMENT_TEXTS.fetchDocumentsFailed}
                  onRetry={() => void all.refetch()}
                />
              ) : (
                <LoadingStatus>{TEXTS.loading}</LoadingStatus>
              )}
            </div>
          </div>
        </section>
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby="documents-title">
      <title>Documents · Planwright</title>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="documents-title" className="text-3xl font-bold">
            {TEXTS.title}
          </h1>
          <p className="mt-2 opacity-80">{TEXTS.intro}</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          {DOCUMENT_TEXTS.newDocument}
        </button>
      </header>
      {body}
      {creating && <NewDocumentModal onClose={() => setCreating(false)} />}
    </section>
  );
}

/** Recent Documents (DL2): title, last change, progress bar with `finalized/total subsections`, status. */
function RecentDocuments({ documents }: { documents: readonly DocumentSummary[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="lg:col-span-3">
      <h2 id={headingId} className="mb-3 text-xl font-semibold">
        {TEXTS.recentDocuments}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        {documents.map((document) => {
          const title = documentTitle(document);
          return (
            <li key={document.uuid} className="card border border-base-300 bg-base-100 shadow-sm">
              <div className="card-body gap-3 p-4">
                <div className="flex items-start justify-between gap-2">
                  <Link
                    to={documentPath(document.uuid)}
                    dir="auto"
                    className="link-hover link min-w-0 font-semibold [overflow-wrap:anywhere]"
                  >
                    {title}
                  </Link>
                  <StatusBadge status={document.status} />
                </div>
                <ProgressMeter progress={document.progress} label={TEXTS.progressOf(title)} />
                <p className="text-xs opacity-80">
                  {TEXTS.updated} <TimeLabel value={document.updated_at || document.created_at} />
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
