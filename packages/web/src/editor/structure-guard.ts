import { isHistoryTransaction } from '@tiptap/pm/history';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, type Selection, type Transaction } from '@tiptap/pm/state';
import {
  AddMarkStep,
  AddNodeMarkStep,
  AttrStep,
  DocAttrStep,
  RemoveMarkStep,
  RemoveNodeMarkStep,
  ReplaceStep,
  type Step,
} from '@tiptap/pm/transform';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import { STRUCTURE_META } from './editor-meta.js';
import { isInFinalized, isStructureNode, isTitleNode, uuidOf } from './structure-queries.js';

/**
 * The structure guard (SPEC.md E1–E4): a `filterTransaction` that refuses any transaction that removes or
 * duplicates a section or subsection, changes a title from outside it, or changes anything inside a finalized
 * subsection, unless it carries {@link STRUCTURE_META} (a load). Typing, the bulk of all transactions,
 * is recognised from its steps alone (a replace inside one textblock) and costs O(depth); only
 * transactions that cross block boundaries compare the structure, which walks sections and their
 * direct children, never the blocks inside quotes and lists.
 */
export function structureGuardPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('planwrightStructureGuard'),
    filterTransaction: (tr, state) => allowsTransaction(tr, state),
    props: {
      handleDOMEvents: {
        // The browser edits the DOM itself for typing over a selection; if the guard then refused the
        // transaction, the DOM would be left out of step with the document. So refuse before it starts.
        beforeinput: (view, event) => {
          if (!view.editable || !refusesInputOver(view.state.selection)) return false;
          event.preventDefault();
          return true;
        },
      },
    },
  });
}

/**
 * Whether the guard lets a transaction through (E1–E4). Finalized subsections are checked for every
 * transaction, undo and redo included; the structure for all but loads, undo and redo.
 */
