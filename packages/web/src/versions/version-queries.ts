import type { PlanwrightClient } from '@planwright/sdk';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { usePlanwrightClient } from '../api/use-planwright-client';

/** Query keys: a plan's versions, and one version with its content. */
export const versionKeys = {
  list: (uuid: string) => ['versions', uuid] as const,
  detail: (uuid: string, id: string) => ['versions', uuid, id] as const,
};

/** The plan's newest 100 versions (`GET documents/{uuid}/versions/`). */
export function versionsQuery(client: PlanwrightClient, uuid: string) {
  return queryOptions({
    queryKey: versionKeys.list(uuid),
    queryFn: ({ signal }) => client.versions.list(uuid, { pageSize: 100 }, { signal }),
  });
}

/** One version with the plan's content as it was. */
export function versionQuery(client: PlanwrightClient, uuid: string, id: string) {
  return queryOptions({
    queryKey: versionKeys.detail(uuid, id),
    queryFn: ({ signal }) => client.versions.get(uuid, id, { signal }),
    // A version never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** What changed from a version to another, or to the plan as it is now (`to` is `now`) (`GET documents/{uuid}/diff/`). */
export function versionDiffQuery(client: PlanwrightClient, uuid: string, from: string, to = 'now') {
  return queryOptions({
    queryKey: ['versions', uuid, from, 'diff', to] as const,
    queryFn: ({ signal }) => client.versions.diff(uuid, { from, to }, { signal }),
    // The plan changes while people type: compared with now afresh each time; two versions never change.
    staleTime: to === 'now' ? 0 : Number.POSITIVE_INFINITY,
  });
}

/** Naming and restoring versions; each reads the list again. */
export function useVersionActions(uuid: string) {
  const { versions } = usePlanwrightClient();
  const queryClient = useQueryClient();
  const settled = () => void queryClient.invalidateQueries({ queryKey: versionKeys.list(uuid) });
  return {
    create: useMutation({
      mutationFn: (name: string) => versions.create(uuid, { name }),
      onSettled: settled,
    }),
    restore: useMutation({ mutationFn: (id: string) => versions.restore(uuid, id), onSettled: settled }),
  };
}
