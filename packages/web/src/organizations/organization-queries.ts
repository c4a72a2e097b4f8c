import type { PlanwrightClient } from '@planwright/sdk';
import { queryOptions } from '@tanstack/react-query';

/** The caller's organisations (`GET organizations/`), for a restricted blueprint's allowed organisations. */
export function organizationsQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: ['organizations'] as const,
    queryFn: ({ signal }) => client.organizations.list({ signal }),
    // Memberships change rarely, and never from these screens.
    staleTime: 60_000,
  });
}
