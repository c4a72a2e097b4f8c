import { exceedsCharacters } from '@planwright/sdk';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { usernameOf } from '../auth/username.js';
import { isUuid } from '../db/uuid.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { listBody, listPageOf, listPageQuery } from '../http/list-page.js';
import { withinRateLimits } from '../http/rate-limited.js';
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

async function detailBody(storage: Pick<Storage, 'organizations'>, organization: MembershipRecord) {
  const members = await storage.organizations.members(organization.id);
  return { ...organizationBody(organization), members: members.map(memberBody) };
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
export function organizationRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { storage, sessions, now } = deps;

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
    return reply.status(201).send(await detailBody(storage, organization));
  });

  app.get<{ Params: { id: string } }>('/api/v1/organizations/:id/', async (request) => {
    const user = await requireUser(request, sessions);
    const organization = await storage.organizations.findForMember(request.params.id, user.id);
    if (!organization) throw notFound();
    return detailBody(storage, organization);
  });

  /** `PATCH organizations/{id}/` `{name}` (admins): renames it; the slug stays. */
  app.patch<{ Params: { id: string } }>('/api/v1/organizations/:id/', async (request) => {
    const user = await requireUser(request, sessions);
    const organization = await storage.organizations.findForMember(request.params.id, user.id);
    if (organization?.role !== 'admin') throw notFound();
    const { name } = parseInput(createInput, request.body ?? {});
    await storage.organizations.rename(organization.id, name);
    return detailBody(storage, { ...organization, name });
  });

  /**
   * `DELETE organizations/{id}/` (admins): deletes it with its memberships; plans shared with it stop being
   * shared (its members' open sockets to them close), restricted blueprints no longer list it.
   */
  app.delete<{ Params: { id: string } }>('/api/v1/organizations/:id/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const organization = await storage.organizations.findForMember(request.params.id, user.id);
    if (organization?.role !== 'admin') throw notFound();
    const granted = await storage.documentMembers.documentsGrantedTo(organization.id);
    await storage.organizations.delete(organization.id);
    for (const id of granted) await storage.liveStates.announce({ kind: 'document', id }, 'access');
    return reply.status(204).send();
  });

  /** `PATCH organizations/{id}/members/{member}/` `{role}` (admins): makes a member an admin or not. */
  app.patch<{ Params: { id: string; username: string } }>(
    '/api/v1/organizations/:id/members/:username/',
    async (request) => {
      const user = await requireUser(request, sessions);
      const organization = await storage.organizations.findForMember(request.params.id, user.id);
      if (organization?.role !== 'admin') throw notFound();
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
      return detailBody(storage, current);
    },
  );

  app.post<{ Params: { id: string } }>('/api/v1/organizations/:id/members/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const organization = await storage.organizations.findForMember(request.params.id, user.id);
    if (organization?.role !== 'admin') throw notFound();
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
    return reply.status(added ? 201 : 200).send(await detailBody(storage, current));
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
