import {
  type DocumentDetail,
  type DocumentVersion,
  type DocumentVersionDetail,
  documentTitle,
  formatProgress,
  type VersionKind,
} from '@planwright/sdk';
import { terminalLines, terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';
import { formatFields } from '../output.js';
import { LIST_TITLE_WIDTH } from './document-views.js';

/**
 * How a version without a name is called in the NAME column and in sentences: why it was kept (docs/versions.md
 * "Named and automatic versions"). A named version always has its name; `(named)` only stands in for a name
 * the server did not send.
 */
export const VERSION_KIND_LABELS: Readonly<Record<VersionKind, string>> = {
  named: '(named)',
  hourly: '(hourly)',
  before_import: '(before import)',
  before_restore: '(before restore)',
};

/** Why a version was kept, in words, for `versions show`. */
const KIND_WORDS: Readonly<Record<VersionKind, string>> = {
  named: 'named',
  hourly: 'automatic, kept hourly while the plan was written',
  before_import: 'automatic, kept before an import',
  before_restore: 'automatic, kept before a restore',
};

/** A version's name as printed: made safe; for an automatic version the label of its kind (`(hourly)`). */
export function versionName(version: Pick<DocumentVersion, 'name' | 'kind'>): string {
  const name = version.name === null ? '' : terminalText(version.name).trim();
  return name === '' ? VERSION_KIND_LABELS[version.kind] : name;
}

/** A version in a sentence: its name, or for an automatic one its kind and when it was kept. */
export function versionLabel(version: Pick<DocumentVersion, 'name' | 'kind' | 'created_at'>): string {
  return version.name === null || terminalText(version.name).trim() === ''
    ? `${VERSION_KIND_LABELS[version.kind]} ${formatTimestamp(version.created_at)}`
    : versionName(version);
}

/** Who kept a version, for the BY column: their username, `-` once their account is gone. */
function keptBy(version: DocumentVersion): string {
  return version.created_by?.username || '-';
}

/** Who kept a version, for `versions show`: `Ada Lovelace (ada)`, the username alone without a name, else `-`. */
function authorName(author: DocumentVersion['created_by']): string {
  if (author === null) return '-';
  const username = terminalText(author.username).trim();
  const name = terminalText(`${author.first_name} ${author.last_name}`).trim();
  if (name === '') return username || '-';
  return username === '' ? name : `${name} (${username})`;
}

/** The title of the plan (or of the plan as a version has it), made safe, "Untitled Document" when blank. */
function planTitle(title: string): string {
  return documentTitle({ title: terminalText(title).trim() });
}

/**
 * `planwright versions list` for people: a table of every version, newest first (ID, NAME, BY, PROGRESS,
 * KEPT), or how to keep the first one.
 */
export function versionListLines(versions: readonly DocumentVersion[], uuid: string): string[] {
  if (versions.length === 0) {
    return [
      'No versions yet.',
      `Keep one with \`planwright versions create ${terminalText(uuid)} --name "…"\`; one is also kept each hour while the plan is written, and before every import or restore.`,
    ];
  }
  return formatTable(
    [
      { header: 'ID', value: (version: DocumentVersion) => version.id },
      { header: 'NAME', value: (version) => versionName(version), maxWidth: LIST_TITLE_WIDTH },
      { header: 'BY', value: keptBy },
      {
        header: 'PROGRESS',
        value: (version) => `${version.progress.finalized}/${version.progress.total}`,
      },
      { header: 'KEPT', value: (version) => formatTimestamp(version.created_at) },
    ],
    versions,
  );
}

/** `planwright versions create` for people: `Kept version “v1” of “Bakery plan” (<id>).` */
export function createdVersionLine(version: DocumentVersion): string {
  return `Kept version “${versionName(version)}” of “${planTitle(version.title)}” (${terminalText(version.id)}).`;
}

/**
 * `planwright versions show` for people: the version's fields (name, kind, when and by whom it was kept, the
 * plan's title and progress then), a blank line, then the plan's content as it was, as Markdown (every line
 * made safe for the terminal: the content may be anyone's on a shared plan).
 *
 * @param markdown the version's content as `documentToMarkdown` (`@planwright/sdk/formats`) writes it.
 */
export function versionDetailLines(version: DocumentVersionDetail, markdown: string): string[] {
  const body = markdown.trimEnd();
  return [
    ...formatFields([
      ['Version', versionName(version)],
      ['ID', terminalText(version.id)],
      ['Kind', KIND_WORDS[version.kind]],
      ['Kept', formatTimestamp(version.created_at)],
      ['By', authorName(version.created_by)],
      ['Title', planTitle(version.title)],
      ['Progress', `${formatProgress(version.progress)} finalized`],
      ['Revision', String(version.revision)],
    ]),
    '',
    ...(body === '' ? ['(The plan was empty.)'] : terminalLines(body)),
  ];
}

/**
 * `planwright versions restore` for people, one line: what was restored in which plan, the plan's new revision,
 * and the command that undoes it (restoring the `before_restore` version the server kept just before).
 *
 * @param undo the newest `before_restore` version after the restore, when the server listed one.
 */
export function restoredLine(
  version: DocumentVersion,
  document: DocumentDetail,
  undo: DocumentVersion | undefined,
  uuid: string,
): string {
  const revision = document.revision === null ? '' : `: revision ${document.revision}`;
  const restored = `Restored “${versionLabel(version)}” in “${planTitle(document.title)}”${revision}.`;
  return undo === undefined
    ? `${restored} To undo, restore the version kept just before it: see \`planwright versions list ${terminalText(uuid)}\`.`
    : `${restored} To undo, restore the version kept just before: planwright versions restore ${terminalText(uuid)} ${terminalText(undo.id)}`;
}
