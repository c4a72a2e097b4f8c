import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { hashSecret, newSecret } from '../auth/secrets.js';
import { HttpError } from '../http/http-error.js';
import { withinRateLimits } from '../http/rate-limited.js';
import type { Mailer } from '../mail/mailer.js';
import type { WorkspaceRouteDeps } from '../routes/workspace-route-deps.js';
import type { InvitationRecord, InvitationTarget } from '../storage/invitation-repository.js';
import type { UserRecord } from '../storage/user-repository.js';
import { actorLabelOf } from '../structure/activity-entries.js';
import { INVITATION_LIFETIME_MS, type InvitedTo, invitationEmail } from './invitation-email.js';

/**
 * Invitations send e-mail, so they are limited like the account e-mails: per inviter (enough to bring a team
 * in, too few to spam), and per address (one address cannot be flooded from many plans and organisations).
 */
export const INVITATION_RATE_LIMITS = {
  perInviter: { limit: 30, windowMs: 60 * 60_000 },
  perAddress: { limit: 5, windowMs: 60_000 },
} as const;

/** The address an invitation goes to, as every invitation route reads it. */
export const invitedEmail = z
  .string({ error: 'Enter an e-mail address.' })
  .trim()
  .min(1, 'Enter an e-mail address.')
  .max(254, 'Enter a valid email address.')
  .pipe(z.email('Enter a valid email address.'));

/** An invitation as the people who manage a plan's or an organisation's members see it. */
export function invitationBody(invitation: InvitationRecord) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    created_at: invitation.createdAt.toISOString(),
    sent_at: invitation.sentAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
  };
}

/** Refuses an address in the `email` field with a code the client can act on. */
export function emailFieldError(code: string, message: string): HttpError {
  return new HttpError(400, 'invalid', 'Invalid input: email', [{ param: 'email', code, message }]);
}

/**
 * Sending, resending and revoking invitations, one lifecycle for documents and organisations alike
 * (docs/teams.md "Invitations"): a link valid 14 days, one pending per address, every send rate limited.
 * A send that is rate limited answers null, its 429 already on `reply`.
 */
export function invitationSender(deps: WorkspaceRouteDeps & { mailer: Mailer }) {
  const { storage, mailer, config, now } = deps;

  const withinLimits = (reply: FastifyReply, inviter: UserRecord, email: string) =>
    withinRateLimits(
      storage,
      reply,
      [
        [`invite:user:${inviter.id}`, INVITATION_RATE_LIMITS.perInviter],
        [`invite:email:${email.toLowerCase()}`, INVITATION_RATE_LIMITS.perAddress],
      ],
      now(),
      'Too many invitations sent. Please wait a while and try again.',
    );

  /** E-mails a new link; the old one stops working. */
  async function send(to: string, inviter: UserRecord, invitedTo: InvitedTo, token: string) {
    await mailer.send(
      invitationEmail({
        to,
        inviter: actorLabelOf(inviter),
        invitedTo,
        url: `${config.publicUrl}/invitations/${token}`,
      }),
    );
  }

  const gone = () =>
    new HttpError(404, 'not_found', 'Invitation not found: it was accepted, revoked or has expired.');

  /** A pending invitation of the target by id; 404 for any other. */
  async function pendingOf(target: InvitationTarget, id: string): Promise<InvitationRecord> {
    const invitation = await storage.invitations.findOf(target, id);
    if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= now())
      throw gone();
    return invitation;
  }

  return {
    /** Invites `email` and sends the link; 409 `already_invited` (with `pendingWords`) when one is pending. */
    async invite(
      reply: FastifyReply,
      input: {
        target: InvitationTarget;
        invitedTo: InvitedTo;
        inviter: UserRecord;
        email: string;
        pendingWords: string;
      },
    ): Promise<InvitationRecord | null> {
      if (!(await withinLimits(reply, input.inviter, input.email))) return null;
      const token = newSecret();
      const at = now();
      const invitation = await storage.invitations.invite({
        target: input.target,
        email: input.email,
        role: input.invitedTo.role,
        invitedBy: input.inviter.id,
        tokenHash: hashSecret(token),
        at,
        expiresAt: new Date(at.getTime() + INVITATION_LIFETIME_MS),
      });
      if (!invitation) throw new HttpError(409, 'already_invited', input.pendingWords);
      await send(invitation.email, input.inviter, input.invitedTo, token);
      return invitation;
    },

    /** Sends a pending invitation again with a new link and a new expiry. */
    async resend(
      reply: FastifyReply,
      input: {
        target: InvitationTarget;
        id: string;
        inviter: UserRecord;
        invitedTo: (role: InvitationRecord['role']) => InvitedTo;
      },
    ): Promise<InvitationRecord | null> {
      const invitation = await pendingOf(input.target, input.id);
      if (!(await withinLimits(reply, input.inviter, invitation.email))) return null;
      const token = newSecret();
      const at = now();
      const expiresAt = new Date(at.getTime() + INVITATION_LIFETIME_MS);
      await storage.invitations.renew(invitation.id, hashSecret(token), at, expiresAt);
      await send(invitation.email, input.inviter, input.invitedTo(invitation.role), token);
      return { ...invitation, sentAt: at, expiresAt };
    },

    /** Revokes a pending invitation: its link stops working at once. */
    async revoke(target: InvitationTarget, id: string): Promise<void> {
      const invitation = await pendingOf(target, id);
      if (!(await storage.invitations.revoke(invitation.id, now()))) throw gone();
    },
  };
}
