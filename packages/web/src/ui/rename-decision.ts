/** What submitting a rename dialog leads to (SPEC.md RN2–RN4). */
export type RenameDecision =
  | { kind: 'invalid'; message: string }
  | { kind: 'unchanged' }
  | { kind: 'send'; title: string };

/**
 * RN3: a title the rule refuses (`Title cannot be empty`…) is not sent; RN4: the same title as now closes
 * without a call (so does a blank one with `blankCloses`); anything else is sent trimmed.
 */
export function renameDecision(
  draft: string,
  current: string,
  validate: (title: string) => string | undefined,
  blankCloses = false,
): RenameDecision {
  // Spec 001 §4 "Rename": in the editor an empty (trimmed) title cancels silently.
  if (blankCloses && draft.trim() === '') return { kind: 'unchanged' };
  const message = validate(draft);
  if (message !== undefined) return { kind: 'invalid', message };
  const title = draft.trim();
  return title === current ? { kind: 'unchanged' } : { kind: 'send', title };
}
