import { BLUEPRINT_TEXTS, type BlueprintSummary, blueprintTitle, DOCUMENT_TEXTS } from '@planwright/sdk';
import { useNavigate } from 'react-router';
import { usePlanwrightClient } from '../../api/use-planwright-client';
import { BLUEPRINTS_PAGE_TEXTS as TEXTS } from '../../blueprints/blueprint-page-texts';
import { blueprintEditorPath, blueprintPath } from '../../blueprints/blueprint-paths';
import {
  BLUEPRINTS_PAGE_SIZE,
  blueprintListQuery,
  recentBlueprintsQuery,
  useCreateBlueprint,
} from '../../blueprints/blueprint-queries';
import { VisibilityBadge } from '../../blueprints/visibility-badge';
import { Alert } from '../../ui/alert';
import { ResourceListPage, type ResourceListTexts } from '../../ui/resource-list-page';
import { TimeLabel } from '../../ui/time-label';

const LIST_TEXTS: ResourceListTexts = {
  title: TEXTS.title,
  intro: TEXTS.intro,
  recent: TEXTS.recentBlueprints,
  all: TEXTS.allBlueprints,
  loading: TEXTS.loading,
  loadFailed: TEXTS.loadFailed,
  fetchFailed: DOCUMENT_TEXTS.fetchBlueprintsFailed,
  emptyTitle: TEXTS.emptyTitle,
  empty: TEXTS.empty,
};

/**
 * `/dashboard/blueprints` (spec 000 §2; SPEC.md BL1–BL3): New Blueprint, Recent Blueprints (the 5 changed
 * most recently) and All Blueprints page by page, each with its status badge.
 */
export function BlueprintsPage() {
  const client = usePlanwrightClient();
  const navigate = useNavigate();
  const create = useCreateBlueprint();

  return (
    <ResourceListPage
      texts={LIST_TEXTS}
      action={
        <button
          type="button"
          className="btn btn-primary"
          disabled={create.isPending}
          onClick={() =>
            create.mutate(undefined, {
              onSuccess: (blueprint) => navigate(blueprintEditorPath(blueprint.uuid)),
            })
          }
        >
          {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {create.isPending ? TEXTS.creating : BLUEPRINT_TEXTS.newBlueprint}
        </button>
      }
      notice={
        create.isError && (
          <div className="mb-6">
            <Alert kind="error">{BLUEPRINT_TEXTS.createFailed}</Alert>
          </div>
        )
      }
      recentQuery={recentBlueprintsQuery(client)}
      listQuery={(query) => blueprintListQuery(client, query)}
      pageSize={BLUEPRINTS_PAGE_SIZE}
      pathOf={blueprintPath}
      titleOf={blueprintTitle}
      recentDetails={(blueprint) => <RecentBlueprintDetails blueprint={blueprint} />}
    />
  );
}

/** A Recent Blueprints entry under its title (BL2): visibility, version and last change. */
function RecentBlueprintDetails({ blueprint }: { blueprint: BlueprintSummary }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs opacity-80">
      <VisibilityBadge visibility={blueprint.visibility} />
      <span>{TEXTS.version(blueprint.version)}</span>
      <span>
        {TEXTS.updated} <TimeLabel value={blueprint.updated_at} />
      </span>
    </div>
  );
}
