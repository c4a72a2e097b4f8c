import { withLink } from '../auth/account-emails.js';
import type { SharedPlanRole } from '../documents/document-access.js';
import type { MailMessage } from '../mail/mailer.js';

/** How long an invitation's link works; a resend starts it again (docs/teams.md "Invitations"). */
export const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/** What each role lets the invitee do, in the e-mail's words. */
const ROLE_WORDS: Readonly<Record<SharedPlanRole, string>> = {
  editor: 'edit it, chat with its AI assistant and accept its proposals',
  commenter: 'read it and comment on it',
  viewer: 'read and export it',
};

/** The invitation e-mail: who invites whom to which plan as what, and the link that accepts it. */
export function invitationEmail(input: {
  to: string;
  inviter: string;
  title: string;
  role: SharedPlanRole;
  url: string;
}): MailMessage {
  return withLink(
    input.to,
    `${input.inviter} invited you to “${input.title}” on Planwright`,
    [
      `${input.inviter} invited you to the business plan “${input.title}” as ${input.role === 'editor' ? 'an' : 'a'} ${input.role}: you can ${ROLE_WORDS[input.role]}.`,
      'Open the link to accept. No account yet? Sign up with this e-mail address first; the invitation is applied as soon as you are in. The link expires in 14 days.',
      'If you did not expect this invitation, you can ignore this message.',
    ],
    { label: 'Open the plan', url: input.url },
  );
}
