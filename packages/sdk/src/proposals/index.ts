/**
 * Proposal application: pure functions that read and apply the AI's `propose_full_subsection` and
 * `propose_partial_edits` tool proposals to a document, and undo them. Rules: `src/proposals/SPEC.md`.
 *
 * @module @planwright/sdk/proposals
 */

export type { ApplyProposalOptions } from './apply-common.js';
export { applyFullSubsection } from './apply-full-subsection.js';
export { type ApplyPartialEditsOptions, applyPartialEdits } from './apply-partial-edits.js';
export { applyProposal } from './apply-proposal.js';
export {
  type ProposalBlocksResult,
  type ProposalContentOptions,
  proposalContentToBlocks,
} from './proposal-content.js';
export {
  EDIT_MODES,
  type EditMode,
  type FullSubsectionProposal,
  fullSubsectionPayloadSchema,
  MAX_PROPOSAL_EDITS,
  MAX_PROPOSAL_TEXT_LENGTH,
  type PartialEdit,
  type PartialEditsProposal,
  PROPOSAL_FORMATS,
  PROPOSAL_TOOL_NAMES,
  type Proposal,
  type ProposalContent,
  type ProposalFormat,
  type ProposalParseFailure,
  type ProposalToolName,
  parseProposal,
  partialEditsPayloadSchema,
} from './proposal-payloads.js';
export type {
  BodySnapshot,
  ProposalChange,
  ProposalFailure,
  ProposalFailureReason,
  ProposalInverse,
  ProposalResult,
  ProposalSuccess,
} from './proposal-result.js';
export {
  MAX_WORD_DIFF_LENGTH,
  type ProposalReview,
  type ProposalReviewItem,
  reviewProposal,
  type WordDiffPart,
  wordDiff,
} from './proposal-review.js';
export { revertProposal } from './revert-proposal.js';
export {
  readableDraft,
  type Suggestion,
  type SuggestionFilter,
  type SuggestionOutcome,
  SuggestionQueue,
  type SuggestionQueuePorts,
  type SuggestionQueueSnapshot,
  type SuggestionTurn,
} from './suggestion-queue.js';
