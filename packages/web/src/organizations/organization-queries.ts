import type { OrganizationRole, PlanwrightClient } from '@planwright/sdk';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { usePlanwrightClient } from '../api/use-planwright-client';

/** Query keys: the caller's organisations, one organisation with its members, and the caller's team. */
export const organizationKeys = {
  all: ['organizations'] as const,
  detail: (id: string) => ['organizations', 'detail', id] as const,
  team: ['team'] as const,
};

/** The caller's organisations (`GET organizations/`): the team page, a restricted blueprint's organisations. */
export function organizationsQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: organizationKeys.all,
    queryFn: ({ signal }) => client.organizations.list({ signal }),
    staleTime: 60_000,
  });
}

/** One organisation with its members (`GET organizations/{id}/`). */
export function organizationQuery(client: PlanwrightClient, id: string) {
  return queryOptions({
    queryKey: organizationKeys.detail(id),
    queryFn: ({ signal }) => client.organizations.get(id, { signal }),
  });
}

/** The people the caller shares plans with (`GET team/`): the dashboard's Team Members and the team page. */
export function teamQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: organizationKeys.team,
    queryFn: ({ signal }) => client.members.team({ signal }),
  });
}

/** The organisation calls of the team page; each reads the organisations again. */
export function useOrganizationActions() {
  const { organizations } = usePlanwrightClient();
  const queryClient = useQueryClient();
  const settled = () => void queryClient.invalidateQueries({ queryKey: organizationKeys.all });
  return {
    create: useMutation({ mutationFn: (name: string) => organizations.create({ name }), onSettled: settled }),
    rename: useMutation({
      mutationFn: ({ id, name }: { id: string; name: string }) => organizations.rename(id, { name }),
      onSettled: settled,
    }),
    remove: useMutation({ mutationFn: (id: string) => organizations.delete(id), onSettled: settled }),
    invite: useMutation({
      mutationFn: ({ id, email, role }: { id: string; email: string; role: OrganizationRole }) =>
        organizations.invite(id, { email, role }),
      onSettled: settled,
    }),
    resendInvitation: useMutation({
      mutationFn: ({ id, invitation }: { id: string; invitation: string }) =>
        organizations.resendInvitation(id, invitation),
      onSettled: settled,
    }),
    revokeInvitation: useMutation({
      mutationFn: ({ id, invitation }: { id: string; invitation: string }) =>
        organizations.revokeInvitation(id, invitation),
      onSettled: settled,
    }),
    setMemberRole: useMutation({
      mutationFn: ({ id, member, role }: { id: string; member: string; role: OrganizationRole }) =>
        organizations.setMemberRole(id, member, role),
      onSettled: settled,
    }),
    removeMember: useMutation({
      mutationFn: ({ id, member }: { id: string; member: string }) => organizations.removeMember(id, member),
      onSettled: settled,
    }),
  };
}
