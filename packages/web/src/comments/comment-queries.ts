import type { CommentThread, NewCommentThread, PlanwrightClient } from '@planwright/sdk';
import type { LiveDocument } from '@planwright/sdk/live';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ACTIVITY_KEY } from '../activity/activity-queries';
import { usePlanwrightClient } from '../api/use-planwright-client';
import type { PlanWorkspace } from '../workspace/plan-workspace';

/** Query key: a plan's comment threads (all of them; the panel filters). */
export const commentKeys = { plan: (uuid: string) => ['comments', uuid] as const };

/** Every comment thread of a plan (`GET documents/{uuid}/comments/`). */
export function commentsQuery(client: PlanwrightClient, uuid: string) {
  return queryOptions({
    queryKey: commentKeys.plan(uuid),
    queryFn: ({ signal }): Promise<CommentThread[]> => client.comments.list(uuid, {}, { signal }),
  });
}

/** The comment calls of a plan; each reads the threads (and the activity) again. */
export function useCommentActions(uuid: string) {
  const { comments } = usePlanwrightClient();
  const queryClient = useQueryClient();
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: commentKeys.plan(uuid) });
    void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
  };
  return {
    create: useMutation({
      mutationFn: (input: NewCommentThread) => comments.create(uuid, input),
      onSettled: settled,
    }),
    reply: useMutation({
      mutationFn: ({ thread, body }: { thread: string; body: string }) => comments.reply(uuid, thread, body),
      onSettled: settled,
    }),
    edit: useMutation({
      mutationFn: ({ thread, message, body }: { thread: string; message: string; body: string }) =>
        comments.edit(uuid, thread, message, body),
      onSettled: settled,
    }),
    remove: useMutation({
      mutationFn: ({ thread, message }: { thread: string; message: string }) =>
        comments.remove(uuid, thread, message),
      onSettled: settled,
    }),
    setStatus: useMutation({
      mutationFn: ({ thread, status }: { thread: string; status: 'open' | 'resolved' }) =>
        comments.setStatus(uuid, thread, status),
      onSettled: settled,
    }),
  };
}

/** Reads the plan's comments again whenever the server says they changed (someone else commented). */
export function useLiveComments(live: LiveDocument | null, uuid: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!live) return;
    let seen = live.getSnapshot().commentsRevision;
    return live.subscribe(() => {
      const revision = live.getSnapshot().commentsRevision;
      if (revision === seen) return;
      seen = revision;
      void queryClient.invalidateQueries({ queryKey: commentKeys.plan(uuid) });
    });
  }, [live, uuid, queryClient]);
}

/**
 * A document's open comment threads per subsection, for the sidebar (W44), kept current live; empty for a
 * blueprint (blueprints have no comments).
 */
export function useOpenCommentCounts(workspace: PlanWorkspace): ReadonlyMap<string, number> {
  const client = usePlanwrightClient();
  const isDocument = workspace.kind === 'document';
  const threads = useQuery({ ...commentsQuery(client, workspace.uuid), enabled: isDocument });
  useLiveComments(isDocument ? workspace.live : null, workspace.uuid);
  // The canvas marks the open threads that have a place in the text (W44).
  useEffect(() => {
    const marks = (threads.data ?? []).flatMap((thread) =>
      thread.status === 'open' && thread.anchor !== null ? [{ id: thread.id, anchor: thread.anchor }] : [],
    );
    workspace.setCommentMarks(marks);
  }, [threads.data, workspace]);
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const thread of threads.data ?? []) {
      if (thread.status !== 'open' || thread.subsection_uuid === null) continue;
      counts.set(thread.subsection_uuid, (counts.get(thread.subsection_uuid) ?? 0) + 1);
    }
    return counts;
  }, [threads.data]);
}
