/**
 * AI proposals in the web: the card a proposal shows as in the chat and the dialog that reviews and applies
 * it. Rules: `src/proposals/SPEC.md`.
 */

export { ProposalCard } from './proposal-card';
export { ProposalReviewDialog, type ProposalReviewDialogProps } from './proposal-review-dialog';
