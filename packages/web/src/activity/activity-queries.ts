import type { ActivityQuery, PlanwrightClient } from '@planwright/sdk';
import { queryOptions } from '@tanstack/react-query';

/** Every activity feed; any write that records activity invalidates them all. */
export const ACTIVITY_KEY = ['activity'] as const;

/**
 * The newest entries a feed can show at once: the server's largest page. A feed shows 10 and expands to
 * these; beyond them it says how many there are in all (SPEC.md AC3).
 */
export const ACTIVITY_PAGE_SIZE = 100;

/** `GET activities/activities/` for one feed (the dashboard's level 1, a document's levels 1 to 2, …). */
export function activityQuery(client: PlanwrightClient, query: Omit<ActivityQuery, 'page' | 'pageSize'>) {
  return queryOptions({
    queryKey: [...ACTIVITY_KEY, query] as const,
    queryFn: ({ signal }) => client.activities.list({ ...query, pageSize: ACTIVITY_PAGE_SIZE }, { signal }),
  });
}
