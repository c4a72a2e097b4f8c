import { diffWordsWithSpace } from 'diff';
import { blocksMarkdown } from '../formats/markdown-export.js';
import type { BlockJson, DocumentJson, SectionJson } from '../model/document-json.js';
import { type ApplyProposalOptions, baseDocument } from './apply-common.js';
import { applyFullSubsection, findSubsection, renamedHeading } from './apply-full-subsection.js';
import { applyPartialEdits } from './apply-partial-edits.js';
import { type BodyPlace, bodyBlocks, bodyHeading, findBlock, nodeAt } from './document-bodies.js';
import { proposalContentToBlocks } from './proposal-content.js';
import {
  type FullSubsectionProposal,
  type PartialEditsProposal,
  type ProposalContent,
  type ProposalToolName,
  parseProposal,
} from './proposal-payloads.js';
import type { ProposalFailureReason, ProposalResult } from './proposal-result.js';

/** One run of a word diff: text kept, inserted or deleted (P51). */
export interface WordDiffPart {
  readonly kind: 'equal' | 'insert' | 'delete';
  readonly text: string;
}

/** Past this many characters (both sides together) a diff is not worth its time: all out, all in (P51). */
export const MAX_WORD_DIFF_LENGTH = 200_000;

/** Most edit operations jsdiff may look for before giving up (P51): keeps hostile inputs fast. */
const MAX_WORD_DIFF_EDITS = 1_000;

/**
 * Word-level diff (jsdiff `diffWordsWithSpace`), adjacent parts of one kind merged (P51). Huge or very
 * different inputs degrade to delete-all/insert-all, so a review never stalls.
 */
export function wordDiff(before: string, after: string): WordDiffPart[] {
  if (before === after) return before === '' ? [] : [{ kind: 'equal', text: before }];
  const changes =
    before.length + after.length > MAX_WORD_DIFF_LENGTH
      ? undefined
      : diffWordsWithSpace(before, after, { maxEditLength: MAX_WORD_DIFF_EDITS });
  const parts: WordDiffPart[] = [];
  const push = (kind: WordDiffPart['kind'], text: string): void => {
    if (text === '') return;
    const last = parts.at(-1);
    if (last?.kind === kind) parts[parts.length - 1] = { kind, text: last.text + text };
    else parts.push({ kind, text });
  };
  if (changes === undefined) {
    push('delete', before);
    push('insert', after);
    return parts;
  }
  for (const change of changes) {
    push(change.added ? 'insert' : change.removed ? 'delete' : 'equal', change.value);
  }
  return parts;
}

/** One change of a proposal as the user reviews it (P52). */
export interface ProposalReviewItem {
  /** The edit's index in the proposal; 0 for a full-subsection proposal. */
  readonly editIndex: number;
  readonly kind: 'replace_subsection' | 'replace' | 'insert_after' | 'insert_before' | 'delete';
  readonly sectionUuid: string | null;
  readonly sectionTitle: string | null;
  readonly subsectionUuid: string | null;
  readonly subsectionTitle: string | null;
  /** The partial edit's `reason`. */
  readonly reason: string | null;
  /** Full subsection: the new title when it changes. */
  readonly renamedTo: string | null;
  /** Markdown of what is there now ('' for inserts). */
  readonly before: string;
  /** Markdown of what it becomes ('' for delete). */
  readonly after: string;
  readonly diff: readonly WordDiffPart[];
  /**
   * What the item changes (P56): the subsection's uuid for `replace_subsection`, else the edit's target
   * `nodeId` (for inserts, the block it goes next to).
   */
  readonly target: string;
  /** The proposed blocks, as they would land ([] for `delete` or content that cannot be read) (P56). */
  readonly blocks: readonly BlockJson[];
  /** null when this item applies to the given document; else why not (target gone, finalized, bad content). */
  readonly problem: { readonly reason: ProposalFailureReason; readonly message: string } | null;
}

/** A proposal read for review (P50), or why it cannot be read at all. */
export type ProposalReview =
  | {
      readonly ok: true;
      readonly toolName: ProposalToolName;
      readonly items: readonly ProposalReviewItem[];
      /** every item applies */
      readonly applicable: boolean;
    }
  | { readonly ok: false; readonly reason: 'unknown_tool' | 'invalid_payload'; readonly message: string };

/**
 * Reads a tool proposal against `document` for the user to review (P50–P55): one item per change with
 * the Markdown before and after, their word diff, and whether the real apply would succeed. Never
 * throws; the document is not changed. Applying stays `applyProposal` / `applyPartialEdits`.
 */
