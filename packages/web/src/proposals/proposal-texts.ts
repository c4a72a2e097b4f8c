import type { ProposalReviewItem } from '@planwright/sdk/proposals';

/** The words of the proposal card (spec 001 §4 "Proposal", §8). */
export const PROPOSAL_TEXTS = {
  pending: 'Review proposed changes',
  accepted: 'Changes applied successfully',
  rejected: 'Proposed edit rejected. Click to review.',
  staleCount: (count: number) => `${count} no longer ${count === 1 ? 'applies' : 'apply'}`,
} as const;

/** "1 suggestion in the text", "3 suggestions in the text". */
export function suggestionCount(count: number): string {
  return `${count} ${count === 1 ? 'suggestion' : 'suggestions'} in the text`;
}

/** Where an item is ("Market > Size"), or null when its target is gone. */
export function placeLabel(item: ProposalReviewItem): string | null {
  const parts = [item.sectionTitle, item.subsectionTitle].filter(
    (part): part is string => part !== null && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' > ');
}

/**
 * The chat message "Ask again" sends (R6): names what no longer applies and asks for the change again,
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
