import type { BlockJson } from '../model/document-json.js';
import { type ApplyProposalOptions, baseDocument, finishProposal } from './apply-common.js';
import {
  type BodyPlace,
  bodyBlocks,
  bodyPlaces,
  collectNodeIds,
  findBlock,
  nodeAt,
  settleNodeIds,
  topNodeIds,
  withBody,
} from './document-bodies.js';
import { proposalContentToBlocks } from './proposal-content.js';
import type { PartialEdit, PartialEditsProposal } from './proposal-payloads.js';
import { type ProposalChange, type ProposalResult, proposalFailure } from './proposal-result.js';

/** Options of {@link applyPartialEdits}. */
export interface ApplyPartialEditsOptions extends ApplyProposalOptions {
  /**
   * Which edits the user accepted (P21): a predicate, or the list of accepted indexes. Left out, every
   * edit is applied.
   */
  accept?: ((edit: PartialEdit, index: number) => boolean) | readonly number[];
}

interface Node {
  attrs?: { nodeId?: unknown };
  content?: unknown[];
}

/**
 * Applies the accepted edits of a `propose_partial_edits` proposal, in order, each on the result of the
 * ones before (P20–P25). All of them apply, or none: the first failing edit is reported with its
 * `editIndex` and the document is left as it was.
 */
export function applyPartialEdits(
  document: unknown,
  proposal: PartialEditsProposal,
  options: ApplyPartialEditsOptions = {},
): ProposalResult {
  const base = baseDocument(document, options);
  if ('ok' in base) return base;
  const accepted = acceptance(options.accept);
  let working = base;
  const touched: BodyPlace[] = [];
  const changes: ProposalChange[] = [];
  const applied: number[] = [];
  const rejected: number[] = [];
  for (const [index, edit] of proposal.edits.entries()) {
    if (!accepted(edit, index)) {
      rejected.push(index);
      continue;
    }
    const place = findBlock(working, edit.targetNodeId);
    if (place === undefined) {
      return proposalFailure(
        'target_not_found',
        `No block "${edit.targetNodeId.slice(0, 80)}" in this document.`,
        index,
      );
    }
    if (place.finalized && options.allowFinalized !== true) {
      return proposalFailure('subsection_finalized', 'Un-finalize the subsection to apply this edit.', index);
    }
    let blocks: BlockJson[] = [];
    if (edit.mode !== 'delete') {
      if (edit.content === undefined) return proposalFailure('empty_content', undefined, index);
      const read = proposalContentToBlocks(edit.content, options);
      if (!read.ok) return { ...read, editIndex: index };
      if (read.blocks.length === 0) return proposalFailure('empty_content', undefined, index);
      blocks = read.blocks;
    }
    const body = bodyBlocks(working, place);
    const target = nodeAt(body, place.path);
    const removed = edit.mode === 'replace' || edit.mode === 'delete' ? [target] : [];
    const taken = new Set<string>();
    for (const other of bodyPlaces(working)) collectNodeIds(bodyBlocks(working, other), taken);
    for (const id of collectNodeIds(removed, new Set())) taken.delete(id);
    settleNodeIds(blocks, taken, options.generateId);
    const nextBody = spliced(body, place.path, edit.mode, blocks);
    working = withBody(working, place, nextBody);
    if (!touched.some((other) => samePlace(other, place))) touched.push(place);
    const top = place.path[0] as number;
    const inserted = place.path.length === 1 ? blocks.length : 1;
    const from = edit.mode === 'insert_after' && place.path.length === 1 ? top + 1 : top;
    changes.push({
      kind: edit.mode,
      editIndex: index,
      sectionUuid: place.sectionUuid,
      subsectionUuid: place.subsectionUuid,
      removedNodeIds: topNodeIds(removed as BlockJson[]),
      insertedNodeIds: topNodeIds(blocks),
      range: { from, to: edit.mode === 'delete' && place.path.length === 1 ? from : from + inserted },
    });
    applied.push(index);
  }
  if (applied.length === 0) {
    return { ok: true, document: base, changes: [], inverse: { bodies: [] }, applied, rejected };
  }
  const result = finishProposal(base, working, touched, new Set(), changes, options);
  return result.ok ? { ...result, applied, rejected } : result;
}

function acceptance(
  accept: ApplyPartialEditsOptions['accept'],
): (edit: PartialEdit, index: number) => boolean {
  if (accept === undefined) return () => true;
  if (typeof accept === 'function') return accept;
  const indexes = new Set(accept);
  return (_edit, index) => indexes.has(index);
}

function samePlace(a: BodyPlace, b: BodyPlace): boolean {
  return a.sectionUuid === b.sectionUuid && a.subsectionUuid === b.subsectionUuid;
}

/** A copy of the body with the edit made at `path` (copying only the nodes on the path). */
function spliced(
  body: BlockJson[],
  path: readonly number[],
  mode: PartialEdit['mode'],
  blocks: BlockJson[],
): BlockJson[] {
  const spliceInto = (list: readonly unknown[], at: number): unknown[] => {
    const next = [...list];
    if (mode === 'replace') next.splice(at, 1, ...blocks);
    else if (mode === 'delete') next.splice(at, 1);
    else if (mode === 'insert_before') next.splice(at, 0, ...blocks);
    else next.splice(at + 1, 0, ...blocks);
    return next;
  };
  const descend = (list: readonly unknown[], depth: number): unknown[] => {
    const at = path[depth] as number;
    if (depth === path.length - 1) return spliceInto(list, at);
    const node = list[at] as Node;
    const copy = { ...node, content: descend(node.content ?? [], depth + 1) };
    return list.map((child, index) => (index === at ? copy : child));
  };
  // A nested edit may leave a list or quote out of shape; the final normalisation repairs it (P23).
  return descend(body, 0) as BlockJson[];
}
