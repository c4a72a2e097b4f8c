import type { PlanwrightClient } from '@planwright/sdk';
import { queryOptions } from '@tanstack/react-query';

/** Everything cached about the signed-in account; dropped on sign-in and sign-out. */
export const ACCOUNT_QUERY_KEY = ['account'] as const;

/** `GET app/me/`: the banner's check and the profile page share it. */
export function currentUserQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: [...ACCOUNT_QUERY_KEY, 'me'] as const,
    queryFn: ({ signal }) => client.auth.me({ signal }),
  });
}

/** `GET config`: which third-party providers the server offers. Rarely changes. */
export function authConfigQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: ['auth-config'] as const,
    queryFn: ({ signal }) => client.auth.config({ signal }),
    staleTime: 5 * 60_000,
  });
}
