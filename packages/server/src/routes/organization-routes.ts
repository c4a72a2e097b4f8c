import { exceedsCharacters } from '@planwright/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { usernameOf } from '../auth/username.js';
import { isUuid } from '../db/uuid.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { listBody, listPageOf, listPageQuery } from '../http/list-page.js';
import { withinRateLimits } from '../http/rate-limited.js';
import type { Mailer } from '../mail/mailer.js';
import {
  emailFieldError,
  invitationBody,
  invitationSender,
  invitedEmail,
} from '../sharing/invitation-sender.js';
import type { MemberRecord, MembershipRecord, OrganizationRole } from '../storage/organization-repository.js';
import type { Storage } from '../storage/storage.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** `docs/http-api.md` "Organisations": a name is 1 to 100 characters after trimming. */
export const ORGANIZATION_NAME_MAX_LENGTH = 100;

/**
 * Adding members answers whether an address has an account, so it is limited per admin: enough to
 * set up a team, too few to probe for accounts.
 */
export const ADD_MEMBER_RATE_LIMIT = { limit: 30, windowMs: 60 * 60_000 } as const;

// Control characters and lone surrogates would corrupt storage or display; any script, emoji or markup is fine.
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]/u;

const organizationName = z
  .string({ error: 'Name must be text' })
  .trim()
  .min(1, { message: 'Name cannot be empty' })
  .refine((value) => !exceedsCharacters(value, ORGANIZATION_NAME_MAX_LENGTH), {
    message: `Name must be at most ${ORGANIZATION_NAME_MAX_LENGTH} characters`,
  })
  .refine((value) => !CONTROL_OR_LONE_SURROGATE.test(value), {
    message: 'Name must not contain control characters',
  });

const createInput = z.object({ name: organizationName });
const roleInput = z.object({ role: z.enum(['admin', 'member'], { error: 'role must be admin or member' }) });
const addMemberInput = z.object({
  email: z.string({ error: 'Enter an e-mail address' }).trim().min(1, 'Enter an e-mail address').max(254),
  role: z.enum(['admin', 'member']).optional(),
});

const inviteInput = z.object({
  email: invitedEmail,
  role: z.enum(['admin', 'member'], { error: 'role must be admin or member' }).default('member'),
});

const notFound = () => new HttpError(404, 'not_found', 'Organization not found.');

/** A member as other members see them: never the whole e-mail address. */
function memberBody(member: MemberRecord) {
  return {
    user: {
      id: member.userId,
      username: usernameOf(member.email),
      first_name: member.firstName,
      last_name: member.lastName,
    },
    role: member.role,
  };
}

function organizationBody(organization: MembershipRecord) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    // Spec 000 §3 reads "title or slug"; the title is the name.
    title: organization.name,
    role: organization.role,
    created_at: organization.createdAt.toISOString(),
  };
}

/** The organisation with its members; its admins also see the invitations pending at `now`. */
async function detailBody(
  storage: Pick<Storage, 'organizations' | 'invitations'>,
  organization: MembershipRecord,
  now: Date,
) {
  const [members, invitations] = await Promise.all([
    storage.organizations.members(organization.id),
    organization.role === 'admin'
      ? storage.invitations.pendingOf({ organizationId: organization.id }, now)
      : Promise.resolve([]),
  ]);
  return {
    ...organizationBody(organization),
    members: members.map(memberBody),
    ...(organization.role === 'admin' && { invitations: invitations.map(invitationBody) }),
  };
}

/**
 * Which member `{username}` in a path names: a member's user id, or a username (the local part of
 * their address, case-insensitive) that exactly one member has. Usernames are not unique, so a
 * shared one answers 409 asking for the id.
 */
function resolveMember(members: readonly MemberRecord[], segment: string): MemberRecord {
  if (isUuid(segment)) {
    const byId = members.find((member) => member.userId === segment.toLowerCase());
    if (byId) return byId;
  }
  const wanted = segment.toLowerCase();
  const matches = members.filter((member) => usernameOf(member.email).toLowerCase() === wanted);
  const [only] = matches;
  if (matches.length > 1 || only === undefined) {
    if (matches.length > 1) {
      throw new HttpError(
        409,
        'ambiguous_username',
        'Several members have this username; use the member’s id instead.',
      );
    }
    throw new HttpError(404, 'not_found', 'Member not found.');
  }
  return only;
}

