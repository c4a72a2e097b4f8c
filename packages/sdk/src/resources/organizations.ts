import * as z from 'zod';
import { ApiError } from '../errors/api-error.js';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { type ListPage, listSchema } from './list.js';
import { type SentInvitation, sentInvitationSchemaOf } from './members.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { CONTROL_CHARACTERS_TEXT, exceedsCharacters } from './text-fields.js';
import { optionalText, textOrEmpty, wireId } from './wire-fields.js';

/** An organisation the caller belongs to (spec 000 §3: id, name, title or slug). */
export interface Organization {
  id: string;
  /** `name`, else `title`, else `slug`, else `''`. */
  name: string;
  title: string | null;
  slug: string | null;
  /** The caller's role in it (`admin`, `member`), when the server said. */
  role: string | null;
}

/** A member of an organisation. Their address is never shown: `username` is its local part. */
export interface OrganizationMember {
  /** `id` is the account's (`null` when the server did not send it); use it to remove a member. */
  user: { id: string | null; username: string; first_name: string; last_name: string };
  role: string | null;
}

/** The roles a member may have (`docs/http-api.md` "Organisations"). */
export const ORGANIZATION_ROLES = ['admin', 'member'] as const;
/** One of {@link ORGANIZATION_ROLES}. */
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/** Whom to add to an organisation. */
export interface OrganizationMemberInput {
  /** The address of an existing account. */
  email: string;
  /** `member` (the server's default) or `admin`; sent for someone already in it, it changes their role. */
  role?: OrganizationRole;
}

/** `docs/http-api.md` "Organisations": names are 1 to 100 characters (code points) after trimming. */
export const ORGANIZATION_NAME_MAX_LENGTH = 100;

/** An organisation with its members (`GET organizations/{id}/`, members only). */
export interface OrganizationDetail extends Organization {
  members: OrganizationMember[];
  /** The invitations pending; `null` for members who are not admins (they are not shown them). */
  invitations: SentInvitation<OrganizationRole>[] | null;
}

/** Whom to invite to an organisation by e-mail. */
export interface OrganizationInvitationInput {
  /** Any address: with no account yet, its owner signs up from the e-mail's link. */
  email: string;
  /** `member` (the default) or `admin`. */
  role?: OrganizationRole;
}

const organizationFields = {
  id: wireId,
  name: z.string().nullish(),
  title: optionalText,
  slug: optionalText,
  role: optionalText,
};

function toOrganization(wire: z.output<z.ZodObject<typeof organizationFields>>): Organization {
  return {
    id: wire.id,
    name: wire.name ?? wire.title ?? wire.slug ?? '',
    title: wire.title,
    slug: wire.slug,
    role: wire.role,
  };
}

/** One organisation as answered, normalised. */
export const organizationSchema: z.ZodType<Organization> = z
  .object(organizationFields)
  .transform(toOrganization);

const memberSchema = z.object({
  user: z
    .object({ id: wireId.nullish(), username: textOrEmpty, first_name: textOrEmpty, last_name: textOrEmpty })
    .transform((user) => ({ ...user, id: user.id ?? null })),
  role: optionalText,
});

const organizationInvitationSchema = sentInvitationSchemaOf(ORGANIZATION_ROLES);

/** An organisation with its members, normalised. */
export const organizationDetailSchema: z.ZodType<OrganizationDetail> = z
  .object({
    ...organizationFields,
    members: z.array(memberSchema).nullish(),
    invitations: z.array(organizationInvitationSchema).nullish(),
  })
  .transform(
    (wire): OrganizationDetail => ({
      ...toOrganization(wire),
      members: wire.members ?? [],
      invitations: wire.invitations ?? null,
    }),
  );

const createSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .refine(
      (name) => !exceedsCharacters(name, ORGANIZATION_NAME_MAX_LENGTH),
      `Name must be at most ${ORGANIZATION_NAME_MAX_LENGTH} characters`,
    )
    .refine((name) => !/[\p{Cc}\p{Cs}]/u.test(name), CONTROL_CHARACTERS_TEXT),
});
const invitationInputSchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required'),
  role: z.enum(ORGANIZATION_ROLES).default('member'),
});

const memberInputSchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required'),
  role: z.enum(ORGANIZATION_ROLES).optional(),
});

