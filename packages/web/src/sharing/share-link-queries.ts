import type { PlanwrightClient, ShareLinkInput } from '@planwright/sdk';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { usePlanwrightClient } from '../api/use-planwright-client';

/** Query key: a plan's share links. */
export const shareLinkKeys = { list: (uuid: string) => ['share-links', uuid] as const };

/** The plan's share links with what their readers did (`GET documents/{uuid}/share-links/`). */
export function shareLinksQuery(client: PlanwrightClient, uuid: string) {
  return queryOptions({
    queryKey: shareLinkKeys.list(uuid),
    queryFn: ({ signal }) => client.shareLinks.list(uuid, { signal }),
  });
}

/** Making and turning off links; each reads the list again. */
export function useShareLinkActions(uuid: string) {
  const { shareLinks } = usePlanwrightClient();
  const queryClient = useQueryClient();
  const settled = () => void queryClient.invalidateQueries({ queryKey: shareLinkKeys.list(uuid) });
  return {
    create: useMutation({
      mutationFn: (input: ShareLinkInput) => shareLinks.create(uuid, input),
      onSettled: settled,
    }),
    revoke: useMutation({ mutationFn: (id: string) => shareLinks.revoke(uuid, id), onSettled: settled }),
  };
}
