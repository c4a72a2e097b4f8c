import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { usernameOf } from '../auth/username.js';
import {
  type DocumentAction,
  isSharedPlanRole,
  mayDo,
  permitted,
  SHARED_PLAN_ROLES,
  type SharedPlanRole,
} from '../documents/document-access.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { uuidParam } from '../http/uuid-param.js';
import type { Mailer } from '../mail/mailer.js';
import type { InvitedTo } from '../sharing/invitation-email.js';
import {
  emailFieldError,
  invitationBody,
  invitationSender,
  invitedEmail,
} from '../sharing/invitation-sender.js';
import { grantBody, memberBody, ownerMember } from '../sharing/sharing-view.js';
import type { DocumentHead, Seen } from '../storage/document-repository.js';
import { recordActivity } from '../structure/activity-entries.js';
import { notFound } from '../structure/not-found.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

const role = z.enum(SHARED_PLAN_ROLES, {
  error: `Choose one of the roles: ${SHARED_PLAN_ROLES.join(', ')}.`,
});
const inviteInput = z.object({
  email: invitedEmail,
  role,
});
const roleInput = z.object({ role });
const settingsInput = z.object({
  editors_can_share: z.boolean({ error: 'editors_can_share must be true or false' }),
});

type DocumentParams = { uuid: string };
type MemberParams = DocumentParams & { user: string };
type InvitationParams = DocumentParams & { id: string };
type GrantParams = DocumentParams & { organization: string };

export interface DocumentMemberRouteDeps extends WorkspaceRouteDeps {
  mailer: Mailer;
}

/**
 * Who a document is shared with (docs/teams.md, docs/http-api.md "Members and invitations"): its members and
 * their roles, the organisations it is shared with, and invitations by e-mail. Everyone it is shared with
 * lists the members; who may invite is the owner (and editors when the owner allows); only the owner changes
 * roles, removes people and shares with organisations; any member may leave.
 */