/** The organisation calls (`docs/http-api.md` "Organisations"). */
export interface OrganizationsResource {
  /** The caller's organisations: `GET organizations/`, or `organization/` where that answers 404 (spec 000 §7). */
  list(options?: CallOptions): Promise<ListPage<Organization>>;
  /** `POST organizations/` (a name of 1 to 100 characters); the caller becomes its admin. */
  create(input: { name: string }, options?: CallOptions): Promise<OrganizationDetail>;
  /** `GET organizations/{id}/`, with its members (members only; anyone else gets a 404). */
  get(id: string, options?: CallOptions): Promise<OrganizationDetail>;
  /**
   * `POST organizations/{id}/members/` (admins only): adds the account with that address, or changes the
   * role of someone already in it. Answers the organisation with its members. An address without an
   * account is a 400 naming `email`; the server allows 30 of these calls per admin per hour (429).
   */
  addMember(id: string, input: OrganizationMemberInput, options?: CallOptions): Promise<OrganizationDetail>;
  /**
   * `POST organizations/{id}/invitations/` (admins): e-mails `email` a link that makes them a member with
   * `role` (signing up first when the address has no account). 409 `already_member` or `already_invited`;
   * 429 when too many were sent (docs/teams.md "Invitations").
   */
  invite(
    id: string,
    input: OrganizationInvitationInput,
    options?: CallOptions,
  ): Promise<SentInvitation<OrganizationRole>>;
  /** `POST organizations/{id}/invitations/{invitation}/resend/` (admins): a new e-mail and link; the old one stops working. */
  resendInvitation(
    id: string,
    invitationId: string,
    options?: CallOptions,
  ): Promise<SentInvitation<OrganizationRole>>;
  /** `DELETE organizations/{id}/invitations/{invitation}/` (admins): its link stops working at once. */
  revokeInvitation(id: string, invitationId: string, options?: CallOptions): Promise<void>;
  /** `PATCH organizations/{id}/` (admins): a new name (1 to 100 characters); the slug stays. */
  rename(id: string, input: { name: string }, options?: CallOptions): Promise<OrganizationDetail>;
  /**
   * `DELETE organizations/{id}/` (admins): the organisation and its memberships go; plans shared with it stop
   * being shared, and blueprints restricted to it no longer name it.
   */
  delete(id: string, options?: CallOptions): Promise<void>;
  /**
   * `PATCH organizations/{id}/members/{member}/` (admins): makes a member an admin or a plain member. The last
   * admin cannot step down (409 `last_admin`).
   */
  setMemberRole(
    id: string,
    member: string,
    role: OrganizationRole,
    options?: CallOptions,
  ): Promise<OrganizationDetail>;
  /**
   * `DELETE organizations/{id}/members/{member}/` (admins, or a member removing themselves). `member` is
   * the member's account id, or their username when no other member shares it (409 otherwise). The last
   * admin cannot leave (409 `last_admin`).
   */
  removeMember(id: string, member: string, options?: CallOptions): Promise<void>;
}

/** The organisations resource over a request helper. */
export function createOrganizationsResource(http: HttpClient): OrganizationsResource {
  const path = (id: string) => `organizations/${pathSegment(id, 'id')}/`;
  const invitationPath = (id: string, invitationId: string) =>
    `${path(id)}invitations/${pathSegment(invitationId, 'invitationId')}/`;
  const schema = listSchema(organizationSchema);
  return {
    list: async (options = {}) => {
      try {
        return await http.get('organizations/', { schema, signal: options.signal });
      } catch (error) {
        // Spec 000 §7: servers that only know the singular path answer 404 to the plural one.
        if (!(ApiError.isInstance(error) && error.status === 404)) throw error;
        return http.get('organization/', { schema, signal: options.signal });
      }
    },
    create: async (input, options = {}) => {
      const body = parseInput(createSchema, input, 'organisation');
      return http.post('organizations/', body, { schema: organizationDetailSchema, signal: options.signal });
    },
    get: async (id, options = {}) =>
      http.get(path(id), { schema: organizationDetailSchema, signal: options.signal }),
    addMember: async (id, input, options = {}) => {
      const target = `${path(id)}members/`;
      const body = parseInput(memberInputSchema, input, 'member');
      return http.post(target, body, { schema: organizationDetailSchema, signal: options.signal });
    },
    invite: async (id, input, options = {}) => {
      const body = parseInput(invitationInputSchema, input, 'invitation');
      return http.post(`${path(id)}invitations/`, body, {
        schema: organizationInvitationSchema,
        signal: options.signal,
      });
    },
    resendInvitation: async (id, invitationId, options = {}) =>
      http.post(
        `${invitationPath(id, invitationId)}resend/`,
        {},
        { schema: organizationInvitationSchema, signal: options.signal },
      ),
    revokeInvitation: async (id, invitationId, options = {}) => {
      await http.delete(invitationPath(id, invitationId), { signal: options.signal });
    },
    rename: async (id, input, options = {}) => {
      const body = parseInput(createSchema, input, 'organisation');
      return http.patch(path(id), body, { schema: organizationDetailSchema, signal: options.signal });
    },
    delete: async (id, options = {}) => {
      await http.delete(path(id), { signal: options.signal });
    },
    setMemberRole: async (id, member, role, options = {}) => {
      const body = parseInput(z.object({ role: z.enum(ORGANIZATION_ROLES) }), { role }, 'member');
      return http.patch(`${path(id)}members/${pathSegment(member, 'member')}/`, body, {
        schema: organizationDetailSchema,
        signal: options.signal,
      });
    },
    removeMember: async (id, member, options = {}) => {
      await http.delete(`${path(id)}members/${pathSegment(member, 'member')}/`, {
        signal: options.signal,
      });
    },
  };
}
