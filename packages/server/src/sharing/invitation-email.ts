import { withLink } from '../auth/account-emails.js';
import type { SharedPlanRole } from '../documents/document-access.js';
import type { MailMessage } from '../mail/mailer.js';
import type { OrganizationRole } from '../storage/organization-repository.js';

/** How long an invitation's link works; a resend starts it again (docs/teams.md "Invitations"). */
export const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/** What each plan role lets the invitee do, in the e-mail's words. */
const PLAN_ROLE_WORDS: Readonly<Record<SharedPlanRole, string>> = {
  editor: 'edit it, chat with its AI assistant and accept its proposals',
  commenter: 'read it and comment on it',
  viewer: 'read and export it',
};

/** What each organisation role lets the invitee do. */
const ORGANIZATION_ROLE_WORDS: Readonly<Record<OrganizationRole, string>> = {
  admin: 'open the plans shared with it, and manage its members',
  member: 'open the plans shared with it and use its restricted blueprints',
};

/** What an invitation is to, as its e-mail names it. */
export type InvitedTo =
  | { kind: 'document'; title: string; role: SharedPlanRole }
  | { kind: 'organization'; name: string; role: OrganizationRole };

const article = (role: string) => (/^[aeiou]/.test(role) ? 'an' : 'a');

/** The invitation e-mail: who invites whom to which plan or organisation as what, and the link that accepts it. */
export function invitationEmail(input: {
  to: string;
  inviter: string;
  invitedTo: InvitedTo;
  url: string;
}): MailMessage {
  const { invitedTo } = input;
  const name = invitedTo.kind === 'document' ? invitedTo.title : invitedTo.name;
  const what =
    invitedTo.kind === 'document'
      ? `the business plan “${name}” as ${article(invitedTo.role)} ${invitedTo.role}: you can ${PLAN_ROLE_WORDS[invitedTo.role]}.`
      : `the organisation “${name}” as ${article(invitedTo.role)} ${invitedTo.role}: you can ${ORGANIZATION_ROLE_WORDS[invitedTo.role]}.`;
  return withLink(
    input.to,
    `${input.inviter} invited you to “${name}” on Planwright`,
    [
      `${input.inviter} invited you to ${what}`,
      'Open the link to accept. No account yet? Sign up with this e-mail address first; the invitation is applied as soon as you are in. The link expires in 14 days.',
      'If you did not expect this invitation, you can ignore this message.',
    ],
    { label: invitedTo.kind === 'document' ? 'Open the plan' : 'Join the organisation', url: input.url },
  );
}
