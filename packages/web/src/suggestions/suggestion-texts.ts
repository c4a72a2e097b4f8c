import type { Suggestion } from '@planwright/sdk/proposals';

/** The words of the suggestions in the text (W50–W53). */
export const SUGGESTION_TEXTS = {
  bar: 'AI suggestions',
  position: (index: number, total: number) => `Suggestion ${index} of ${total}`,
  previous: 'Previous suggestion',
  next: 'Next suggestion',
  accept: 'Accept',
  reject: 'Reject',
  acceptKeys: 'Ctrl+Shift+Enter',
  rejectKeys: 'Ctrl+Shift+Backspace',
  acceptAll: 'Accept all',
  acceptSubsection: 'Accept in this subsection',
  rejectSubsection: 'Reject in this subsection',
  rejectAll: 'Reject all',
  tryAgain: 'Try again',
  askAgain: 'Ask again',
  queue: (count: number) => `Review queue (${count})`,
  queueLabel: 'Pending suggestions',
  writing: 'writing…',
  cancel: 'Cancel',
  dismiss: 'Dismiss',
  noLongerApplies: 'No longer applies',
  chat: 'AI chat',
  kinds: {
    replace_subsection: 'Rewrite subsection',
    replace: 'Replace',
    insert_after: 'Insert after',
    insert_before: 'Insert before',
    delete: 'Delete',
  },
} as const;

/** What the suggestion does, and who asked: "Fix spelling & grammar" or "AI chat: Replace" (W51). */
export function suggestionKind(suggestion: Suggestion): string {
  if (suggestion.origin === 'action' && suggestion.label !== null) return suggestion.label;
  return `${SUGGESTION_TEXTS.chat}: ${SUGGESTION_TEXTS.kinds[suggestion.item.kind]}`;
}

/** "Section › Subsection", or null when its target is gone. */
export function suggestionPlace(suggestion: Suggestion): string | null {
  const { sectionTitle, subsectionTitle } = suggestion.item;
  if (sectionTitle === null) return null;
  return subsectionTitle === null ? sectionTitle : `${sectionTitle} › ${subsectionTitle}`;
}
