import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { hashSecret } from '../auth/secrets.js';
import { isSharedPlanRole, strongerRole } from '../documents/document-access.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { receivedInvitationBody } from '../sharing/sharing-view.js';
import type { InvitationWithTarget } from '../storage/invitation-repository.js';
import type { TransactionalStorage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { recordActivity } from '../structure/activity-entries.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

const tokenInput = z.object({
  token: z
    .string({ error: 'The invitation link is incomplete.' })
    .min(1, 'The invitation link is incomplete.')
    .max(512),
});

/** An address shown to someone who is not its owner: enough to recognise it, not to harvest it. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, Math.max(at, 0));
  return `${Array.from(local)[0] ?? ''}…${email.slice(at)}`;
}

/**
 * The invitee's side of invitations (docs/teams.md "Invitations"): the caller's pending invitations, and
 * accepting one, by id (an account with the invited address) or by the e-mail link's token.
 */
export function invitationRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { storage, sessions, now } = deps;

  /**
   * Accepts a pending invitation as `user` in one transaction: they become a member with its role (a member
   * already keeps the stronger of the two), and the owner's feed says they joined. Refusals name why.
   */
  async function accept(
    tx: TransactionalStorage,
    invitation: InvitationWithTarget | undefined,
    user: UserRecord,
  ) {
    const at = now();
    if (!invitation || invitation.revokedAt)
      throw invitationGone(
        'invitation_invalid',
        'This invitation is no longer valid: it was revoked or the link was replaced by a newer one.',
      );
    if (invitation.acceptedAt) {
      if (invitation.acceptedBy === user.id) return invitation;
      throw invitationGone('invitation_used', 'This invitation was already accepted.');
    }
    if (invitation.expiresAt <= at)
      throw invitationGone('invitation_expired', 'This invitation has expired. Ask for a new one.');
    if (invitation.emailKey !== user.emailKey) {
      throw new HttpError(
        400,
        'invitation_other_address',
        `This invitation was sent to ${maskedEmail(invitation.email)}. Sign in with that address to accept it.`,
      );
    }
    if (invitation.organizationId !== null) {
      await joinOrganization(tx, invitation, invitation.organizationId, user, at);
    } else if (invitation.documentId !== null) {
      await joinDocument(tx, invitation, invitation.documentId, user, at);
    }
    await tx.invitations.markAccepted(invitation.id, user.id, at);
    // The link came to this address: it is theirs.
    if (!user.emailVerified) await tx.users.update(user.id, { emailVerified: true });
    return invitation;
  }

  /** The invitee becomes a member of the plan (a member already keeps the stronger role); the plan's feed says so. */
  async function joinDocument(
    tx: TransactionalStorage,
    invitation: InvitationWithTarget,
    documentId: string,
    user: UserRecord,
    at: Date,
  ) {
    const doc = await tx.documents.findHead(documentId, { forUpdate: true });
    if (!doc)
      throw invitationGone(
        'invitation_invalid',
        'This invitation is no longer valid: the document was deleted.',
      );
    const invited = invitation.role;
    // A document's invitations are made with plan roles only; anything else is not an invitation to apply.
    if (!isSharedPlanRole(invited))
      throw invitationGone('invitation_invalid', 'This invitation is no longer valid.');
    if (doc.ownerId !== user.id) {
      const current = await tx.documentMembers.roleOf(doc.id, user.id);
      const role = current ? strongerRole(current, invited) : invited;
      await tx.documentMembers.put({
        documentId: doc.id,
        userId: user.id,
        role,
        addedBy: invitation.invitedBy ?? user.id,
        at,
      });
    }
    await tx.liveStates.announce({ kind: 'document', id: doc.id }, 'access');
    await recordActivity(
      tx,
      { ownerId: doc.ownerId, actor: user, target: 'document', objectId: doc.id, targetLabel: doc.title, at },
      [
        {
          verb: 'joined',
          message: `joined the document ${JSON.stringify(doc.title)} as ${invitation.role}`,
          level: 1,
        },
      ],
    );
  }

  /** The invitee joins the organisation (a member already keeps the stronger role: admin over member). */
  async function joinOrganization(
    tx: TransactionalStorage,
    invitation: InvitationWithTarget,
    organizationId: string,
    user: UserRecord,
    at: Date,
  ) {
    const role = invitation.role === 'admin' ? 'admin' : 'member';
    const added = await tx.organizations.addMember({ organizationId, userId: user.id, role, createdAt: at });
    if (!added && role === 'admin') await tx.organizations.setRole(organizationId, user.id, role);
    // Plans shared with the organisation open to them now: their live sockets recheck (docs/teams.md).
    for (const id of await tx.documentMembers.documentsGrantedTo(organizationId)) {
      await tx.liveStates.announce({ kind: 'document', id }, 'access');
    }
  }

  /** What was accepted: the plan or the organisation the caller now belongs to, and as what. */
  const accepted = (invitation: InvitationWithTarget) => {
    const { document, organization, role } = receivedInvitationBody(invitation);
    return { document, organization, role };
  };

  /** `GET invitations/`: the invitations pending for the caller's address, newest first. */
  app.get('/api/v1/invitations/', async (request) => {
    const user = await requireUser(request, sessions);
    const pending = await storage.invitations.pendingFor(user.emailKey, now());
    return { data: pending.map(receivedInvitationBody) };
  });

  /** `POST invitations/accept/` `{token}`: accepts the invitation of an e-mail link. */
  app.post('/api/v1/invitations/accept/', async (request) => {
    const user = await requireUser(request, sessions);
    const { token } = parseInput(tokenInput, request.body ?? {});
    const invitation = await storage.transaction(async (tx) =>
      accept(tx, await tx.invitations.find({ tokenHash: hashSecret(token) }, { forUpdate: true }), user),
    );
    return accepted(invitation);
  });

  /** `POST invitations/{id}/accept/`: accepts one of the caller's pending invitations by id. */
  app.post<{ Params: { id: string } }>('/api/v1/invitations/:id/accept/', async (request) => {
    const user = await requireUser(request, sessions);
    const invitation = await storage.transaction(async (tx) => {
      const found = await tx.invitations.find({ id: request.params.id }, { forUpdate: true });
      // Someone else's invitation is as absent as a missing one.
      if (!found || found.emailKey !== user.emailKey)
        throw new HttpError(404, 'not_found', 'Invitation not found.');
      return accept(tx, found, user);
    });
    return accepted(invitation);
  });
}

function invitationGone(code: string, detail: string): HttpError {
  return new HttpError(400, code, detail);
}
