import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useParams } from 'react-router';
import { ACTIVITY_KEY } from '../../activity/activity-queries';
import { documentKeys } from '../../documents/document-queries';
import { LoadingStatus } from '../../ui/loading-status';
import { DocumentWorkspaceView } from '../../workspace/document-workspace-view';
import { usePlanWorkspace } from '../../workspace/use-plan-workspace';
import { WORKSPACE_TEXTS } from '../../workspace/workspace-texts';

/**
 * `/dashboard/documents/:uuid/edit` (spec 001 §2; workspace SPEC.md W1): the document editing workspace.
 * Its own lazy chunk, so the editor's weight stays off every other route. Autosaves and structure calls
 * change the document behind TanStack Query's back: its cached detail, the lists and the activity feeds are
 * marked stale after each write and when the page goes, so the pages around show what was done here.
 */
export function DocumentEditorPage() {
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const stale = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: documentKeys.all });
    void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
  }, [queryClient]);
  const workspace = usePlanWorkspace('document', uuid, stale);

  useEffect(() => stale, [stale]);

  if (!workspace) {
    return (
      <div className="p-6">
        <LoadingStatus>{WORKSPACE_TEXTS.loading}</LoadingStatus>
      </div>
    );
  }
  return <DocumentWorkspaceView key={workspace.instanceKey} workspace={workspace} />;
}
