import { validateDocumentTitle } from '@planwright/sdk';

/** What submitting a title (inline editor or a rename dialog) leads to (W11, W17). */
export type TitleEditDecision =
  | { kind: 'ignore' }
  | { kind: 'close' }
  | { kind: 'invalid'; message: string }
  | { kind: 'send'; title: string };

/**
 * W11/W17 (spec 001 §4 "Rename", "Title edit"): the draft is trimmed; empty is `empty` (the inline
 * title editor does nothing, a rename dialog cancels silently); the same title as now just closes; a title
 * the SDK's rule refuses (over 200 characters, control characters) says why; anything else is sent trimmed.
 */
export function titleEditDecision(
  draft: string,
  current: string,
  empty: 'ignore' | 'close',
): TitleEditDecision {
  const title = draft.trim();
  if (title === '') return { kind: empty };
  if (title === current.trim()) return { kind: 'close' };
  const message = validateDocumentTitle(title);
  if (message !== undefined) return { kind: 'invalid', message };
  return { kind: 'send', title };
}
