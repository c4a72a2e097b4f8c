import {
  ACTIVITY_LEVELS,
  BLUEPRINT_TEXTS,
  type BlueprintDetail,
  blueprintTitle,
  publisherLabel,
  validateBlueprintTitle,
} from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ActivityList } from '../../activity/activity-list';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { BLUEPRINTS_PAGE_TEXTS, BLUEPRINT_PAGE_TEXTS as TEXTS } from '../../blueprints/blueprint-page-texts';
import { BLUEPRINTS_PATH, blueprintEditorPath } from '../../blueprints/blueprint-paths';
import { blueprintQuery, useDeleteBlueprint, useUpdateBlueprint } from '../../blueprints/blueprint-queries';
import { MarketplaceForm } from '../../blueprints/marketplace-form';
import { VisibilityBadge } from '../../blueprints/visibility-badge';
import { CardSection } from '../../ui/card-section';
import { DetailHeader } from '../../ui/detail-header';
import { ResourceDetailPage, type ResourceDetailTexts } from '../../ui/resource-detail-page';
import { StatusBadge } from '../../ui/status-badge';
import { TimeLabel } from '../../ui/time-label';
import { useRenameAndDelete } from '../../ui/use-rename-and-delete';

const DETAIL_TEXTS: ResourceDetailTexts = {
  listTitle: BLUEPRINTS_PAGE_TEXTS.title,
  loading: TEXTS.loading,
  notFound: BLUEPRINT_TEXTS.notFound,
  backToList: TEXTS.backToBlueprints,
  loadFailed: BLUEPRINT_TEXTS.loadFailed,
};

/**
 * `/dashboard/blueprints/:uuid` (spec 000 §2; SPEC.md BD1–BD4, BF1–BF7): stats, the marketplace form, the
 * Sales card, Recent Activity; for its owner also Edit, Rename and Delete.
 */
export function BlueprintPage() {
  const { uuid = '' } = useParams();
  const client = usePlanwrightClient();
  const blueprint = useQuery(blueprintQuery(client, uuid));
  return (
    <ResourceDetailPage
      query={blueprint}
      titleOf={blueprintTitle}
      listPath={BLUEPRINTS_PATH}
      texts={DETAIL_TEXTS}
    >
      {(data) => <BlueprintView key={data.uuid} blueprint={data} />}
    </ResourceDetailPage>
  );
}

function BlueprintView({ blueprint }: { blueprint: BlueprintDetail }) {
  const rename = useUpdateBlueprint(blueprint.uuid);
  const remove = useDeleteBlueprint(blueprint.uuid);
  const title = blueprintTitle(blueprint);
  const { menu, dialogs } = useRenameAndDelete({
    kind: 'blueprint',
    texts: TEXTS,
    title,
    current: blueprint.title,
    validate: validateBlueprintTitle,
    rename: (newTitle) => rename.mutateAsync({ changes: { title: newTitle }, revision: blueprint.revision }),
    // Unlike a document's, a blueprint's deletion sends no `If-Match` (SPEC.md W2).
    remove: () => remove.mutateAsync(),
    renameFailed: BLUEPRINT_TEXTS.renameFailed,
    deleteFailed: BLUEPRINT_TEXTS.deleteFailed,
    listPath: BLUEPRINTS_PATH,
  });
  const description = blueprint.description.trim();

  return (
    <div className="flex flex-col gap-6">
      <DetailHeader
        title={title}
        edit={{
          to: blueprintEditorPath(blueprint.uuid),
          label: blueprint.is_owner ? TEXTS.edit : TEXTS.view,
        }}
        menu={blueprint.is_owner ? menu : undefined}
      >
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
      </DetailHeader>

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
          <CardSection title={TEXTS.marketplace}>
            <p className="text-sm opacity-80">{TEXTS.marketplaceIntro}</p>
            <MarketplaceForm blueprint={blueprint} />
          </CardSection>
          <CardSection title={TEXTS.sales}>
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
            <p className="text-xs opacity-80">{TEXTS.salesNote}</p>
          </CardSection>
        </div>
        <ActivityList
          query={{ ...ACTIVITY_LEVELS.document, target: 'blueprint', objectId: blueprint.uuid }}
        />
      </div>

      {dialogs}
    </div>
  );
}
