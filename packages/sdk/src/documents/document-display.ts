import { progressPercent } from '../model/progress.js';
import { titleError } from '../resources/text-fields.js';
import { DOCUMENT_TEXTS } from './document-texts.js';

/** The daisyUI badge colour of a status (spec 000 §4). */
export type StatusBadgeColor = 'success' | 'primary' | 'secondary';

/**
 * A status as shown (spec 000 §3): missing or blank is `Unknown`; any other value as given, with a
 * capital first letter (`in-progress` → `In-progress`). Used for documents and blueprints alike.
 */
export function statusLabel(status: string | null | undefined): string {
  const value = status?.trim() ?? '';
  if (value === '') return 'Unknown';
  const [first = '', ...rest] = value;
  return first.toUpperCase() + rest.join('');
}

/** Spec 000 §4: `completed` is success, `in-progress` primary, anything else secondary. */
export function statusBadgeColor(status: string | null | undefined): StatusBadgeColor {
  if (status === 'completed') return 'success';
  if (status === 'in-progress') return 'primary';
  return 'secondary';
}

/**
 * Why a document title cannot be saved, or `undefined` (spec 000 §5): empty after trimming gives
 * `Title cannot be empty`; longer than the server's 200 characters, or holding control characters, is
 * refused too. Check the trimmed title, and send it trimmed.
 */
export function validateDocumentTitle(title: string): string | undefined {
  return titleError(title);
}

/** The title to show: the document's, or `Untitled Document` when it has none. */
export function documentTitle(document: { title: string }): string {
  return document.title.trim() === '' ? DOCUMENT_TEXTS.untitled : document.title;
}

/** Progress counts as a screen has them. */
export interface ProgressCounts {
  finalized: number;
  total: number;
}

/** Spec 000 §2 "finalized/total subsections": `3/26 subsections`. */
export function formatProgress({ finalized, total }: ProgressCounts): string {
  return `${finalized}/${total} subsections`;
}

/** The compact form of a progress bar's label, for tables: `42% (11/26)`. */
export function formatProgressShort(progress: ProgressCounts): string {
  return `${progressPercent(progress.finalized, progress.total)}% (${progress.finalized}/${progress.total})`;
}
