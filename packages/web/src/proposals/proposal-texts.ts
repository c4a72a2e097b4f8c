import type { ProposalReviewItem } from '@planwright/sdk/proposals';

/** The words of the proposal card and review dialog (spec 001 §4 "Proposal", §8). */
export const PROPOSAL_TEXTS = {
  dialogTitle: 'Review proposed changes',
  failedTitle: 'Proposal not applied',
  pending: 'Review proposed changes',
  accepted: 'Changes applied successfully',
  rejected: 'Proposed edit rejected. Click to review.',
  noLongerApplies: 'No longer applies',
  editorRefused: 'The editor could not take the change (it is busy or read-only). Nothing was applied.',
} as const;

const KIND_LABELS: Record<ProposalReviewItem['kind'], string> = {
  replace_subsection: 'Rewrite subsection',
  replace: 'Replace',
  insert_after: 'Insert after',
  insert_before: 'Insert before',
  delete: 'Delete',
};

/** What an item does, in words ("Replace"). */
export function kindLabel(kind: ProposalReviewItem['kind']): string {
  return KIND_LABELS[kind];
}

/** Where an item is ("Market > Size"), or null when its target is gone. */
export function placeLabel(item: ProposalReviewItem): string | null {
  const parts = [item.sectionTitle, item.subsectionTitle].filter(
    (part): part is string => part !== null && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' > ');
}

/**
 * The chat message "Ask again" sends (R9): names what no longer applies and asks for the change again,
 * made against the text as it is now.
 */
export function askAgainMessage(items: readonly ProposalReviewItem[]): string {
  const stale = items.filter((item) => item.problem !== null);
  const places = [...new Set(stale.map((item) => placeLabel(item) ?? 'the document'))];
  return (
    `Your proposed change to ${places.join(', ')} no longer applies: the text has changed since. ` +
    'Please read the current text and propose the change again.'
  );
}
