import type { DocumentJson } from '../model/document-json.js';
import { jsonEqual } from '../model/json-equal.js';
import { normalizeDocument } from '../model/normalize-document.js';
import { bodyBlocks, bodyHeading, findBody, withBody } from './document-bodies.js';
import { type ProposalInverse, type ProposalResult, proposalFailure } from './proposal-result.js';

/**
 * Undoes an applied proposal (P32): every body it changed gets back its old blocks (and heading), ids
 * included. The document may have changed elsewhere since; if a changed body no longer reads as the
 * proposal left it, nothing is reverted (`conflict`).
 */
export function revertProposal(document: DocumentJson, inverse: ProposalInverse): ProposalResult {
  let working = document;
  for (const snapshot of inverse.bodies) {
    const place = findBody(working, snapshot.sectionUuid, snapshot.subsectionUuid);
    if (place === undefined) return proposalFailure('conflict', 'The changed section or subsection is gone.');
    if (!jsonEqual(bodyBlocks(working, place), snapshot.after)) return proposalFailure('conflict');
    if (
      snapshot.headingAfter !== undefined &&
      !jsonEqual(bodyHeading(working, place), snapshot.headingAfter)
    ) {
      return proposalFailure('conflict', 'The subsection was renamed since.');
    }
    working = withBody(working, place, structuredClone(snapshot.before), snapshot.headingBefore);
  }
  // Blocks written since may now share an id with a restored one: refuse rather than renumber (P32).
  const check = normalizeDocument(working);
  if (!check.ok || check.report.changed)
    return proposalFailure('conflict', 'The restored blocks clash with newer ones.');
  return { ok: true, document: check.doc, changes: [], inverse: { bodies: [] } };
}
