import type { CreatedShareLink, ShareLink, VersionKind } from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';

/** Widest a label or what a link shows may be in the table before it is cut with `…`. */
const LABEL_WIDTH = 30;
const SHOWS_WIDTH = 40;

/** Why an unnamed version was kept, in words: `hourly`, `before import`. */
const KIND_WORDS: Readonly<Record<VersionKind, string>> = {
  named: 'named',
  hourly: 'hourly',
  before_import: 'before import',
  before_restore: 'before restore',
};

/**
 * What a link shows, for the SHOWS column: the version's name, `<kind> version of <date>` for a version without
 * one, or `latest finalized`.
 */
export function linkShows(link: Pick<ShareLink, 'version'>): string {
  const { version } = link;
  if (version === null) return 'latest finalized';
  const name = version.name === null ? '' : terminalText(version.name).trim();
  return name === '' ? `${KIND_WORDS[version.kind]} version of ${formatTimestamp(version.created_at)}` : name;
}

/**
 * `planwright share-link list` for people: a table of every link, newest first (ID, LABEL, SHOWS, STATUS,
 * EXPIRES, PASSWORD, DOWNLOAD, VIEWS, VISITORS, LAST VIEWED), or how to make the first one.
 */
export function shareLinkListLines(links: readonly ShareLink[], uuid: string): string[] {
  if (links.length === 0) {
    return [
      'No share links yet.',
      `Make one with \`planwright share-link create ${terminalText(uuid)}\`: anyone with it reads the plan's finalized subsections (or a version, with --version), no account needed.`,
    ];
  }
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  return formatTable(
    [
      { header: 'ID', value: (link: ShareLink) => link.id },
      { header: 'LABEL', value: (link) => link.label.trim() || '-', maxWidth: LABEL_WIDTH },
      { header: 'SHOWS', value: (link) => linkShows(link), maxWidth: SHOWS_WIDTH },
      { header: 'STATUS', value: (link) => link.status },
      {
        header: 'EXPIRES',
        value: (link) => (link.expires_at === null ? 'never' : formatTimestamp(link.expires_at)),
      },
      { header: 'PASSWORD', value: (link) => yesNo(link.has_password) },
      { header: 'DOWNLOAD', value: (link) => yesNo(link.allow_download) },
      { header: 'VIEWS', value: (link) => String(link.views.total) },
      { header: 'VISITORS', value: (link) => String(link.views.unique_visitors) },
      { header: 'LAST VIEWED', value: (link) => formatTimestamp(link.views.last_viewed_at) },
    ],
    links,
  );
}

/**
 * `planwright share-link create`'s note on standard error, for people: what the link shows, until when, to whom,
 * and that its URL is shown only now.
 */
export function createdNote(link: CreatedShareLink): string {
  const { version } = link;
  const named = version !== null && version.name !== null && terminalText(version.name).trim() !== '';
  const shows =
    version === null
      ? 'the latest finalized subsections'
      : named
        ? `version “${linkShows(link)}”`
        : `the ${linkShows(link)}`;
  const them = version === null ? 'them' : 'it';
  const until = link.expires_at === null ? '' : `, until ${formatTimestamp(link.expires_at)}`;
  const who = link.has_password ? 'anyone with it and its password' : 'anyone with it';
  const download = link.allow_download ? ` and download ${them} as PDF and Word` : '';
  return `Link to ${shows}${until}; ${who} can read ${them}${download}. It is shown only now: keep it.`;
}

/** `planwright share-link revoke` for people: `Turned off the link <id>: it now answers 410 Gone.` */
export function revokedLine(link: ShareLink): string {
  return `Turned off the link ${terminalText(link.id)}: it now answers 410 Gone.`;
}