export function allowsTransaction(tr: Transaction, state: EditorState): boolean {
  if (!tr.docChanged || tr.getMeta(STRUCTURE_META) === true) return true;
  // E5: a live plan's change that is already in its Yjs document (someone else's, the server's, a Yjs
  // undo) is rendered as it is: refusing it here would part the editor from the document.
  if ((tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin) return true;
  let inlineOnly = true;
  for (let index = 0; index < tr.steps.length; index++) {
    const step = tr.steps[index] as Step;
    const doc = tr.docs[index] as ProseMirrorNode;
    if (touchesFinalized(step, doc)) return false;
    if (inlineOnly && !isInlineStep(step, doc)) inlineOnly = false;
  }
  // Undo and redo only go back to states the guard let through, e.g. before a paste that made subsections.
  return inlineOnly || isHistoryTransaction(tr) || structureKept(state.doc, tr.doc);
}

/**
 * Whether a step changes nothing but text and marks inside one textblock, so it cannot change the
 * structure (typing, deleting a character, toggling a mark, setting a block attribute).
 */
export function isInlineStep(step: Step, doc: ProseMirrorNode): boolean {
  if (step instanceof AddMarkStep || step instanceof RemoveMarkStep) return true;
  if (step instanceof AddNodeMarkStep || step instanceof RemoveNodeMarkStep) return true;
  if (step instanceof AttrStep) {
    const node = doc.nodeAt(step.pos);
    return node === null || !isStructureNode(node) || step.attr === 'finalized';
  }
  if (!(step instanceof ReplaceStep)) return false;
  const { slice } = step;
  if (slice.openStart !== 0 || slice.openEnd !== 0) return false;
  let inline = true;
  slice.content.forEach((node) => {
    if (!node.isInline) inline = false;
  });
  if (!inline) return false;
  const $from = doc.resolve(step.from);
  return $from.parent.isTextblock && (step.from === step.to || $from.sameParent(doc.resolve(step.to)));
}

/** The positions a step reads or writes in the document it applies to (an empty range for some). */
function stepRange(step: Step): { from: number; to: number } | null {
  if (step instanceof ReplaceStep || step instanceof AddMarkStep || step instanceof RemoveMarkStep) {
    return { from: step.from, to: step.to };
  }
  if (step instanceof AttrStep || step instanceof AddNodeMarkStep || step instanceof RemoveNodeMarkStep) {
    return { from: step.pos, to: step.pos };
  }
  if (step instanceof DocAttrStep) return null;
  // ReplaceAroundStep and anything else: the whole range its map touches.
  let range: { from: number; to: number } | null = null;
  step.getMap().forEach((oldStart, oldEnd) => {
    range =
      range === null ? { from: oldStart, to: oldEnd } : { from: range.from, to: Math.max(range.to, oldEnd) };
  });
  return range;
}

/** Whether a step changes something inside a finalized subsection (E3). */
export function touchesFinalized(step: Step, doc: ProseMirrorNode): boolean {
  if (step instanceof AttrStep) {
    // The finalized flag itself (Finalize, Continue editing, their undo) and nodeId bookkeeping may change.
    if (step.attr === 'finalized' || step.attr === 'nodeId') return false;
    const node = doc.nodeAt(step.pos);
    if (node?.type.name === 'subsection' && node.attrs.finalized === true) return true;
  }
  const range = stepRange(step);
  if (range === null) return false;
  const $from = doc.resolve(range.from);
  if (isInFinalized($from)) return true;
  if (range.to === range.from) return false;
  const $to = doc.resolve(range.to);
  if (isInFinalized($to)) return true;
  if ($from.sameParent($to) && $from.parent.isTextblock) return false;
  // A range across blocks may hold whole finalized subsections: look at sections and their children only.
  let found = false;
  doc.nodesBetween(range.from, range.to, (node) => {
    if (found) return false;
    if (node.type.name === 'subsection') {
      if (node.attrs.finalized === true) found = true;
      return false;
    }
    return node.type.name === 'section';
  });
  return found;
}

interface StructureEntry {
  count: number;
  /** The titles of the holders of this uuid, in document order. */
  titles: string;
}

/** Sections and subsections by type and uuid, with their titles. */
function structureOf(doc: ProseMirrorNode): Map<string, StructureEntry> {
  const entries = new Map<string, StructureEntry>();
  const add = (node: ProseMirrorNode) => {
    const key = `${node.type.name}:${uuidOf(node) ?? ''}`;
    const title = node.firstChild?.textContent ?? '';
    const entry = entries.get(key);
    if (entry === undefined) entries.set(key, { count: 1, titles: title });
    else entries.set(key, { count: entry.count + 1, titles: `${entry.titles}\n${title}` });
  };
  doc.forEach((section) => {
    if (section.type.name !== 'section') return;
    add(section);
    section.forEach((child) => {
      if (child.type.name === 'subsection') add(child);
    });
  });
  return entries;
}

/**
 * E1, E2: every section and subsection is still there exactly as often as before (none removed, none
 * duplicated by a split), new ones are unique, and no title changed. Titles change by edits inside
 * them, which never get here (they are inline steps); an edit across blocks that changes a title would
 * merge body text into it or take it away.
 */
export function structureKept(before: ProseMirrorNode, after: ProseMirrorNode): boolean {
  const old = structureOf(before);
  const next = structureOf(after);
  for (const [key, entry] of old) {
    const now = next.get(key);
    if (now === undefined || now.count !== entry.count || now.titles !== entry.titles) return false;
  }
  for (const [key, entry] of next) {
    if (!old.has(key) && entry.count !== 1) return false;
  }
  return true;
}

/**
 * Whether a selection spans more than one title or body: from a title into a body, or across a section
 * or subsection boundary. Deleting or typing over it would merge or remove structure (E2).
 */
export function crossesStructure(selection: Selection): boolean {
  const { $from, $to } = selection;
  if ($from.sameParent($to) && $from.parent.isTextblock) return false;
  const shared = $from.sharedDepth($to.pos);
  for (const $pos of [$from, $to]) {
    for (let depth = shared + 1; depth <= $pos.depth; depth++) {
      const node = $pos.node(depth);
      if (isStructureNode(node) || isTitleNode(node)) return true;
    }
  }
  // Whole sections, subsections or titles between the two ends (a node selection of a subsection too).
  const parent = $from.node(shared);
  for (let index = $from.index(shared); index < $to.indexAfter(shared); index++) {
    const child = parent.child(index);
    if (isStructureNode(child) || isTitleNode(child)) return true;
  }
  return false;
}

/** Whether typing or deleting over this selection must be refused before the browser acts (E2, E3). */
export function refusesInputOver(selection: Selection): boolean {
  if (isInFinalized(selection.$from) || isInFinalized(selection.$to)) return true;
  return !selection.empty && crossesStructure(selection);
}
