import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useCallback, useEffect } from 'react';
import { useParams } from 'react-router';
import { ACTIVITY_KEY } from '../../activity/activity-queries';
import { blueprintKeys } from '../../blueprints/blueprint-queries';
import { documentKeys } from '../../documents/document-queries';
import { LoadingStatus } from '../../ui/loading-status';
import { BlueprintWorkspaceView } from '../../workspace/blueprint-workspace-view';
import { DocumentWorkspaceView } from '../../workspace/document-workspace-view';
import type { PlanKind } from '../../workspace/plan-resource';
import type { PlanWorkspace } from '../../workspace/plan-workspace';
import { usePlanWorkspace } from '../../workspace/use-plan-workspace';
import { BLUEPRINT_WORKSPACE_TEXTS, WORKSPACE_TEXTS } from '../../workspace/workspace-texts';

interface EditorPageSettings {
  kind: PlanKind;
  /** The cached queries the workspace's writes make stale. */
  staleKey: QueryKey;
  loading: string;
  View: ComponentType<{ workspace: PlanWorkspace }>;
}

/**
 * An editing workspace page: the opened resource's workspace, and, after each write and when the page goes,
 * its cached detail, the lists and the activity feeds marked stale (autosaves and structure calls change the
 * resource behind TanStack Query's back), so the pages around show what was done here.
 */
function PlanEditorPage({ kind, staleKey, loading, View }: EditorPageSettings) {
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const stale = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: staleKey });
    void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
  }, [queryClient, staleKey]);
  const workspace = usePlanWorkspace(kind, uuid, stale);

  useEffect(() => stale, [stale]);

  if (!workspace) {
    return (
      <div className="p-6">
        <LoadingStatus>{loading}</LoadingStatus>
      </div>
    );
  }
  return <View key={workspace.instanceKey} workspace={workspace} />;
}

/**
 * `/dashboard/documents/:uuid/edit` (spec 001 §2; workspace SPEC.md W1): the document editing workspace. Its
 * own lazy chunk (shared with the blueprint editor), so the editor's weight stays off every other route.
 */
export function DocumentEditorPage() {
  return (
    <PlanEditorPage
      kind="document"
      staleKey={documentKeys.all}
      loading={WORKSPACE_TEXTS.loading}
      View={DocumentWorkspaceView}
    />
  );
}

/** `/dashboard/blueprints/:uuid/edit` (spec 001 §2 "Blueprint editor layout"; workspace SPEC.md B1). */
export function BlueprintEditorPage() {
  return (
    <PlanEditorPage
      kind="blueprint"
      staleKey={blueprintKeys.all}
      loading={BLUEPRINT_WORKSPACE_TEXTS.loading}
      View={BlueprintWorkspaceView}
    />
  );
}
