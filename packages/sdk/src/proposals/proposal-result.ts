import type { BlockJson, DocumentJson, SubsectionHeadingJson } from '../model/document-json.js';

/** Why a proposal was not applied (P30). Nothing is ever half-applied. */
export type ProposalFailureReason =
  /** The tool name is not one of the two proposal tools. */
  | 'unknown_tool'
  /** The payload does not have the shape of spec 001 §3. */
  | 'invalid_payload'
  /** The document itself cannot be read as a content tree. */
  | 'invalid_document'
  /** No subsection or block with the id the proposal names. */
  | 'target_not_found'
  /** The change touches a finalized subsection and `allowFinalized` is not set. */
  | 'subsection_finalized'
  /** The proposed content cannot be read or repaired into blocks (too deep, too large, unparsable). */
  | 'invalid_content'
  /** An insert or replace whose content holds no block. */
  | 'empty_content'
  /** Reverting: the changed part of the document has changed again since. */
  | 'conflict';

/** A refusal: nothing was applied. */
export interface ProposalFailure {
  ok: false;
  reason: ProposalFailureReason;
  /** One sentence for logs and the chat panel. */
  message: string;
  /** For partial edits: the index (in the proposal) of the edit that failed. */
  editIndex?: number;
}

/** One change made to the document (P31). */
export interface ProposalChange {
  kind: 'replace_subsection' | 'replace' | 'insert_after' | 'insert_before' | 'delete';
  /** For partial edits: the edit's index in the proposal. */
  editIndex?: number;
  sectionUuid: string;
  /** The subsection changed; null when the blocks belong to the section's own body. */
  subsectionUuid: string | null;
  /** Whether the subsection's title changed (full-subsection proposals with a `title`). */
  renamed?: boolean;
  /** Top-level ids of the blocks removed (nodeIds; horizontal rules have none). */
  removedNodeIds: string[];
  /** Top-level ids of the blocks inserted, as they are in the new document. */
  insertedNodeIds: string[];
  /** Where the body changed, in top-level block positions of the body right after this change: [from, to). */
  range: { from: number; to: number };
}

/** The part of the document one body held before and after a proposal: enough to undo it exactly (P32). */
export interface BodySnapshot {
  sectionUuid: string;
  subsectionUuid: string | null;
  /** The subsection heading, when the proposal renamed it. */
  headingBefore?: SubsectionHeadingJson;
  headingAfter?: SubsectionHeadingJson;
  before: BlockJson[];
  after: BlockJson[];
}

/** How to undo an applied proposal with `revertProposal` (P32). */
export interface ProposalInverse {
  bodies: BodySnapshot[];
}

/** An applied proposal. */
export interface ProposalSuccess {
  ok: true;
  /** The new, normalised document; the input is untouched. */
  document: DocumentJson;
  changes: ProposalChange[];
  inverse: ProposalInverse;
  /** For partial edits: the indexes of the edits applied and of those rejected. */
  applied?: number[];
  rejected?: number[];
}

/** The outcome of applying or reverting a proposal. */
export type ProposalResult = ProposalSuccess | ProposalFailure;

const MESSAGES: Record<ProposalFailureReason, string> = {
  unknown_tool: 'Unknown proposal tool.',
  invalid_payload: 'The proposal payload is malformed.',
  invalid_document: 'The document cannot be read.',
  target_not_found: 'The proposal names a part of the document that does not exist.',
  subsection_finalized: 'The proposal would change a finalized subsection.',
  invalid_content: 'The proposed content cannot be read.',
  empty_content: 'The proposed content is empty.',
  conflict: 'That part of the document has changed since the proposal was applied.',
};

/** @internal A typed failure with the default message, or `detail` appended. */
export function proposalFailure(
  reason: ProposalFailureReason,
  detail?: string,
  editIndex?: number,
): ProposalFailure {
  const failure: ProposalFailure = {
    ok: false,
    reason,
    message: detail === undefined ? MESSAGES[reason] : `${MESSAGES[reason]} ${detail}`,
  };
  if (editIndex !== undefined) failure.editIndex = editIndex;
  return failure;
}
