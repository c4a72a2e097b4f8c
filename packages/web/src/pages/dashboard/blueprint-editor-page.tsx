import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useParams } from 'react-router';
import { ACTIVITY_KEY } from '../../activity/activity-queries';
import { blueprintKeys } from '../../blueprints/blueprint-queries';
import { LoadingStatus } from '../../ui/loading-status';
import { BlueprintWorkspaceView } from '../../workspace/blueprint-workspace-view';
import { usePlanWorkspace } from '../../workspace/use-plan-workspace';
import { BLUEPRINT_WORKSPACE_TEXTS } from '../../workspace/workspace-texts';

/**
 * `/dashboard/blueprints/:uuid/edit` (spec 001 §2 "Blueprint editor layout"; workspace SPEC.md B1): the
 * blueprint editing workspace, in the editor's lazy chunk. Its writes mark the cached blueprint, the lists and
 * the activity feeds stale, after each write and when the page goes.
 */
export function BlueprintEditorPage() {
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const stale = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: blueprintKeys.all });
    void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
  }, [queryClient]);
  const workspace = usePlanWorkspace('blueprint', uuid, stale);

  useEffect(() => stale, [stale]);

  if (!workspace) {
    return (
      <div className="p-6">
        <LoadingStatus>{BLUEPRINT_WORKSPACE_TEXTS.loading}</LoadingStatus>
      </div>
    );
  }
  return <BlueprintWorkspaceView key={workspace.instanceKey} workspace={workspace} />;
}
