import type { VersionKind } from '@planwright/sdk';

/** The words of File › Version history… (docs/versions.md). */
export const VERSION_TEXTS = {
  menuItem: 'Version history…',
  dialogTitle: (title: string) => `Versions of “${title}”`,
  loading: 'Loading the versions…',
  loadFailed: 'Could not load the versions.',
  name: 'Name this version',
  nameHint: 'For example “Sent to bank, v3”. The plan as it is now is kept under this name for ever.',
  save: 'Save version',
  saving: 'Saving…',
  saved: (name: string) => `Version “${name}” saved.`,
  none: 'No versions yet. One is kept each hour while the plan is written, and before every import or restore.',
  by: (who: string) => `by ${who}`,
  progress: (finalized: number, total: number) => `${finalized}/${total} finalized`,
  view: 'View',
  viewLabel: (label: string) => `View ${label}`,
  restore: 'Restore',
  restoreLabel: (label: string) => `Restore ${label}`,
  restoreConfirm: (label: string) =>
    `Restore ${label}? The plan becomes that version again for everyone, as a new change; the plan as it is now is kept first, so you can restore it back.`,
  restored: (label: string) => `${label} restored. To undo it, restore the version kept just before.`,
  viewing: (label: string) => `Viewing ${label} (read-only)`,
  compare: 'Compare',
  compareLabel: (label: string) => `Compare ${label} with now`,
  comparing: (label: string) => `Changes from ${label} to now`,
  comparisonLoading: 'Comparing…',
  summary: (changed: number, added: number, removed: number) =>
    `Subsections: ${changed} changed, ${added} added, ${removed} removed.`,
  nothingChanged: 'Nothing changed since this version.',
  added: 'Added',
  removed: 'Removed',
  renamedFrom: (title: string) => `Renamed from “${title}”.`,
  moved: 'Moved.',
  finalized: 'Finalized.',
  reopened: 'No longer finalized.',
  addedText: 'added:',
  removedText: 'removed:',
  closeView: 'Back to the list',
  close: 'Close',
  failed: 'That did not work. Please try again.',
} as const;

/** How an automatic version is named in the list. */
export const VERSION_KIND_LABELS: Readonly<Record<VersionKind, string>> = {
  named: 'Named version',
  hourly: 'Automatic version',
  before_import: 'Before an import',
  before_restore: 'Before a restore',
};
