import { documentTitle } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { DOCUMENTS_PAGE_TEXTS } from '../documents/document-page-texts';
import { documentPath } from '../documents/document-paths';
import { documentListQuery } from '../documents/document-queries';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { ProgressMeter } from '../ui/progress-meter';
import { ROLE_LABELS, SHARING_TEXTS as TEXTS } from './sharing-texts';

/** How many of the plans shared with the caller the documents page lists. */
const SHARED_PAGE_SIZE = 50;

/** The plans others shared with the caller, with their role on each (documents page; docs/teams.md). */
export function SharedDocuments() {
  const client = usePlanwrightClient();
  const shared = useQuery(
    documentListQuery(client, { scope: 'shared', pageSize: SHARED_PAGE_SIZE, ordering: '-updated_at' }),
  );
  let body: ReactNode;
  if (shared.data) {
    body =
      shared.data.items.length === 0 ? (
        <p className="opacity-80">{TEXTS.sharedEmpty}</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {shared.data.items.map((document) => {
            const title = documentTitle(document);
            return (
              <li key={document.uuid} className="card border border-base-300 bg-base-100">
                <div className="card-body gap-2 p-4">
                  <Link to={documentPath(document.uuid)} className="link-hover link font-medium" dir="auto">
                    {title}
                  </Link>
                  {document.role && <span className="badge badge-ghost">{ROLE_LABELS[document.role]}</span>}
                  <ProgressMeter
                    progress={document.progress}
                    label={DOCUMENTS_PAGE_TEXTS.progressOf(title)}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      );
  } else if (shared.isError) {
    body = <LoadError title={TEXTS.sharedLoadFailed} onRetry={() => void shared.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.sharedLoading}</LoadingStatus>;
  }
  return (
    <section aria-labelledby="shared-with-you" className="mt-10 flex flex-col gap-3">
      <h2 id="shared-with-you" className="text-xl font-semibold">
        {TEXTS.sharedWithYou}
      </h2>
      {body}
    </section>
  );
}
