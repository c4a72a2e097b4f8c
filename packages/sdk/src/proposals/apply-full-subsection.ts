import type { SubsectionHeadingJson } from '../model/document-json.js';
import { cleanPastedText } from '../model/paste-rules.js';
import { type ApplyProposalOptions, baseDocument, finishProposal } from './apply-common.js';
import {
  type BodyPlace,
  bodyBlocks,
  bodyHeading,
  bodyPlaces,
  collectNodeIds,
  findBlock,
  settleNodeIds,
  topNodeIds,
  withBody,
} from './document-bodies.js';
import { proposalContentToBlocks } from './proposal-content.js';
import type { FullSubsectionProposal } from './proposal-payloads.js';
import { type ProposalResult, proposalFailure } from './proposal-result.js';

/**
 * Applies a `propose_full_subsection` proposal (P10–P14): the subsection's body (everything after its
 * heading) becomes the proposed content, and a non-blank `title` renames it. The input is never changed;
 * the answer is the new normalised document with its changes and inverse, or a typed failure.
 */
export function applyFullSubsection(
  document: unknown,
  proposal: FullSubsectionProposal,
  options: ApplyProposalOptions = {},
): ProposalResult {
  const base = baseDocument(document, options);
  if ('ok' in base) return base;
  const place = findSubsection(base, proposal.target);
  if (place === undefined) {
    return proposalFailure(
      'target_not_found',
      `No subsection "${proposal.target.slice(0, 80)}" in this document.`,
    );
  }
  if (place.finalized && options.allowFinalized !== true) {
    return proposalFailure('subsection_finalized', 'Un-finalize the subsection to apply it.');
  }
  const read = proposalContentToBlocks(proposal.content, options);
  if (!read.ok) return read;
  const oldBlocks = bodyBlocks(base, place);
  // The old body's ids are free again: content that echoes them keeps them (P13).
  const taken = new Set<string>();
  for (const other of bodyPlaces(base)) {
    if (other.sectionUuid === place.sectionUuid && other.subsectionUuid === place.subsectionUuid) continue;
    collectNodeIds(bodyBlocks(base, other), taken);
  }
  const blocks = read.blocks.length > 0 ? read.blocks : [emptyParagraph()];
  settleNodeIds(blocks, taken, options.generateId);
  const heading = renamedHeading(bodyHeading(base, place), proposal.title);
  const working = withBody(base, place, blocks, heading);
  const renamed = new Set<BodyPlace>(heading === undefined ? [] : [place]);
  return finishProposal(
    base,
    working,
    [place],
    renamed,
    [
      {
        kind: 'replace_subsection',
        sectionUuid: place.sectionUuid,
        subsectionUuid: place.subsectionUuid,
        renamed: heading !== undefined,
        removedNodeIds: topNodeIds(oldBlocks),
        insertedNodeIds: topNodeIds(blocks),
        range: { from: 0, to: blocks.length },
      },
    ],
    options,
  );
}

/** @internal A subsection by uuid (any case), or the subsection holding the block with that nodeId (P10). */
export function findSubsection(doc: Parameters<typeof bodyPlaces>[0], target: string): BodyPlace | undefined {
  const wanted = target.toLowerCase();
  const byUuid = bodyPlaces(doc).find((place) => place.subsectionUuid === wanted);
  if (byUuid !== undefined) return byUuid;
  const block = findBlock(doc, target);
  if (block === undefined || block.subsectionUuid === null) return undefined;
  return bodyPlaces(doc).find((place) => place.subsectionUuid === block.subsectionUuid);
}

/** @internal The heading with the new title; undefined when there is none or it reads the same (P11). */
export function renamedHeading(
  current: SubsectionHeadingJson | undefined,
  title: string | undefined,
): SubsectionHeadingJson | undefined {
  if (current === undefined || title === undefined) return undefined;
  const text = cleanPastedText(title).replace(/\s+/g, ' ').trim();
  const old = (current.content ?? []).map((node) => node.text).join('');
  if (text === '' || text === old) return undefined;
  return { type: 'subsectionHeading', attrs: { level: 2 }, content: [{ type: 'text', text }] };
}

function emptyParagraph(): { type: 'paragraph'; attrs: { indent: number; nodeId: string | null } } {
  return { type: 'paragraph', attrs: { indent: 0, nodeId: null } };
}
