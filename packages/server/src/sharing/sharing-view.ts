import { usernameOf } from '../auth/username.js';
import type { PlanRole } from '../documents/document-access.js';
import type { DocumentMemberRecord, OrganizationGrantRecord } from '../storage/document-member-repository.js';
import type { InvitationWithTarget } from '../storage/invitation-repository.js';
import type { UserRecord } from '../storage/user-repository.js';

/** Someone with a role on a plan. */
type Person = Pick<DocumentMemberRecord, 'userId' | 'email' | 'firstName' | 'lastName'>;

/**
 * A person as a plan's members see them: the whole e-mail address only for those who manage who it is shared
 * with (they invited by it); everyone else sees the username (its local part), as in organisations.
 */
export function memberBody(
  person: Person & { role: PlanRole; createdAt: Date },
  showEmail: boolean,
  callerId: string,
) {
  return {
    user: {
      id: person.userId,
      username: usernameOf(person.email),
      first_name: person.firstName,
      last_name: person.lastName,
      ...(showEmail && { email: person.email }),
    },
    role: person.role,
    joined_at: person.createdAt.toISOString(),
    is_you: person.userId === callerId,
  };
}

/** The owner as a member row: first in every list. */
export function ownerMember(owner: UserRecord, documentCreatedAt: Date) {
  return {
    userId: owner.id,
    email: owner.email,
    firstName: owner.firstName,
    lastName: owner.lastName,
    role: 'owner' as const,
    createdAt: documentCreatedAt,
  };
}

export function grantBody(grant: OrganizationGrantRecord) {
  return {
    organization: { id: grant.organizationId, name: grant.name },
    role: grant.role,
    granted_at: grant.createdAt.toISOString(),
  };
}

/** An invitation as its invitee sees it: the plan or the organisation, and who invited them. */
export function receivedInvitationBody(invitation: InvitationWithTarget) {
  const inviter =
    invitation.inviterEmail === null
      ? null
      : `${invitation.inviterFirstName ?? ''} ${invitation.inviterLastName ?? ''}`.trim() ||
        usernameOf(invitation.inviterEmail);
  return {
    id: invitation.id,
    document:
      invitation.documentId === null
        ? null
        : { uuid: invitation.documentId, title: invitation.documentTitle ?? '' },
    organization:
      invitation.organizationId === null
        ? null
        : { id: invitation.organizationId, name: invitation.organizationName ?? '' },
    role: invitation.role,
    invited_by: inviter,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
  };
}