/**
 * `organizations/` (and the `organization/` alias of the list): the caller's organisations, creating
 * one, reading one, and managing its members. Anything the caller may not see or change answers 404,
 * never 403 (docs/http-api.md "Shared rules").
 */
export function organizationRoutes(
  app: FastifyInstance,
  deps: WorkspaceRouteDeps & { mailer: Mailer },
): void {
  const { storage, sessions, now } = deps;
  const invitations = invitationSender(deps);

  /** The organisation when the caller is one of its admins; 404 for anyone else. */
  async function administered(request: FastifyRequest<{ Params: { id: string } }>) {
    const user = await requireUser(request, sessions);
    const organization = await storage.organizations.findForMember(request.params.id, user.id);
    if (organization?.role !== 'admin') throw notFound();
    return { user, organization };
  }

  for (const url of ['/api/v1/organizations/', '/api/v1/organization/']) {
    app.get(url, async (request) => {
      const user = await requireUser(request, sessions);
      const page = listPageOf(parseInput(listPageQuery, request.query));
      // A person belongs to a handful of organisations: one query, paged here.
      const all = await storage.organizations.listFor(user.id);
      const start = (page.page - 1) * page.pageSize;
      return listBody(all.slice(start, start + page.pageSize).map(organizationBody), all.length, page);
    });
  }

  app.post('/api/v1/organizations/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const { name } = parseInput(createInput, request.body ?? {});
    const organization = await storage.organizations.create({ name, createdBy: user.id, createdAt: now() });
    return reply.status(201).send(await detailBody(storage, organization, now()));
  });

  app.get<{ Params: { id: string } }>('/api/v1/organizations/:id/', async (request) => {
    const user = await requireUser(request, sessions);
    const organization = await storage.organizations.findForMember(request.params.id, user.id);
    if (!organization) throw notFound();
    return detailBody(storage, organization, now());
  });

  /** `PATCH organizations/{id}/` `{name}` (admins): renames it; the slug stays. */
  app.patch<{ Params: { id: string } }>('/api/v1/organizations/:id/', async (request) => {
    const { organization } = await administered(request);
    const { name } = parseInput(createInput, request.body ?? {});
    await storage.organizations.rename(organization.id, name);
    return detailBody(storage, { ...organization, name }, now());
  });

  /**
   * `DELETE organizations/{id}/` (admins): deletes it with its memberships; plans shared with it stop being
   * shared (its members' open sockets to them close), restricted blueprints no longer list it.
   */
  app.delete<{ Params: { id: string } }>('/api/v1/organizations/:id/', async (request, reply) => {
    const { organization } = await administered(request);
    const granted = await storage.documentMembers.documentsGrantedTo(organization.id);
    await storage.organizations.delete(organization.id);
    for (const id of granted) await storage.liveStates.announce({ kind: 'document', id }, 'access');
    return reply.status(204).send();
  });

  /** `PATCH organizations/{id}/members/{member}/` `{role}` (admins): makes a member an admin or not. */
  app.patch<{ Params: { id: string; username: string } }>(
    '/api/v1/organizations/:id/members/:username/',
    async (request) => {
      const { user, organization } = await administered(request);
      const { role } = parseInput(roleInput, request.body ?? {});
      const target = resolveMember(
        await storage.organizations.members(organization.id),
        request.params.username,
      );
      const outcome = await storage.organizations.setRole(organization.id, target.userId, role);
      if (outcome === 'last_admin') throw lastAdmin();
      if (outcome === 'not_member') throw new HttpError(404, 'not_found', 'Member not found.');
      const current = await storage.organizations.findForMember(organization.id, user.id);
      if (!current) throw notFound();
      return detailBody(storage, current, now());
    },
  );

  /**
   * `POST organizations/{id}/invitations/` `{email, role}` (admins): invites an address, with an account or not,
   * as admin or member (201). The e-mail's link accepts it, after signing up if need be (docs/teams.md).
   */
  app.post<{ Params: { id: string } }>('/api/v1/organizations/:id/invitations/', async (request, reply) => {
    const { user, organization } = await administered(request);
    const input = parseInput(inviteInput, request.body ?? {});
    if (input.email.toLowerCase() === user.emailKey) {
      throw emailFieldError('invite_self', 'You already belong to this organization: invite someone else.');
    }
    const invitee = await storage.users.findByEmail(input.email);
    const members = invitee ? await storage.organizations.members(organization.id) : [];
    if (invitee && members.some((member) => member.userId === invitee.id)) {
      throw new HttpError(409, 'already_member', `${input.email} already belongs to this organization.`);
    }
    const invitation = await invitations.invite(reply, {
      target: { organizationId: organization.id },
      invitedTo: { kind: 'organization', name: organization.name, role: input.role },
      inviter: user,
      email: input.email,
      pendingWords: `${input.email} already has a pending invitation to this organization. Resend it instead.`,
    });
    return invitation ? reply.status(201).send(invitationBody(invitation)) : reply;
  });

  /** `POST organizations/{id}/invitations/{invitation}/resend/` (admins): a new e-mail, link and expiry. */
  app.post<{ Params: { id: string; invitation: string } }>(
    '/api/v1/organizations/:id/invitations/:invitation/resend/',
    async (request, reply) => {
      const { user, organization } = await administered(request);
      const invitation = await invitations.resend(reply, {
        target: { organizationId: organization.id },
        id: request.params.invitation,
        inviter: user,
        invitedTo: (role) => ({
          kind: 'organization',
          name: organization.name,
          role: role === 'admin' ? 'admin' : 'member',
        }),
      });
      return invitation ? invitationBody(invitation) : reply;
    },
  );

  /** `DELETE organizations/{id}/invitations/{invitation}/` (admins): revokes it; its link stops working. 204. */
  app.delete<{ Params: { id: string; invitation: string } }>(
    '/api/v1/organizations/:id/invitations/:invitation/',
    async (request, reply) => {
      const { organization } = await administered(request);
      await invitations.revoke({ organizationId: organization.id }, request.params.invitation);
      return reply.status(204).send();
    },
  );

  app.post<{ Params: { id: string } }>('/api/v1/organizations/:id/members/', async (request, reply) => {
    const { user, organization } = await administered(request);
    const input = parseInput(addMemberInput, request.body ?? {});
    const allowed = await withinRateLimits(
      storage,
      reply,
      [[`org-members:user:${user.id}`, ADD_MEMBER_RATE_LIMIT]],
      now(),
      'Too many members added. Please wait a while and try again.',
    );
    if (!allowed) return reply;
    const member = await storage.users.findByEmail(input.email);
    if (!member) {
      throw new HttpError(400, 'invalid', 'Invalid input: email', [
        { param: 'email', code: 'unknown_email', message: 'No account uses this e-mail address.' },
      ]);
    }
    const role: OrganizationRole = input.role ?? 'member';
    const added = await storage.organizations.addMember({
      organizationId: organization.id,
      userId: member.id,
      role,
      createdAt: now(),
    });
    // Adding someone who already belongs is not an error (a retried request must not fail); a role
    // sent with it is applied, which is how an admin makes someone else an admin.
    if (!added && input.role !== undefined) {
      const outcome = await storage.organizations.setRole(organization.id, member.id, input.role);
      if (outcome === 'last_admin') throw lastAdmin();
    }
    const current = await storage.organizations.findForMember(organization.id, user.id);
    if (!current) throw notFound();
    return reply.status(added ? 201 : 200).send(await detailBody(storage, current, now()));
  });

  app.delete<{ Params: { id: string; username: string } }>(
    '/api/v1/organizations/:id/members/:username/',
    async (request, reply) => {
      const user = await requireUser(request, sessions);
      const organization = await storage.organizations.findForMember(request.params.id, user.id);
      if (!organization) throw notFound();
      const members = await storage.organizations.members(organization.id);
      const target = resolveMember(members, request.params.username);
      if (target.userId !== user.id && organization.role !== 'admin') throw notFound();
      const outcome = await storage.organizations.removeMember(organization.id, target.userId);
      if (outcome === 'last_admin') throw lastAdmin();
      if (outcome === 'not_member') throw new HttpError(404, 'not_found', 'Member not found.');
      // Plans shared with the organisation: a removed member's open sockets to them close (docs/teams.md).
      for (const id of await storage.documentMembers.documentsGrantedTo(organization.id)) {
        await storage.liveStates.announce({ kind: 'document', id }, 'access');
      }
      return reply.status(204).send();
    },
  );
}

function lastAdmin(): HttpError {
  return new HttpError(
    409,
    'last_admin',
    'An organization needs at least one admin. Make another member an admin first.',
  );
}
