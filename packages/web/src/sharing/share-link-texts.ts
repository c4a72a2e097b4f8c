import type { ShareLink } from '@planwright/sdk';

/** The words of share links (docs/versions.md "Share links"), in the Share dialog. */
export const SHARE_LINK_TEXTS = {
  heading: 'Links for readers without an account',
  intro:
    'Anyone with a link reads the plan in their browser, without signing in: an investor, the bank. Make one link per reader to see who read what.',
  loading: 'Loading the plan’s links…',
  loadFailed: 'Could not load the plan’s links.',
  label: 'For (optional)',
  labelPlaceholder: 'Acme Ventures',
  shows: 'Shows',
  latestFinalized: 'Latest finalized subsections',
  expires: 'Expires after (optional)',
  password: 'Password (optional)',
  passwordHint: 'At least 6 characters; send it separately from the link.',
  allowDownload: 'Readers may download it as PDF and Word',
  create: 'Create link',
  creating: 'Creating…',
  created: 'Link created. Copy it now: it is not shown again.',
  newLink: 'New link',
  none: 'No links yet.',
  revoke: 'Turn off',
  revokeLabel: (name: string) => `Turn off ${name}`,
  revoked: (name: string) => `${name} is turned off: its page now says so.`,
  readingTime: 'Time read per section',
  removedSection: 'A section since removed',
  status: { active: 'Active', expired: 'Expired', revoked: 'Turned off' } satisfies Record<
    ShareLink['status'],
    string
  >,
  withPassword: 'password',
  withDownload: 'downloads',
  views: (views: number, readers: number) =>
    `${views} ${views === 1 ? 'view' : 'views'} by ${readers} ${readers === 1 ? 'reader' : 'readers'}`,
  lastViewed: 'last read',
  expiresOn: 'expires',
  notRead: 'Not read yet',
} as const;

/** A link's name in lists: its label, else the start of its token. */
export function shareLinkName(link: ShareLink): string {
  return link.label || `Link ${link.token_hint}…`;
}

/** What a link shows, in words. */
export function shareLinkShows(link: ShareLink): string {
  if (!link.version) return 'Latest finalized subsections';
  if (link.version.name) return `Version “${link.version.name}”`;
  return `The ${link.version.kind.replace('_', ' ')} version of ${new Date(link.version.created_at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}`;
}

/** A duration read, as people say it: "45 s", "3 min", "1 h 20 min". */
export function readingDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
