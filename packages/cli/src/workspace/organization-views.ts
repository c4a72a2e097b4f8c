import type { ListPage, Organization, OrganizationRole, SentInvitation } from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';
import { withArticle } from './sharing-views.js';

/** Widest an organisation's name may be in a list before it is cut with `…`. */
const NAME_WIDTH = 40;

/** An organisation's name to show: its name, else its id (the server always sends a name; others may not). */
export function organizationLabel(organization: Pick<Organization, 'id' | 'name'>): string {
  return organization.name.trim() === '' ? organization.id : organization.name;
}

/** `planwright orgs list` for people: id, name and your role, then a line when the server kept some back. */
export function organizationListLines(page: ListPage<Organization>): string[] {
  if (page.items.length === 0) {
    return ['You belong to no organisations yet.', 'Create one with `planwright orgs create <name>`.'];
  }
  const table = formatTable(
    [
      { header: 'ID', value: (organization: Organization) => organization.id },
      { header: 'NAME', value: (organization) => organizationLabel(organization), maxWidth: NAME_WIDTH },
      { header: 'ROLE', value: (organization) => organization.role ?? '-' },
    ],
    page.items,
  );
  // The SDK's list asks for the server's first page; `--json` has the total too.
  const more =
    page.total > page.items.length
      ? ['', `${page.items.length} of ${page.total} organisations (the first page).`]
      : [];
  return [...table, ...more];
}

/** `planwright orgs create` for people. */
export function createdOrganizationLine(organization: Pick<Organization, 'id' | 'name'>): string {
  return `Created the organisation "${terminalText(organizationLabel(organization))}" (${terminalText(organization.id)}); you are its admin.`;
}

/** The organisations `planwright orgs invite` could mean: `“Studio” (<id>), “Lab” (<id>) or “Kitchen” (<id>)`. */
export function organizationChoices(organizations: readonly Pick<Organization, 'id' | 'name'>[]): string {
  const named = organizations.map(
    (organization) => `“${terminalText(organizationLabel(organization))}” (${terminalText(organization.id)})`,
  );
  const last = named.pop();
  return named.length === 0 ? (last ?? '') : `${named.join(', ')} or ${last}`;
}

/**
 * `planwright orgs invite` for people: `Invited mentor@uni.example to “Studio” as a member. The invitation link
 * expires on 2026-12-06 10:00 UTC.`
 */
export function sentOrganizationInvitationLine(
  invitation: SentInvitation<OrganizationRole>,
  organization: Pick<Organization, 'id' | 'name'>,
): string {
  return (
    `Invited ${terminalText(invitation.email)} to “${terminalText(organizationLabel(organization))}” as ` +
    `${withArticle(terminalText(invitation.role))}. The invitation link expires on ${formatTimestamp(invitation.expires_at)}.`
  );
}