export function documentMemberRoutes(app: FastifyInstance, deps: DocumentMemberRouteDeps): void {
  const { storage, sessions, now } = deps;
  const invitations = invitationSender(deps);

  /** The document and the caller, when the caller may do `action` on it. */
  async function documentFor(request: FastifyRequest<{ Params: DocumentParams }>, action: DocumentAction) {
    const user = await requireUser(request, sessions);
    const id = uuidParam(request.params.uuid);
    if (id === undefined) throw notFound('document');
    return { user, doc: permitted(await storage.documents.findHeadFor(id, user.id), action) };
  }

  /** Everything about who the document is shared with, as the caller may see it. */
  async function sharingBody(doc: Seen<DocumentHead>, callerId: string) {
    const manages = mayDo(doc, 'share');
    const [owner, members, grants, invitations] = await Promise.all([
      storage.users.findById(doc.ownerId),
      storage.documentMembers.members(doc.id),
      storage.documentMembers.grants(doc.id),
      manages ? storage.invitations.pendingOf({ documentId: doc.id }, now()) : Promise.resolve([]),
    ]);
    const people = [...(owner ? [ownerMember(owner, doc.createdAt)] : []), ...members];
    return {
      data: people.map((person) => memberBody(person, manages, callerId)),
      organizations: grants.map(grantBody),
      ...(manages && { invitations: invitations.map(invitationBody) }),
      editors_can_share: doc.editorsCanShare,
      role: doc.role,
    };
  }

  const invitedTo = (doc: DocumentHead, role: SharedPlanRole): InvitedTo => ({
    kind: 'document',
    title: doc.title,
    role,
  });

  /**
   * `GET team/`: the people the caller shares plans with (the owners and members of the plans they have), most
   * shared plans first, at most 200; `total` counts them all (the dashboard's Team Members).
   */
  app.get('/api/v1/team/', async (request) => {
    const user = await requireUser(request, sessions);
    const team = await storage.documentMembers.teamOf(user.id);
    return {
      data: team.items.map((person) => ({
        user: {
          id: person.userId,
          username: usernameOf(person.email),
          first_name: person.firstName,
          last_name: person.lastName,
        },
        plans: person.plans,
      })),
      total: team.total,
    };
  });

  /** `GET documents/{uuid}/members/`: the owner first, then the members; who may invite sees invitations too. */
  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/members/', async (request) => {
    const { user, doc } = await documentFor(request, 'read');
    return sharingBody(doc, user.id);
  });

  /** `PATCH documents/{uuid}/members/` `{editors_can_share}`: the owner's sharing setting. */
  app.patch<{ Params: DocumentParams }>('/api/v1/documents/:uuid/members/', async (request) => {
    const { user, doc } = await documentFor(request, 'own');
    const input = parseInput(settingsInput, request.body ?? {});
    await storage.documents.setEditorsCanShare(doc.id, input.editors_can_share);
    return sharingBody({ ...doc, editorsCanShare: input.editors_can_share }, user.id);
  });

  /** `PATCH documents/{uuid}/members/{user}/` `{role}`: the owner changes a member's role. */
  app.patch<{ Params: MemberParams }>('/api/v1/documents/:uuid/members/:user/', async (request) => {
    const { user, doc } = await documentFor(request, 'own');
    const input = parseInput(roleInput, request.body ?? {});
    if (request.params.user === doc.ownerId) throw ownerStays();
    const changed = await storage.transaction(async (tx) => {
      if (!(await tx.documentMembers.setRole(doc.id, request.params.user, input.role))) return false;
      // Their open editors follow at once, on every instance: a viewer's turns read-only.
      await tx.liveStates.announce({ kind: 'document', id: doc.id }, 'access');
      return true;
    });
    if (!changed) throw memberNotFound();
    const member = (await storage.documentMembers.members(doc.id)).find(
      (m) => m.userId === request.params.user,
    );
    if (!member) throw memberNotFound();
    return memberBody(member, true, user.id);
  });

  /**
   * `DELETE documents/{uuid}/members/{user}/`: the owner removes a member, or a member leaves (`{user}` is
   * their own id). 204. Their open sockets to the plan close at once, on every instance.
   */
  app.delete<{ Params: MemberParams }>('/api/v1/documents/:uuid/members/:user/', async (request, reply) => {
    const { user, doc } = await documentFor(request, 'read');
    // `me`: the caller, so a member can leave without looking up their own id.
    const target = request.params.user === 'me' ? user.id : request.params.user;
    const leaving = target === user.id;
    if (leaving && doc.role === 'owner') {
      throw new HttpError(
        409,
        'owner_cannot_leave',
        'The owner cannot leave their own document; delete it instead.',
      );
    }
    if (!leaving) permitted(doc, 'own');
    if (target === doc.ownerId) throw ownerStays();
    const removed = await storage.transaction(async (tx) => {
      if (!(await tx.documentMembers.remove(doc.id, target))) return false;
      await tx.liveStates.announce({ kind: 'document', id: doc.id }, 'access');
      await recordActivity(
        tx,
        {
          ownerId: doc.ownerId,
          actor: user,
          target: 'document',
          objectId: doc.id,
          targetLabel: doc.title,
          at: now(),
        },
        [
          {
            verb: leaving ? 'left' : 'removed a member',
            message: leaving
              ? `left the document ${JSON.stringify(doc.title)}`
              : `removed a member from the document ${JSON.stringify(doc.title)}`,
            level: 1,
          },
        ],
      );
      return true;
    });
    // A member who belongs only through an organisation has no member row to remove.
    if (!removed) throw memberNotFound(leaving);
    return reply.status(204).send();
  });

  /**
   * `POST documents/{uuid}/invitations/` `{email, role}`: invites an address (201). The e-mail's link accepts
   * it; an address with an account can also accept from `GET invitations/`.
   */
  app.post<{ Params: DocumentParams }>('/api/v1/documents/:uuid/invitations/', async (request, reply) => {
    const { user, doc } = await documentFor(request, 'share');
    const input = parseInput(inviteInput, request.body ?? {});
    const emailKey = input.email.toLowerCase();
    if (emailKey === user.emailKey) {
      throw emailFieldError('invite_self', 'You already have this document: invite someone else.');
    }
    const invitee = await storage.users.findByEmail(input.email);
    if (invitee) {
      const existing =
        invitee.id === doc.ownerId ? 'owner' : await storage.documentMembers.roleOf(doc.id, invitee.id);
      if (existing) {
        throw new HttpError(
          409,
          'already_member',
          `${input.email} is already on this document (${existing}). Change their role instead.`,
        );
      }
    }
    const invitation = await invitations.invite(reply, {
      target: { documentId: doc.id },
      invitedTo: invitedTo(doc, input.role),
      inviter: user,
      email: input.email,
      pendingWords: `${input.email} already has a pending invitation to this document. Resend it instead.`,
    });
    if (!invitation) return reply;
    return reply.status(201).send(invitationBody(invitation));
  });

  /** `POST documents/{uuid}/invitations/{id}/resend/`: a new e-mail with a new link and a new expiry. */
  app.post<{ Params: InvitationParams }>(
    '/api/v1/documents/:uuid/invitations/:id/resend/',
    async (request, reply) => {
      const { user, doc } = await documentFor(request, 'share');
      const invitation = await invitations.resend(reply, {
        target: { documentId: doc.id },
        id: request.params.id,
        inviter: user,
        invitedTo: (role) => invitedTo(doc, isSharedPlanRole(role) ? role : 'viewer'),
      });
      return invitation ? invitationBody(invitation) : reply;
    },
  );

  /** `DELETE documents/{uuid}/invitations/{id}/`: revokes a pending invitation (its link stops working). 204. */
  app.delete<{ Params: InvitationParams }>(
    '/api/v1/documents/:uuid/invitations/:id/',
    async (request, reply) => {
      const { doc } = await documentFor(request, 'share');
      await invitations.revoke({ documentId: doc.id }, request.params.id);
      return reply.status(204).send();
    },
  );

  /**
   * `PUT documents/{uuid}/organizations/{organization}/` `{role}`: the owner shares the document with an
   * organisation they belong to; its members get the role. Answers the organisations it is shared with.
   */
  app.put<{ Params: GrantParams }>(
    '/api/v1/documents/:uuid/organizations/:organization/',
    async (request) => {
      const { user, doc } = await documentFor(request, 'own');
      const input = parseInput(roleInput, request.body ?? {});
      const organization = await storage.organizations.findForMember(request.params.organization, user.id);
      if (!organization) throw new HttpError(404, 'not_found', 'Organization not found.');
      await storage.transaction(async (tx) => {
        await tx.documentMembers.grant({
          documentId: doc.id,
          organizationId: organization.id,
          role: input.role,
          at: now(),
        });
        await tx.liveStates.announce({ kind: 'document', id: doc.id }, 'access');
      });
      return { data: (await storage.documentMembers.grants(doc.id)).map(grantBody) };
    },
  );

  /** `DELETE documents/{uuid}/organizations/{organization}/`: stops sharing with an organisation. 204. */
  app.delete<{ Params: GrantParams }>(
    '/api/v1/documents/:uuid/organizations/:organization/',
    async (request, reply) => {
      const { doc } = await documentFor(request, 'own');
      const revoked = await storage.transaction(async (tx) => {
        if (!(await tx.documentMembers.revokeGrant(doc.id, request.params.organization))) return false;
        await tx.liveStates.announce({ kind: 'document', id: doc.id }, 'access');
        return true;
      });
      if (!revoked)
        throw new HttpError(404, 'not_found', 'This document is not shared with that organization.');
      return reply.status(204).send();
    },
  );
}

function memberNotFound(self = false): HttpError {
  return new HttpError(
    404,
    'not_found',
    self
      ? 'You have this document through an organization: leave the organization instead.'
      : 'Member not found.',
  );
}

function ownerStays(): HttpError {
  return new HttpError(400, 'owner_role', 'The owner of a document keeps their role.');
}
