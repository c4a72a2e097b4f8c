import type { OrganizationRole } from '@planwright/sdk';

/** The words of the team page (`/dashboard/team`; docs/teams.md). */
export const TEAM_PAGE_TEXTS = {
  title: 'Team',
  intro:
    'The people you share plans with, and your organizations: share a plan with an organization and all its members get it.',
  people: 'People you share plans with',
  peopleEmpty: 'Nobody yet. Open a plan and use Share to invite co-founders, mentors, advisors or investors.',
  plans: (count: number) => (count === 1 ? '1 plan' : `${count} plans`),
  loading: 'Loading your team…',
  loadFailed: 'Could not load your team.',
  organizations: 'Organizations',
  organizationsEmpty: 'You are not a member of any organization yet.',
  newOrganization: 'New organization',
  name: 'Name',
  create: 'Create organization',
  rename: 'Rename',
  renameLabel: (name: string) => `Rename ${name}`,
  save: 'Save',
  cancel: 'Cancel',
  delete: 'Delete organization',
  deleteConfirm: (name: string) =>
    `Delete “${name}”? Its members leave it, and plans shared with it are no longer shared with them.`,
  confirmDelete: 'Delete',
  members: 'Members',
  you: '(you)',
  roleOf: (name: string) => `Role of ${name} in the organization`,
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name} from the organization`,
  leave: 'Leave',
  inviteMember: 'Invite a member',
  invited: (email: string) =>
    `Invitation sent to ${email}. They join once they accept it (signing up first if they have no account).`,
  resent: (email: string) => `Invitation sent to ${email} again.`,
  failed: 'That did not work. Please try again.',
} as const;

export const ORGANIZATION_ROLE_LABELS: Readonly<Record<OrganizationRole, string>> = {
  admin: 'Admin',
  member: 'Member',
};
