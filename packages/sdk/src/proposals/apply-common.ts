import type { DocumentJson } from '../model/document-json.js';
import { normalizeDocument } from '../model/normalize-document.js';
import { getPlanwrightSchema } from '../model/schema.js';
import { type BodyPlace, bodyBlocks, bodyHeading, findBody } from './document-bodies.js';
import type { ProposalContentOptions } from './proposal-content.js';
import {
  type BodySnapshot,
  type ProposalChange,
  type ProposalFailure,
  type ProposalSuccess,
  proposalFailure,
} from './proposal-result.js';

/** Options of `applyFullSubsection` and `applyPartialEdits`. */
export interface ApplyProposalOptions extends ProposalContentOptions {
  /** Let the proposal change finalized subsections (P12); off by default, so nothing changes silently. */
  allowFinalized?: boolean;
}

/** @internal The document normalised (P33), or a typed refusal. */
export function baseDocument(
  document: unknown,
  options: ApplyProposalOptions,
): DocumentJson | ProposalFailure {
  const base = normalizeDocument(document, { generateId: options.generateId });
  return base.ok ? base.doc : proposalFailure('invalid_document', base.error.message);
}

/**
 * @internal Normalises and checks the result (P34) and records how to undo it: the bodies touched,
 * before and after, in the normalised base.
 */
export function finishProposal(
  base: DocumentJson,
  working: DocumentJson,
  touched: BodyPlace[],
  renamed: Set<BodyPlace>,
  changes: ProposalChange[],
  options: ApplyProposalOptions,
): ProposalSuccess | ProposalFailure {
  const final = normalizeDocument(working, { generateId: options.generateId });
  if (!final.ok) return proposalFailure('invalid_content', final.error.message);
  try {
    getPlanwrightSchema().nodeFromJSON(final.doc).check();
  } catch (error) {
    return proposalFailure('invalid_content', error instanceof Error ? error.message : undefined);
  }
  const bodies: BodySnapshot[] = [];
  for (const place of touched) {
    // Indexes shift when a section's own body grows or shrinks: look each body up again by uuid.
    const before = findBody(base, place.sectionUuid, place.subsectionUuid);
    const after = findBody(final.doc, place.sectionUuid, place.subsectionUuid);
    if (before === undefined || after === undefined)
      return proposalFailure('invalid_content', 'A changed body was restructured away.');
    const snapshot: BodySnapshot = {
      sectionUuid: place.sectionUuid,
      subsectionUuid: place.subsectionUuid,
      before: bodyBlocks(base, before),
      after: bodyBlocks(final.doc, after),
    };
    if (renamed.has(place)) {
      const headingBefore = bodyHeading(base, before);
      const headingAfter = bodyHeading(final.doc, after);
      if (headingBefore !== undefined) snapshot.headingBefore = headingBefore;
      if (headingAfter !== undefined) snapshot.headingAfter = headingAfter;
    }
    bodies.push(snapshot);
  }
  return { ok: true, document: final.doc, changes, inverse: { bodies } };
}
