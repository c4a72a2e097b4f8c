import {
  type BlueprintChanges,
  type BlueprintDetail,
  type BlueprintSummary,
  type ListPage,
  type ListQuery,
  type PlanwrightClient,
  RECENT_BLUEPRINTS,
} from '@planwright/sdk';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ACTIVITY_KEY } from '../activity/activity-queries';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { isGone, isStaleWrite } from '../api/write-failure';

/**
 * Query keys: `['blueprints', 'list', query]` (the caller's own), `['blueprints', 'available', query]` (what
 * a document can be made from) and `['blueprints', 'detail', uuid]`. A write sets the detail it answered
 * and marks both kinds of list stale: a change of status or visibility changes who sees it (SPEC.md W1).
 */
export const blueprintKeys = {
  all: ['blueprints'] as const,
  lists: ['blueprints', 'list'] as const,
  list: (query: ListQuery) => ['blueprints', 'list', query] as const,
  available: ['blueprints', 'available'] as const,
  detail: (uuid: string) => ['blueprints', 'detail', uuid] as const,
};

/** How many blueprints a page of the All Blueprints list holds. */
export const BLUEPRINTS_PAGE_SIZE = 20;

/** The largest page the server gives: the new-document modal offers every available blueprint from it. */
const AVAILABLE_PAGE_SIZE = 100;

/** One page of the caller's own blueprints (`GET blueprints/`). */
export function blueprintListQuery(client: PlanwrightClient, query: ListQuery = {}) {
  return queryOptions({
    queryKey: blueprintKeys.list(query),
    queryFn: ({ signal }): Promise<ListPage<BlueprintSummary>> => client.blueprints.list(query, { signal }),
  });
}

/** Recent Blueprints: the 5 changed most recently (spec 000 §2, §9). */
export function recentBlueprintsQuery(client: PlanwrightClient) {
  return blueprintListQuery(client, { pageSize: RECENT_BLUEPRINTS, ordering: '-updated_at' });
}

/** What a document can be made from (`GET blueprints/available/`), for the new-document modal. */
export function availableBlueprintsQuery(client: PlanwrightClient) {
  const query: ListQuery = { pageSize: AVAILABLE_PAGE_SIZE, ordering: 'title' };
  return queryOptions({
    queryKey: [...blueprintKeys.available, query] as const,
    queryFn: ({ signal }): Promise<ListPage<BlueprintSummary>> =>
      client.blueprints.available(query, { signal }),
    // Opening the modal again within a minute reuses the list instead of reading it again.
    staleTime: 60_000,
  });
}

/** One blueprint with its content (`GET blueprints/{uuid}/`). */
export function blueprintQuery(client: PlanwrightClient, uuid: string) {
  return queryOptions({
    queryKey: blueprintKeys.detail(uuid),
    queryFn: ({ signal }): Promise<BlueprintDetail> => client.blueprints.get(uuid, { signal }),
  });
}

function listsStale(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: blueprintKeys.lists });
  void queryClient.invalidateQueries({ queryKey: blueprintKeys.available });
  void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
}

function blueprintWritten(queryClient: QueryClient, blueprint: BlueprintDetail): void {
  queryClient.setQueryData(blueprintKeys.detail(blueprint.uuid), blueprint);
  listsStale(queryClient);
}

/** `POST blueprints/`: a new private draft, cached for the page the user goes to. */
export function useCreateBlueprint() {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.blueprints.create(),
    onSuccess: (blueprint) => blueprintWritten(queryClient, blueprint),
  });
}

/** What an update sends: the changes, and the revision the user saw (sent as `If-Match`). */
export interface BlueprintUpdateVariables {
  changes: BlueprintChanges;
  revision: number | null;
}

/**
 * Changes a blueprint (`PATCH blueprints/{uuid}/`): the rename dialog and the marketplace form. After a
 * 412 the blueprint is read again, so the next attempt is made against what is current (W2).
 */
export function useUpdateBlueprint(uuid: string) {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ changes, revision }: BlueprintUpdateVariables) =>
      client.blueprints.update(uuid, changes, revision === null ? {} : { ifMatch: revision }),
    onSuccess: (blueprint) => blueprintWritten(queryClient, blueprint),
    onError: (error) => {
      if (isStaleWrite(error)) void queryClient.invalidateQueries({ queryKey: blueprintKeys.detail(uuid) });
    },
  });
}

/**
 * Publishes a new version of a published blueprint (`POST blueprints/{uuid}/publish/`, its version + 1), with
 * `If-Match` of the revision shown; after a 412 the blueprint is read again, as for updates.
 */
export function usePublishBlueprint(uuid: string) {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (revision: number | null) =>
      client.blueprints.publish(uuid, {}, revision === null ? {} : { ifMatch: revision }),
    onSuccess: (blueprint) => blueprintWritten(queryClient, blueprint),
    onError: (error) => {
      if (isStaleWrite(error)) void queryClient.invalidateQueries({ queryKey: blueprintKeys.detail(uuid) });
    },
  });
}

/**
 * Deletes a blueprint (`DELETE blueprints/{uuid}/`); a 404 counts as done (DE3). The detail leaves the
 * cache when the page using this hook goes (see `useDeleteDocument`).
 */
export function useDeleteBlueprint(uuid: string) {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async () => {
      try {
        await client.blueprints.delete(uuid);
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    },
    onSuccess: () => listsStale(queryClient),
  });
  const deleted = mutation.isSuccess;
  useEffect(() => {
    if (!deleted) return;
    return () => queryClient.removeQueries({ queryKey: blueprintKeys.detail(uuid), exact: true });
  }, [deleted, queryClient, uuid]);
  return mutation;
}
