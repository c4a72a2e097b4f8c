import {
  ACTIVITY_LEVELS,
  BLUEPRINT_TEXTS,
  type BlueprintDetail,
  blueprintTitle,
  publisherLabel,
  validateBlueprintTitle,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { SIGNED_IN_TEXTS } from '../../account/account-texts';
import { ActivityList } from '../../activity/activity-list';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { isGone, writeFailureMessage } from '../../api/write-failure';
import { BLUEPRINTS_PAGE_TEXTS, BLUEPRINT_PAGE_TEXTS as TEXTS } from '../../blueprints/blueprint-page-texts';
import { BLUEPRINTS_PATH, blueprintEditorPath } from '../../blueprints/blueprint-paths';
import { blueprintQuery, useDeleteBlueprint, useUpdateBlueprint } from '../../blueprints/blueprint-queries';
import { MarketplaceForm } from '../../blueprints/marketplace-form';
import { VisibilityBadge } from '../../blueprints/visibility-badge';
import type { BreadcrumbItem } from '../../layout/breadcrumb-store';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { ActionsMenu } from '../../ui/actions-menu';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { RenameDialog } from '../../ui/rename-dialog';
import { StatusBadge } from '../../ui/status-badge';
import { TimeLabel } from '../../ui/time-label';
import { TitleCrumb } from '../../ui/title-crumb';

const BLUEPRINTS_CRUMBS: readonly BreadcrumbItem[] = [
  { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
  { label: BLUEPRINTS_PAGE_TEXTS.title, to: BLUEPRINTS_PATH },
];

/**
 * `/dashboard/blueprints/:uuid` (spec 000 §2; SPEC.md BD1–BD4, BF1–BF7): stats, the marketplace form, the
 * Sales card, Recent Activity; for its owner also Edit, Rename and Delete.
 */
export function BlueprintPage() {
  const { uuid = '' } = useParams();
  const client = usePlanwrightClient();
  const blueprint = useQuery(blueprintQuery(client, uuid));
  const title = blueprint.data ? blueprintTitle(blueprint.data) : null;
  const crumbs = useMemo<readonly BreadcrumbItem[]>(
    () =>
      title === null
        ? BLUEPRINTS_CRUMBS
        : [...BLUEPRINTS_CRUMBS, { key: 'blueprint', content: <TitleCrumb title={title} /> }],
    [title],
  );
  useBreadcrumbs(crumbs);

  let body: ReactNode;
  if (blueprint.data) body = <BlueprintView key={blueprint.data.uuid} blueprint={blueprint.data} />;
  else if (blueprint.isError && isGone(blueprint.error)) {
    body = (
      <div className="flex flex-col items-start gap-4">
        <h1 className="text-2xl font-bold">{BLUEPRINT_TEXTS.notFound}</h1>
        <Link to={BLUEPRINTS_PATH} className="btn">
          {TEXTS.backToBlueprints}
        </Link>
      </div>
    );
  } else if (blueprint.isError) {
    body = <LoadError title={BLUEPRINT_TEXTS.loadFailed} onRetry={() => void blueprint.refetch()} />;
  } else body = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <title>{`${title ?? BLUEPRINTS_PAGE_TEXTS.title} · Planwright`}</title>
      {body}
    </section>
  );
}

type OpenDialog = 'rename' | 'delete' | null;

function BlueprintView({ blueprint }: { blueprint: BlueprintDetail }) {
  const navigate = useNavigate();
  const rename = useUpdateBlueprint(blueprint.uuid);
  const remove = useDeleteBlueprint(blueprint.uuid);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const title = blueprintTitle(blueprint);
  const description = blueprint.description.trim();

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <h1 dir="auto" className="text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">
            {title}
          </h1>
          <p dir="auto" className="opacity-80 [overflow-wrap:anywhere]">
            {TEXTS.publishedBy(publisherLabel(blueprint))}
          </p>
          <div className="flex flex-wrap gap-2">
            <StatusBadge status={blueprint.status} />
            <VisibilityBadge visibility={blueprint.visibility} />
            <span className="badge badge-sm badge-ghost">
              {BLUEPRINTS_PAGE_TEXTS.version(blueprint.version)}
            </span>
          </div>
          {description !== '' && (
            <p dir="auto" className="whitespace-pre-line [overflow-wrap:anywhere]">
              {blueprint.description}
            </p>
          )}
        </div>
        {blueprint.is_owner && (
          <div className="flex items-center gap-2">
            <Link to={blueprintEditorPath(blueprint.uuid)} className="btn btn-primary">
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
        )}
      </header>

      <div className="stats stats-vertical w-full border border-base-300 bg-base-100 shadow-sm sm:stats-horizontal">
        <div className="stat">
          <div className="stat-title">{TEXTS.sections}</div>
          <div className="stat-value">{blueprint.sections_count}</div>
        </div>
        <div className="stat">
          <div className="stat-title">{TEXTS.updated}</div>
          <div className="stat-value text-2xl">
            <TimeLabel value={blueprint.updated_at} />
          </div>
        </div>
        <div className="stat">
          <div className="stat-title">{TEXTS.created}</div>
          <div className="stat-value text-2xl">
            <TimeLabel value={blueprint.created_at} />
          </div>
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <section
            aria-labelledby="blueprint-marketplace"
            className="card border border-base-300 bg-base-100 shadow-sm"
          >
            <div className="card-body gap-3">
              <h2 id="blueprint-marketplace" className="card-title">
                {TEXTS.marketplace}
              </h2>
              <p className="text-sm opacity-80">{TEXTS.marketplaceIntro}</p>
              <MarketplaceForm blueprint={blueprint} />
            </div>
          </section>
          <section
            aria-labelledby="blueprint-sales"
            className="card border border-base-300 bg-base-100 shadow-sm"
          >
            <div className="card-body gap-3">
              <h2 id="blueprint-sales" className="card-title">
                {TEXTS.sales}
              </h2>
              <div className="stats stats-vertical sm:stats-horizontal">
                <div className="stat px-0 sm:px-6 sm:first:pl-0">
                  <div className="stat-title">{TEXTS.downloads}</div>
                  <div className="stat-value text-2xl">{BLUEPRINT_TEXTS.salesDownloadsPlaceholder}</div>
                </div>
                <div className="stat px-0 sm:px-6">
                  <div className="stat-title">{TEXTS.revenue}</div>
                  <div className="stat-value text-2xl">{BLUEPRINT_TEXTS.salesRevenuePlaceholder}</div>
                </div>
              </div>
              <p className="text-xs opacity-70">{TEXTS.salesNote}</p>
            </div>
          </section>
        </div>
        <ActivityList
          query={{ ...ACTIVITY_LEVELS.document, target: 'blueprint', objectId: blueprint.uuid }}
        />
      </div>

      {dialog === 'rename' && (
        <RenameDialog
          heading={TEXTS.renameHeading}
          current={blueprint.title}
          validate={validateBlueprintTitle}
          onRename={(newTitle) =>
            rename.mutateAsync({ changes: { title: newTitle }, revision: blueprint.revision })
          }
          failureMessage={(error) => writeFailureMessage(error, BLUEPRINT_TEXTS.renameFailed, 'blueprint')}
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
            await remove.mutateAsync();
            navigate(BLUEPRINTS_PATH, { replace: true });
          }}
          failureMessage={() => BLUEPRINT_TEXTS.deleteFailed}
          onClose={() => setDialog(null)}
        >
          <p dir="auto">{TEXTS.deleteBody(title)}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
