import {
  type AcceptedInvitation,
  ApiError,
  InvalidInputError,
  type PlanSharing,
  type PlanwrightClient,
  type SharedPlanRole,
} from '@planwright/sdk';
import { queryOptions, type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { ACTIVITY_KEY } from '../activity/activity-queries';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { documentEditorPath } from '../documents/document-paths';
import { documentKeys } from '../documents/document-queries';
import { organizationKeys } from '../organizations/organization-queries';

/** Query keys: who one plan is shared with, and the invitations addressed to the caller. */
export const sharingKeys = {
  plan: (uuid: string) => ['sharing', uuid] as const,
  invitations: ['invitations'] as const,
};

/** Who a plan is shared with (`GET documents/{uuid}/members/`), as the caller may see it. */
export function sharingQuery(client: PlanwrightClient, uuid: string) {
  return queryOptions({
    queryKey: sharingKeys.plan(uuid),
    queryFn: ({ signal }): Promise<PlanSharing> => client.members.list(uuid, { signal }),
  });
}

/** The invitations pending for the caller's address (`GET invitations/`). */
export function invitationsQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: sharingKeys.invitations,
    queryFn: ({ signal }) => client.invitations.list({ signal }),
  });
}

/**
 * What a refused sharing call says: the server's own sentence (it names why: "already has a pending
 * invitation", "Only the owner…"), the field's message for bad input, else `fallback`.
 */
export function sharingFailure(error: unknown, fallback: string): string {
  if (InvalidInputError.isInstance(error)) return error.issues[0]?.message ?? fallback;
  if (!ApiError.isInstance(error)) return fallback;
  const field = (error.data as { errors?: Array<{ message?: unknown }> } | undefined)?.errors?.[0]?.message;
  if (typeof field === 'string') return field;
  return error.detail ?? fallback;
}

/** The sharing calls of one plan; each reads who it is shared with again, and a change of access the lists. */
export function useSharingActions(uuid: string) {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: sharingKeys.plan(uuid) });
    void queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
  };
  const { members } = client;
  return {
    invite: useMutation({
      mutationFn: (input: { email: string; role: SharedPlanRole }) => members.invite(uuid, input),
      onSettled: settled,
    }),
    resend: useMutation({
      mutationFn: (id: string) => members.resendInvitation(uuid, id),
      onSettled: settled,
    }),
    revoke: useMutation({
      mutationFn: (id: string) => members.revokeInvitation(uuid, id),
      onSettled: settled,
    }),
    setRole: useMutation({
      mutationFn: ({ userId, role }: { userId: string; role: SharedPlanRole }) =>
        members.setRole(uuid, userId, role),
      onSettled: settled,
    }),
    remove: useMutation({ mutationFn: (userId: string) => members.remove(uuid, userId), onSettled: settled }),
    leave: useMutation({
      mutationFn: () => members.leave(uuid),
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: documentKeys.lists }),
    }),
    setEditorsCanShare: useMutation({
      mutationFn: (allowed: boolean) => members.setEditorsCanShare(uuid, allowed),
      onSuccess: (sharing) => queryClient.setQueryData(sharingKeys.plan(uuid), sharing),
      onSettled: settled,
    }),
    shareWithOrganization: useMutation({
      mutationFn: ({ organizationId, role }: { organizationId: string; role: SharedPlanRole }) =>
        members.shareWithOrganization(uuid, organizationId, role),
      onSettled: settled,
    }),
    unshareWithOrganization: useMutation({
      mutationFn: (organizationId: string) => members.unshareWithOrganization(uuid, organizationId),
      onSettled: settled,
    }),
  };
}

/** The team page, where an organisation joined through an invitation is. */
export const TEAM_PATH = '/dashboard/team';

/** Where accepting an invitation leads: the plan's editor, or the team page for an organisation. */
export function acceptedInvitationPath(accepted: AcceptedInvitation): string {
  return accepted.document ? documentEditorPath(accepted.document.uuid) : TEAM_PATH;
}

/** Accepting an invitation, by id (the dashboard's list) or by the e-mail link's token. */
export function useAcceptInvitation(): UseMutationResult<
  AcceptedInvitation,
  Error,
  { id: string } | { token: string }
> {
  const client = usePlanwrightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (by: { id: string } | { token: string }) =>
      'id' in by ? client.invitations.accept(by.id) : client.invitations.acceptLink(by.token),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sharingKeys.invitations });
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists });
      void queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      void queryClient.invalidateQueries({ queryKey: organizationKeys.team });
    },
  });
}
