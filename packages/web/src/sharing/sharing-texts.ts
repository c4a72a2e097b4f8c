import type { OrganizationRole, PlanRole, SharedPlanRole } from '@planwright/sdk';

/** The words of sharing a plan (docs/teams.md): the Share dialog, invitations and plans shared with you. */
export const SHARING_TEXTS = {
  share: 'Share',
  shareMenuItem: 'Share…',
  dialogTitle: (title: string) => `Share “${title}”`,
  loading: 'Loading who this plan is shared with…',
  loadFailed: 'Could not load who this plan is shared with.',
  people: 'People with access',
  you: '(you)',
  roleOf: (name: string) => `Role of ${name}`,
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name}`,
  leave: 'Leave this plan',
  leaveConfirm: 'Leave this plan? You will no longer see it unless someone invites you again.',
  leaveConfirmButton: 'Leave',
  cancel: 'Cancel',
  invite: 'Invite people',
  email: 'E-mail address',
  role: 'Role',
  sendInvitation: 'Send invitation',
  sending: 'Sending…',
  invited: (email: string) => `Invitation sent to ${email}.`,
  pending: 'Pending invitations',
  expires: 'expires',
  resend: 'Resend',
  resendLabel: (email: string) => `Resend the invitation to ${email}`,
  resent: (email: string) => `Invitation sent to ${email} again.`,
  revoke: 'Revoke',
  revokeLabel: (email: string) => `Revoke the invitation to ${email}`,
  organizations: 'Organizations',
  noOrganizations: 'You are not a member of any organization yet.',
  organization: 'Organization',
  shareWithOrganization: 'Share with organization',
  unshareLabel: (name: string) => `Stop sharing with ${name}`,
  editorsCanShare: 'Editors can invite people too',
  readOnlyNote: 'Only the owner changes who has access.',
  close: 'Close',
  failed: 'That did not work. Please try again.',
  invitationsTitle: 'Invitations',
  invitationFrom: (inviter: string | null, role: SharedPlanRole) =>
    `${inviter ?? 'Someone'} invited you as ${ROLE_ARTICLE[role]} ${role}.`,
  organizationInvitationFrom: (inviter: string | null, role: OrganizationRole) =>
    `${inviter ?? 'Someone'} invited you to this organization as ${role === 'admin' ? 'an admin' : 'a member'}.`,
  accept: 'Accept',
  acceptLabel: (title: string) => `Accept the invitation to “${title}”`,
  sharedWithYou: 'Shared with you',
  sharedEmpty: 'Nobody has shared a plan with you yet.',
  sharedLoading: 'Loading plans shared with you…',
  sharedLoadFailed: 'Could not load the plans shared with you.',
  readOnly: (role: PlanRole | null) =>
    role === 'commenter'
      ? 'You are a commenter on this plan: you can read it, but not change it.'
      : 'You are a viewer of this plan: you can read and export it, but not change it.',
  chatForEditors:
    'The AI assistant is for the plan’s editors. Ask its owner to make you an editor to chat about it.',
} as const;

const ROLE_ARTICLE: Readonly<Record<SharedPlanRole, string>> = { editor: 'an', commenter: 'a', viewer: 'a' };

/** A role as people read it. */
export const ROLE_LABELS: Readonly<Record<PlanRole, string>> = {
  owner: 'Owner',
  editor: 'Editor',
  commenter: 'Commenter',
  viewer: 'Viewer',
};

/** The words of the invitation page (`/invitations/{token}`). */
export const INVITATION_PAGE_TEXTS = {
  title: 'Invitation',
  heading: 'You are invited',
  accepting: 'Accepting the invitation…',
  signedOut:
    'Sign in to accept it. No account yet? Sign up with the address the invitation was sent to: the invitation is applied as soon as you are in.',
  signIn: 'Sign in',
  signUp: 'Sign up',
  failed: 'This invitation could not be accepted',
  toDashboard: 'Go to the dashboard',
} as const;
