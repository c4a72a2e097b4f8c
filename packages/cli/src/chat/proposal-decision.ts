import {
  type ChatProposal,
  type DocumentChanges,
  type DocumentDetail,
  RevisionConflictError,
  type WriteOptions,
} from '@planwright/sdk';
import { parseHtmlInNode } from '@planwright/sdk/formats/node';
import { applyProposal, type ProposalReview, reviewProposal } from '@planwright/sdk/proposals';

/** Node has no `DOMParser`: proposals in the `html` format are read with the SDK's Node parser (T25). */
const PROPOSAL_OPTIONS = { parseHtml: parseHtmlInNode };

/**
 * The document calls a proposal decision needs, so the screen and the script share one path (T20) and tests
 * can hand in a server of their own.
 */
export interface DocumentAccess {
  /** The document as the server has it now. */
  load(): Promise<DocumentDetail>;
  /** `documents.update(uuid, changes, { ifMatch })`; throws `RevisionConflictError` on a 412. */
  save(changes: DocumentChanges, options: WriteOptions): Promise<DocumentDetail>;
}

/** A proposal read against the document it will be applied to (T21). */
export interface ReviewedProposal {
  readonly proposal: ChatProposal;
  /** The document the review was made on; accepting applies to it and saves with its revision. */
  readonly document: DocumentDetail;
  readonly review: ProposalReview;
}

/** Reads `proposal` against `document` (T21); a document without content reviews as unreadable. */
export function reviewAgainst(document: DocumentDetail, proposal: ChatProposal): ReviewedProposal {
  const review: ProposalReview =
    document.content === null
      ? { ok: false, reason: 'invalid_payload', message: 'The document has no content to change.' }
      : reviewProposal(document.content, proposal.toolName, proposal.payload, PROPOSAL_OPTIONS);
  return { proposal, document, review };
}

/** What accepting a proposal came to (T22–T24). */
export type AcceptOutcome =
  | {
      readonly kind: 'applied';
      /** The partial edits applied (`[0]` for a full subsection). */
      readonly edits: readonly number[];
      readonly document: DocumentDetail;
    }
  /** The server holds a newer revision than the one reviewed: nothing was written (T23). */
  | { readonly kind: 'conflict'; readonly message: string; readonly error: RevisionConflictError }
  /** The proposal does not apply to the reviewed document: nothing was written (T24). */
  | { readonly kind: 'not_applied'; readonly reason: string; readonly message: string };

/**
 * Applies the accepted edits of a reviewed proposal to the reviewed document, saves it with `If-Match` on
 * that document's revision, and only then tells the chat it was accepted (T22). A 412 is reported, never
 * retried or overwritten (T23). `edits` names the partial edits to apply; left out, all of them.
 */
export async function acceptReviewed(
  reviewed: ReviewedProposal,
  access: DocumentAccess,
  decide: (toolId: string) => boolean,
  edits?: readonly number[],
): Promise<AcceptOutcome> {
  const { document, proposal } = reviewed;
  if (document.content === null) {
    return {
      kind: 'not_applied',
      reason: 'invalid_document',
      message: 'The document has no content to change.',
    };
  }
  const result = applyProposal(
    document.content,
    proposal.toolName,
    proposal.payload,
    edits === undefined ? PROPOSAL_OPTIONS : { ...PROPOSAL_OPTIONS, accept: edits },
  );
  if (!result.ok) return { kind: 'not_applied', reason: result.reason, message: result.message };
  let saved: DocumentDetail;
  try {
    saved = await access.save(
      { content: result.document },
      document.revision === null ? {} : { ifMatch: document.revision },
    );
  } catch (error) {
    if (RevisionConflictError.isInstance(error)) {
      return {
        kind: 'conflict',
        message: 'The document was changed since this proposal was reviewed, so nothing was saved.',
        error,
      };
    }
    throw error;
  }
  decide(proposal.toolId);
  return { kind: 'applied', edits: result.applied ?? [0], document: saved };
}
