import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { SHARED_PLAN_ROLES, type SharedPlanRole } from './members.js';
import { ORGANIZATION_ROLES, type OrganizationRole } from './organizations.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { textOrEmpty, wireId } from './wire-fields.js';

/** What an invitation is to: a plan with a plan role, or an organisation with an organisation role. */
export type InvitationTarget =
  | { document: { uuid: string; title: string }; organization: null; role: SharedPlanRole }
  | { document: null; organization: { id: string; name: string }; role: OrganizationRole };

/** An invitation to a plan or an organisation addressed to the caller, still pending. */
export type ReceivedInvitation = InvitationTarget & {
  id: string;
  /** The inviter's name (or username); `null` once their account is gone. */
  invited_by: string | null;
  created_at: string;
  expires_at: string;
};

/** What accepting an invitation gave the caller: the plan or the organisation they now belong to, as what. */
export type AcceptedInvitation = InvitationTarget;

const toPlan = z.object({
  document: z.object({ uuid: wireId, title: textOrEmpty }),
  // Servers before organisation invitations did not send the field.
  organization: z
    .null()
    .optional()
    .transform(() => null),
  role: z.enum(SHARED_PLAN_ROLES),
});
const toOrganization = z.object({
  document: z.null(),
  organization: z.object({ id: wireId, name: textOrEmpty }),
  role: z.enum(ORGANIZATION_ROLES),
});
const targetSchema: z.ZodType<InvitationTarget> = z.union([toPlan, toOrganization]);

const receivedSchema: z.ZodType<ReceivedInvitation> = z.intersection(
  targetSchema,
  z.object({
    id: wireId,
    invited_by: z
      .string()
      .nullish()
      .transform((value) => value ?? null),
    created_at: z.string(),
    expires_at: z.string(),
  }),
);

const acceptedSchema: z.ZodType<AcceptedInvitation> = targetSchema;

const tokenInput = z.string().trim().min(1, 'The invitation link is incomplete');

/**
 * The invitee's side of invitations to plans and organisations (docs/teams.md "Invitations"). Accepting needs an account with the
 * invited address: another account gets a 400 `invitation_other_address`; an expired, revoked or used
 * invitation a 400 `invitation_expired`, `invitation_invalid` or `invitation_used`.
 */
export interface InvitationsResource {
  /** `GET invitations/`: the invitations pending for the caller's address, newest first. */
  list(options?: CallOptions): Promise<ReceivedInvitation[]>;
  /** `POST invitations/{id}/accept/`: accepts one of them (the CLI's `planwright invitations accept <id>`). */
  accept(id: string, options?: CallOptions): Promise<AcceptedInvitation>;
  /**
   * `POST invitations/accept/`: accepts the invitation of an e-mail link (`/invitations/{token}`), given the
   * token (the link's last segment) or the whole link.
   */
  acceptLink(tokenOrLink: string, options?: CallOptions): Promise<AcceptedInvitation>;
}

/** The token of an invitation link, or the token itself. */
export function invitationTokenOf(tokenOrLink: string): string {
  const trimmed = parseInput(tokenInput, tokenOrLink, 'invitation link');
  const match = /\/invitations\/([^/?#]+)/.exec(trimmed);
  return match?.[1] ? decodeURIComponent(match[1]) : trimmed;
}

/** The invitations resource over a request helper. */
export function createInvitationsResource(http: HttpClient): InvitationsResource {
  return {
    list: async (options = {}) => {
      const answer = await http.get('invitations/', {
        schema: z.object({ data: z.array(receivedSchema) }),
        signal: options.signal,
      });
      return answer.data;
    },
    accept: (id, options = {}) =>
      http.post(
        `invitations/${pathSegment(id, 'id')}/accept/`,
        {},
        { schema: acceptedSchema, signal: options.signal },
      ),
    acceptLink: (tokenOrLink, options = {}) =>
      http.post(
        'invitations/accept/',
        { token: invitationTokenOf(tokenOrLink) },
        { schema: acceptedSchema, signal: options.signal },
      ),
  };
}
