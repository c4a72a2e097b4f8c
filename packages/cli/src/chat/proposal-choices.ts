/**
 * The user's decisions on one proposal's changes on the chat screen (T64–T66): each partial edit is accepted
 * or rejected on its own (a full-subsection proposal is one change); once every change is decided, the
 * accepted ones are applied together, or the proposal is rejected when none was accepted. Pure, so it is
 * tested without a terminal.
 */
export interface ProposalChoices {
  /** Per change: `true` accepted, `false` rejected, `null` not decided yet. */
  readonly decisions: readonly (boolean | null)[];
  /** The change the keys act on. */
  readonly cursor: number;
}

/** Every change undecided, the first one selected. */
export function initialChoices(count: number): ProposalChoices {
  return { decisions: Array.from({ length: count }, () => null), cursor: 0 };
}

/** Decides the selected change and moves to the next undecided one (T64). */
export function decideCurrent(choices: ProposalChoices, accept: boolean): ProposalChoices {
  const decisions = choices.decisions.map((decision, index) =>
    index === choices.cursor ? accept : decision,
  );
  const next = decisions.findIndex((decision, index) => decision === null && index > choices.cursor);
  const first = decisions.indexOf(null);
  return { decisions, cursor: next >= 0 ? next : first >= 0 ? first : choices.cursor };
}

/** Decides every change still open the same way (`A` / `R`). */
export function decideRest(choices: ProposalChoices, accept: boolean): ProposalChoices {
  return { ...choices, decisions: choices.decisions.map((decision) => decision ?? accept) };
}

/** Moves the selection by `step`, staying within the changes. */
export function moveCursor(choices: ProposalChoices, step: number): ProposalChoices {
  const last = Math.max(0, choices.decisions.length - 1);
  return { ...choices, cursor: Math.min(last, Math.max(0, choices.cursor + step)) };
}

/** What the decisions come to once all are made (T65): `null` while any is open. */
export function verdict(
  choices: ProposalChoices,
): { readonly kind: 'accept'; readonly edits: number[] } | { readonly kind: 'reject' } | null {
  if (choices.decisions.some((decision) => decision === null)) return null;
  const edits = choices.decisions.flatMap((decision, index) => (decision ? [index] : []));
  return edits.length === 0 ? { kind: 'reject' } : { kind: 'accept', edits };
}
