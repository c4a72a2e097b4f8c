import { BLUEPRINT_TEXTS, type BlueprintSummary, blueprintTitle, DOCUMENT_TEXTS } from '@planwright/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SIGNED_IN_TEXTS } from '../../account/account-texts';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { BLUEPRINTS_PAGE_TEXTS as TEXTS } from '../../blueprints/blueprint-page-texts';
import { blueprintPath } from '../../blueprints/blueprint-paths';
import {
  BLUEPRINTS_PAGE_SIZE,
  blueprintListQuery,
  recentBlueprintsQuery,
  useCreateBlueprint,
} from '../../blueprints/blueprint-queries';
import { VisibilityBadge } from '../../blueprints/visibility-badge';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { Alert } from '../../ui/alert';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { Pagination, pageCount } from '../../ui/pagination';
import { StatusBadge } from '../../ui/status-badge';
import { TimeLabel } from '../../ui/time-label';

const BREADCRUMBS: readonly BreadcrumbItem[] = [
  { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
  { label: TEXTS.title },
];

/**
 * `/dashboard/blueprints` (spec 000 §2; SPEC.md BL1–BL3): New Blueprint, Recent Blueprints (the 5 changed
 * most recently) and All Blueprints page by page, each with its status badge.
 */
export function BlueprintsPage() {
  useBreadcrumbs(BREADCRUMBS);
  const client = usePlanwrightClient();
  const navigate = useNavigate();
  const create = useCreateBlueprint();
  const [page, setPage] = useState(1);
  const recent = useQuery(recentBlueprintsQuery(client));
  const all = useQuery({
    ...blueprintListQuery(client, { page, pageSize: BLUEPRINTS_PAGE_SIZE, ordering: '-updated_at' }),
    placeholderData: keepPreviousData,
  });

  if (all.data && !all.isPlaceholderData && all.data.items.length === 0 && page > 1) {
    setPage(Math.min(page - 1, pageCount(all.data.total, BLUEPRINTS_PAGE_SIZE)));
  }

  let body: ReactNode;
  if (recent.isError && !recent.data) {
    body = (
      <LoadError
        title={TEXTS.loadFailed}
        detail={DOCUMENT_TEXTS.fetchBlueprintsFailed}
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
        <RecentBlueprints blueprints={recent.data.items} />
        <section aria-labelledby="all-blueprints" className="lg:col-span-2">
          <div className="card border border-base-300 bg-base-100 shadow-sm">
            <div className="card-body gap-3">
              <h2 id="all-blueprints" className="card-title">
                {TEXTS.allBlueprints}
              </h2>
              {all.data ? (
                <>
                  <ul className="flex flex-col divide-y divide-base-300">
                    {all.data.items.map((blueprint) => (
                      <li key={blueprint.uuid} className="flex items-center gap-3 py-2">
                        <Link
                          to={blueprintPath(blueprint.uuid)}
                          dir="auto"
                          className="link-hover link min-w-0 flex-1 [overflow-wrap:anywhere]"
                        >
                          {blueprintTitle(blueprint)}
                        </Link>
                        <StatusBadge status={blueprint.status} />
                      </li>
                    ))}
                  </ul>
                  <Pagination
                    what={TEXTS.allBlueprints}
                    page={page}
                    total={all.data.total}
                    pageSize={BLUEPRINTS_PAGE_SIZE}
                    onPage={setPage}
                  />
                </>
              ) : all.isError ? (
                <LoadError
                  title={TEXTS.loadFailed}
                  detail={DOCUMENT_TEXTS.fetchBlueprintsFailed}
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
    <section className="mx-auto max-w-6xl px-4 py-10" aria-labelledby="blueprints-title">
      <title>Blueprints · Planwright</title>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="blueprints-title" className="text-3xl font-bold">
            {TEXTS.title}
          </h1>
          <p className="mt-2 opacity-80">{TEXTS.intro}</p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          disabled={create.isPending}
          onClick={() =>
            create.mutate(undefined, { onSuccess: (blueprint) => navigate(blueprintPath(blueprint.uuid)) })
          }
        >
          {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {create.isPending ? TEXTS.creating : BLUEPRINT_TEXTS.newBlueprint}
        </button>
      </header>
      {create.isError && (
        <div className="mb-6">
          <Alert kind="error">{BLUEPRINT_TEXTS.createFailed}</Alert>
        </div>
      )}
      {body}
    </section>
  );
}

/** Recent Blueprints (BL2): title, status and visibility badges, version and last change. */
function RecentBlueprints({ blueprints }: { blueprints: readonly BlueprintSummary[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="lg:col-span-3">
      <h2 id={headingId} className="mb-3 text-xl font-semibold">
        {TEXTS.recentBlueprints}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        {blueprints.map((blueprint) => (
          <li key={blueprint.uuid} className="card border border-base-300 bg-base-100 shadow-sm">
            <div className="card-body gap-2 p-4">
              <div className="flex items-start justify-between gap-2">
                <Link
                  to={blueprintPath(blueprint.uuid)}
                  dir="auto"
                  className="link-hover link min-w-0 font-semibold [overflow-wrap:anywhere]"
                >
                  {blueprintTitle(blueprint)}
                </Link>
                <StatusBadge status={blueprint.status} />
              </div>
              <div className="flex flex-wrap items-center gap-2 text-xs opacity-80">
                <VisibilityBadge visibility={blueprint.visibility} />
                <span>{TEXTS.version(blueprint.version)}</span>
                <span>
                  {TEXTS.updated} <TimeLabel value={blueprint.updated_at} />
                </span>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
