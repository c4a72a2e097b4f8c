/**
 * AI proposals in the web: the card a proposal shows as in the chat and the texts it shares with the
 * suggestions in the text. Rules: `src/proposals/SPEC.md`.
 */

export { ProposalCard } from './proposal-card';
export { askAgainMessage, PROPOSAL_TEXTS, placeLabel } from './proposal-texts';