export function reviewProposal(
  document: DocumentJson,
  toolName: string,
  payload: unknown,
  options: ApplyProposalOptions = {},
): ProposalReview {
  const parsed = parseProposal(toolName, payload);
  if (!parsed.ok) return { ok: false, reason: parsed.reason, message: parsed.message };
  const base = baseDocument(document, options);
  const doc = 'ok' in base ? undefined : base;
  const items =
    parsed.proposal.tool === 'propose_full_subsection'
      ? [reviewFullSubsection(document, doc, parsed.proposal, options)]
      : reviewPartialEdits(document, doc, parsed.proposal, options);
  return {
    ok: true,
    toolName: parsed.proposal.tool,
    items,
    applicable: items.every((item) => item.problem === null),
  };
}

function reviewFullSubsection(
  document: DocumentJson,
  doc: DocumentJson | undefined,
  proposal: FullSubsectionProposal,
  options: ApplyProposalOptions,
): ProposalReviewItem {
  const place = doc === undefined ? undefined : findSubsection(doc, proposal.target);
  const before = doc === undefined || place === undefined ? '' : blocksMarkdown(bodyBlocks(doc, place));
  const heading = doc === undefined || place === undefined ? undefined : bodyHeading(doc, place);
  const renamed = renamedHeading(heading, proposal.title);
  const blocks = contentBlocks(proposal.content, options);
  return item(
    0,
    'replace_subsection',
    doc,
    place,
    null,
    renamed === undefined ? null : headingText(renamed.content),
    before,
    { target: place?.subsectionUuid ?? proposal.target, blocks },
    applyFullSubsection(document, proposal, options),
  );
}

function reviewPartialEdits(
  document: DocumentJson,
  doc: DocumentJson | undefined,
  proposal: PartialEditsProposal,
  options: ApplyProposalOptions,
): ProposalReviewItem[] {
  // Each edit is read against the document the edits before it (those that apply) leave, as applying them
  // together does (P20): an edit may target a block an earlier one inserts (P53).
  let current = doc;
  return proposal.edits.map((edit, index) => {
    const place = current === undefined ? undefined : findBlock(current, edit.targetNodeId);
    const target =
      current === undefined || place === undefined
        ? undefined
        : nodeAt(bodyBlocks(current, place), place.path);
    const replaced = edit.mode === 'replace' || edit.mode === 'delete';
    const result = applyPartialEdits(current ?? document, proposal, { ...options, accept: [index] });
    const blocks =
      edit.mode === 'delete' || edit.content === undefined ? [] : contentBlocks(edit.content, options);
    const reviewed = item(
      index,
      edit.mode,
      current,
      place,
      edit.reason ?? null,
      null,
      replaced && target !== undefined ? blockMarkdown(target) : '',
      { target: edit.targetNodeId, blocks },
      result,
    );
    if (result.ok) current = result.document;
    return reviewed;
  });
}

function item(
  editIndex: number,
  kind: ProposalReviewItem['kind'],
  doc: DocumentJson | undefined,
  place: BodyPlace | undefined,
  reason: string | null,
  renamedTo: string | null,
  before: string,
  proposed: { target: string; blocks: BlockJson[] },
  result: ProposalResult,
): ProposalReviewItem {
  const after = proposed.blocks.length === 0 ? '' : blocksMarkdown(proposed.blocks);
  const section = doc === undefined || place === undefined ? undefined : doc.content[place.sectionIndex];
  const subsection =
    doc === undefined || place === undefined || place.childIndex === null
      ? undefined
      : bodyHeading(doc, place);
  return {
    editIndex,
    kind,
    sectionUuid: place?.sectionUuid ?? null,
    sectionTitle: section === undefined ? null : sectionTitle(section),
    subsectionUuid: place?.subsectionUuid ?? null,
    subsectionTitle: subsection === undefined ? null : headingText(subsection.content),
    reason,
    renamedTo,
    before,
    after,
    diff: wordDiff(before, after),
    target: proposed.target,
    blocks: proposed.blocks,
    problem: result.ok ? null : { reason: result.reason, message: result.message },
  };
}

/** Proposed content as the blocks it lands as; [] when it cannot be read (its `problem` says why). */
function contentBlocks(content: ProposalContent, options: ApplyProposalOptions): BlockJson[] {
  const read = proposalContentToBlocks(content, options);
  return read.ok ? read.blocks : [];
}

/** One block's Markdown; a list item is shown as the one-item list it sits in. */
function blockMarkdown(node: unknown): string {
  const block = node as BlockJson | { type: 'listItem' };
  if (block.type === 'listItem') {
    return blocksMarkdown([{ type: 'bulletList', content: [block] } as unknown as BlockJson]);
  }
  return blocksMarkdown([block]);
}

function sectionTitle(section: SectionJson): string {
  return headingText(section.content[0].content);
}

function headingText(content: readonly { text?: unknown }[] | undefined): string {
  return (content ?? []).map((node) => (typeof node.text === 'string' ? node.text : '')).join('');
}
