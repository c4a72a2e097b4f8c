import {
  type AcceptedInvitation,
  documentTitle,
  type InvitationTarget,
  type PlanMember,
  type PlanOrganization,
  type PlanSharing,
  type ReceivedInvitation,
  type SentInvitation,
} from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';
import { LIST_TITLE_WIDTH } from './document-views.js';

/** Widest a person's name or address may be in a table before it is cut with `…`. */
const PERSON_WIDTH = 40;

/**
 * `Ada Lovelace`, else the username: how a member (or a comment's author) is named (first and last name as they
 * typed them).
 */
export function memberName(user: Pick<PlanMember['user'], 'username' | 'first_name' | 'last_name'>): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name === '' ? user.username : name;
}

/** "a viewer", "an editor": the role with its article, for sentences. */
export function withArticle(role: string): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}

/**
 * `planwright share` for people: one line saying who was invited as what, that the e-mail went out, and the
 * two ways to accept.
 */
export function sentInvitationLine(invitation: SentInvitation): string {
  const email = terminalText(invitation.email);
  const id = terminalText(invitation.id);
  return (
    `Invited ${email} as ${terminalText(invitation.role)}: an e-mail with a link was sent (valid until ` +
    `${formatTimestamp(invitation.expires_at)}); they accept from the link, or with ` +
    `\`planwright invitations accept ${id}\` if they have an account.`
  );
}

/**
 * `planwright members` for people: the members (owner first, as the server orders them), the organisations
 * the plan is shared with, and the pending invitations when the caller may see them.
 */
export function sharingLines(sharing: PlanSharing): string[] {
  const lines = [
    'Members:',
    ...formatTable(
      [
        {
          header: 'NAME',
          value: (member: PlanMember) => `${memberName(member.user)}${member.is_you ? ' (you)' : ''}`,
          maxWidth: PERSON_WIDTH,
        },
        // Only those who manage the plan's sharing are told addresses; the others see the username.
        {
          header: 'E-MAIL',
          value: (member) => member.user.email ?? member.user.username,
          maxWidth: PERSON_WIDTH,
        },
        { header: 'ROLE', value: (member) => member.role },
        { header: 'JOINED', value: (member) => formatTimestamp(member.joined_at) },
      ],
      sharing.members,
    ).map(indent),
  ];
  if (sharing.organizations.length > 0) {
    lines.push(
      '',
      'Organisations:',
      ...formatTable(
        [
          {
            header: 'NAME',
            value: (grant: PlanOrganization) => grant.organization.name || grant.organization.id,
            maxWidth: PERSON_WIDTH,
          },
          { header: 'ROLE', value: (grant) => grant.role },
        ],
        sharing.organizations,
      ).map(indent),
    );
  }
  if (sharing.invitations !== null) {
    lines.push('', 'Pending invitations:');
    if (sharing.invitations.length === 0) lines.push('  none');
    else
      lines.push(
        ...formatTable(
          [
            {
              header: 'E-MAIL',
              value: (invitation: SentInvitation) => invitation.email,
              maxWidth: PERSON_WIDTH,
            },
            { header: 'ROLE', value: (invitation) => invitation.role },
            { header: 'EXPIRES', value: (invitation) => formatTimestamp(invitation.expires_at) },
          ],
          sharing.invitations,
        ).map(indent),
      );
  }
  if (sharing.editorsCanShare) lines.push('', 'Editors may invite people too.');
  return lines;
}

/** `planwright invitations list` for people: the invitations waiting for the caller, and how to accept one. */
export function receivedInvitationLines(invitations: readonly ReceivedInvitation[]): string[] {
  if (invitations.length === 0) return ['No pending invitations.'];
  return [
    ...formatTable(
      [
        { header: 'ID', value: (invitation: ReceivedInvitation) => invitation.id },
        { header: 'TO', value: (invitation) => invitedTo(invitation), maxWidth: LIST_TITLE_WIDTH },
        { header: 'ROLE', value: (invitation) => invitation.role },
        { header: 'INVITED BY', value: (invitation) => invitation.invited_by ?? '-', maxWidth: PERSON_WIDTH },
        { header: 'EXPIRES', value: (invitation) => formatTimestamp(invitation.expires_at) },
      ],
      invitations,
    ),
    '',
    'Accept one with `planwright invitations accept <id>`.',
  ];
}

/**
 * `planwright invitations accept` for people: `You are now a commenter on “Acme plan” (<uuid>).`, or for an
 * organisation `You are now a member of the organisation “Studio” (<id>).`
 */
export function acceptedInvitationLine(accepted: AcceptedInvitation): string {
  const role = withArticle(terminalText(accepted.role));
  if (accepted.document === null) {
    const { organization } = accepted;
    return `You are now ${role} of the organisation “${organizationName(organization)}” (${terminalText(organization.id)}).`;
  }
  const title = documentTitle({ title: terminalText(accepted.document.title) });
  return `You are now ${role} on “${title}” (${terminalText(accepted.document.uuid)}).`;
}

/** What an invitation is to, for the `TO` column: the plan's title, or `organisation “Studio”`. */
function invitedTo(invitation: InvitationTarget): string {
  return invitation.document === null
    ? `organisation “${organizationName(invitation.organization)}”`
    : documentTitle({ title: terminalText(invitation.document.title) });
}

/** An organisation's name made safe for the terminal, else its id (as `sharingLines` names them). */
function organizationName(organization: { id: string; name: string }): string {
  return terminalText(organization.name).trim() || terminalText(organization.id);
}

function indent(line: string): string {
  return `  ${line}`;
}
