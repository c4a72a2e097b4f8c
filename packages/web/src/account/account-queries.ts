import type { PlanwrightClient } from '@planwright/sdk';
import { queryOptions } from '@tanstack/react-query';

/** Everything cached about the signed-in account; dropped on sign-in and sign-out. */
export const ACCOUNT_QUERY_KEY = ['account'] as const;

/** The key of {@link currentUserQuery}. */
export const CURRENT_USER_QUERY_KEY = [...ACCOUNT_QUERY_KEY, 'me'] as const;

/** Profile › Security's queries, under the account's so that they go with it. */
export const SECURITY_QUERY_KEY = [...ACCOUNT_QUERY_KEY, 'security'] as const;

/** `GET account/email`, listed by Profile › Security; the profile's change of address adds one. */
export const EMAIL_ADDRESSES_QUERY_KEY = [...SECURITY_QUERY_KEY, 'emails'] as const;

/** `GET app/me/`: the banner's check and the profile page share it. */
export function currentUserQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: CURRENT_USER_QUERY_KEY,
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
