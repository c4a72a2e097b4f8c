import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { textOrEmpty, wireId } from './wire-fields.js';

/** Someone's role on a plan, from the most to the least it allows (docs/teams.md "Roles"). */
export const PLAN_ROLES = ['owner', 'editor', 'commenter', 'viewer'] as const;
/** One of {@link PLAN_ROLES}. */
export type PlanRole = (typeof PLAN_ROLES)[number];
/** The roles a plan can be shared with (its owner is whoever made it). */
export const SHARED_PLAN_ROLES = ['editor', 'commenter', 'viewer'] as const;
/** One of {@link SHARED_PLAN_ROLES}. */
export type SharedPlanRole = (typeof SHARED_PLAN_ROLES)[number];

/** What each role lets a person do with a plan. */
export type PlanAction = 'read' | 'comment' | 'edit' | 'share' | 'own';

const STRENGTH: Readonly<Record<PlanRole, number>> = { viewer: 0, commenter: 1, editor: 2, owner: 3 };
const NEEDS: Readonly<Record<Exclude<PlanAction, 'share'>, PlanRole>> = {
  read: 'viewer',
  comment: 'commenter',
  edit: 'editor',
  own: 'owner',
};

/**
 * Whether `role` may do `action` (the server decides; this is for showing only what will work): viewers read
 * and export, commenters also comment, editors also edit, chat and accept proposals, owners also delete,
 * share and manage members. Editors share when the owner allows it (`editorsCanShare`).
 */
export function planRoleAllows(role: PlanRole | null, action: PlanAction, editorsCanShare = false): boolean {
  // A server without teams says no role: the caller owns what they see.
  const effective = role ?? 'owner';
  if (action === 'share') return effective === 'owner' || (effective === 'editor' && editorsCanShare);
  return STRENGTH[effective] >= STRENGTH[NEEDS[action]];
}

/** A person with a role on a plan. `email` only for those who manage its sharing; else `username`. */
export interface PlanMember {
  user: { id: string; username: string; first_name: string; last_name: string; email: string | null };
  role: PlanRole;
  /** ISO 8601 date-time: when they joined (the owner: when the plan was made). */
  joined_at: string;
  /** Whether this is the caller. */
  is_you: boolean;
}

/** Someone the caller shares plans with (`GET team/`). */
export interface Teammate {
  user: { id: string; username: string; first_name: string; last_name: string };
  /** How many of the caller's plans (own or shared with them) they are on. */
  plans: number;
}

/** An organisation a plan is shared with: its members get `role`. */
export interface PlanOrganization {
  organization: { id: string; name: string };
  role: SharedPlanRole;
  granted_at: string;
}

/**
 * An invitation sent and still pending, as the people who manage a plan's (or an organisation's) members see it;
 * `Role` is a plan role, or an organisation role for an organisation's invitations.
 */
export interface SentInvitation<Role extends string = SharedPlanRole> {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  /** When the e-mail was last sent; a resend moves it and `expires_at`. */
  sent_at: string;
  expires_at: string;
}

/** Who a plan is shared with, as the caller may see it. */
export interface PlanSharing {
  /** The owner first, then the members, the strongest roles first. */
  members: PlanMember[];
  organizations: PlanOrganization[];
  /** The pending invitations; `null` for callers who may not invite (they are not shown them). */
  invitations: SentInvitation[] | null;
  /** Whether editors may invite people too (the owner's setting). */
  editorsCanShare: boolean;
  /** The caller's role. */
  role: PlanRole;
}

const planRole = z.enum(PLAN_ROLES);
const sharedRole = z.enum(SHARED_PLAN_ROLES);

const memberSchema: z.ZodType<PlanMember> = z.object({
  user: z
    .object({
      id: wireId,
      username: textOrEmpty,
      first_name: textOrEmpty,
      last_name: textOrEmpty,
      email: z.string().nullish(),
    })
    .transform((user) => ({ ...user, email: user.email ?? null })),
  role: planRole,
  joined_at: z.string(),
  is_you: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
});

const organizationSchema: z.ZodType<PlanOrganization> = z.object({
  organization: z.object({ id: wireId, name: textOrEmpty }),
  role: sharedRole,
  granted_at: z.string(),
});

/** A sent invitation as answered, with the roles it may carry. */
export function sentInvitationSchemaOf<const Role extends string>(
  roles: readonly [Role, ...Role[]],
): z.ZodType<SentInvitation<Role>> {
  return z.object({
    id: wireId,
    email: z.string(),
    role: z.enum(roles),
    created_at: z.string(),
    sent_at: z.string(),
    expires_at: z.string(),
  });
}

/** A plan's sent invitation as answered. */
export const sentInvitationSchema: z.ZodType<SentInvitation> = sentInvitationSchemaOf(SHARED_PLAN_ROLES);

const sharingSchema: z.ZodType<PlanSharing> = z
  .object({
    data: z.array(memberSchema),
    organizations: z.array(organizationSchema).nullish(),
    invitations: z.array(sentInvitationSchema).nullish(),
    editors_can_share: z.boolean().nullish(),
    role: planRole,
  })
  .transform((wire) => ({
    members: wire.data,
    organizations: wire.organizations ?? [],
    invitations: wire.invitations ?? null,
    editorsCanShare: wire.editors_can_share ?? false,
    role: wire.role,
  }));

const teamSchema = z.object({
  data: z.array(
    z.object({
      user: z.object({ id: wireId, username: textOrEmpty, first_name: textOrEmpty, last_name: textOrEmpty }),
      plans: z.number().int().nonnegative(),
    }),
  ),
  total: z.number().int().nonnegative(),
});

const roleInput = z.object({ role: sharedRole });
const inviteInput = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required'),
  role: sharedRole,
});

/**
 * Who a document is shared with (docs/teams.md, docs/http-api.md "Members and invitations"). Everyone on a
 * plan lists its members; its owner (and editors, when allowed) invite; only its owner changes roles,
 * removes people and shares it with organisations. A call the caller's role does not allow is an `ApiError`
 * with status 404 and code `not_permitted` whose message says why.
 */
export interface MembersResource {
  /** `GET documents/{uuid}/members/`. */
  list(documentUuid: string, options?: CallOptions): Promise<PlanSharing>;
  /**
   * `GET team/`: the people the caller shares plans with, most shared plans first (at most 200 in `people`;
   * `total` counts them all).
   */
  team(options?: CallOptions): Promise<{ people: Teammate[]; total: number }>;
  /**
   * `POST documents/{uuid}/invitations/`: e-mails `email` a link that adds them as `role` (signing up first
   * when the address has no account). 409 `already_member` or `already_invited`; 429 when too many were sent.
   */
  invite(
    documentUuid: string,
    input: { email: string; role: SharedPlanRole },
    options?: CallOptions,
  ): Promise<SentInvitation>;
  /** `POST documents/{uuid}/invitations/{id}/resend/`: a new e-mail and link; the old link stops working. */
  resendInvitation(
    documentUuid: string,
    invitationId: string,
    options?: CallOptions,
  ): Promise<SentInvitation>;
  /** `DELETE documents/{uuid}/invitations/{id}/`: the invitation's link stops working. */
  revokeInvitation(documentUuid: string, invitationId: string, options?: CallOptions): Promise<void>;
  /** `PATCH documents/{uuid}/members/{userId}/` (owner): changes a member's role. */
  setRole(
    documentUuid: string,
    userId: string,
    role: SharedPlanRole,
    options?: CallOptions,
  ): Promise<PlanMember>;
  /** `DELETE documents/{uuid}/members/{userId}/` (owner): removes a member; their open editors close at once. */
  remove(documentUuid: string, userId: string, options?: CallOptions): Promise<void>;
  /** `DELETE documents/{uuid}/members/me/`: the caller leaves a plan shared with them. */
  leave(documentUuid: string, options?: CallOptions): Promise<void>;
  /** `PATCH documents/{uuid}/members/` (owner): whether editors may invite people too. */
  setEditorsCanShare(documentUuid: string, allowed: boolean, options?: CallOptions): Promise<PlanSharing>;
  /**
   * `PUT documents/{uuid}/organizations/{id}/` (owner, a member of the organisation): every member of it gets
   * `role`. Answers the organisations the plan is shared with.
   */
  shareWithOrganization(
    documentUuid: string,
    organizationId: string,
    role: SharedPlanRole,
    options?: CallOptions,
  ): Promise<PlanOrganization[]>;
  /** `DELETE documents/{uuid}/organizations/{id}/` (owner). */
  unshareWithOrganization(documentUuid: string, organizationId: string, options?: CallOptions): Promise<void>;
}

/** The members resource over a request helper. */
export function createMembersResource(http: HttpClient): MembersResource {
  const documentPath = (uuid: string) => `documents/${pathSegment(uuid, 'uuid')}/`;
  const memberPath = (uuid: string, userId: string) =>
    `${documentPath(uuid)}members/${pathSegment(userId, 'userId')}/`;
  const invitationPath = (uuid: string, id: string) =>
    `${documentPath(uuid)}invitations/${pathSegment(id, 'invitationId')}/`;
  const organizationPath = (uuid: string, id: string) =>
    `${documentPath(uuid)}organizations/${pathSegment(id, 'organizationId')}/`;
  return {
    team: async (options = {}) => {
      const answer = await http.get('team/', { schema: teamSchema, signal: options.signal });
      return { people: answer.data, total: answer.total };
    },
    list: (uuid, options = {}) =>
      http.get(`${documentPath(uuid)}members/`, { schema: sharingSchema, signal: options.signal }),
    invite: (uuid, input, options = {}) =>
      http.post(`${documentPath(uuid)}invitations/`, parseInput(inviteInput, input, 'invitation'), {
        schema: sentInvitationSchema,
        signal: options.signal,
      }),
    resendInvitation: (uuid, id, options = {}) =>
      http.post(
        `${invitationPath(uuid, id)}resend/`,
        {},
        { schema: sentInvitationSchema, signal: options.signal },
      ),
    revokeInvitation: async (uuid, id, options = {}) => {
      await http.delete(invitationPath(uuid, id), { signal: options.signal });
    },
    setRole: (uuid, userId, role, options = {}) =>
      http.patch(memberPath(uuid, userId), parseInput(roleInput, { role }, 'member'), {
        schema: memberSchema,
        signal: options.signal,
      }),
    remove: async (uuid, userId, options = {}) => {
      await http.delete(memberPath(uuid, userId), { signal: options.signal });
    },
    leave: async (uuid, options = {}) => {
      await http.delete(memberPath(uuid, 'me'), { signal: options.signal });
    },
    setEditorsCanShare: (uuid, allowed, options = {}) =>
      http.patch(
        `${documentPath(uuid)}members/`,
        { editors_can_share: allowed },
        { schema: sharingSchema, signal: options.signal },
      ),
    shareWithOrganization: async (uuid, organizationId, role, options = {}) => {
      const answer = await http.put(
        organizationPath(uuid, organizationId),
        parseInput(roleInput, { role }, 'organization'),
        { schema: z.object({ data: z.array(organizationSchema) }), signal: options.signal },
      );
      return answer.data;
    },
    unshareWithOrganization: async (uuid, organizationId, options = {}) => {
      await http.delete(organizationPath(uuid, organizationId), { signal: options.signal });
    },
  };
}
