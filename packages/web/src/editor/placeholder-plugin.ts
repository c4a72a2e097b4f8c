import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { AttrStep } from '@tiptap/pm/transform';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The placeholders of spec 001 §2 "Canvas" (SPEC.md E9). */
export const PLACEHOLDERS = {
  sectionTitle: 'Section title',
  subsectionTitle: 'Subsection title',
  heading: 'Heading',
  subheading: 'Subheading',
  subsectionBody: 'Add subsection content...',
  sectionBody: 'Start writing your section content...',
  cursor: 'Type something...',
  emptyDocument: 'Start typing...',
} as const;

/** The class every placeholder node gets, next to its `data-placeholder` text. */
export const PLACEHOLDER_CLASS = 'is-empty';

const pluginKey = new PluginKey<DecorationSet>('planwrightPlaceholders');

/**
 * The placeholder a node shows when it is empty, from the node and its place alone (not the cursor):
 * empty titles and headings, and the empty paragraph that is a section's or subsection's only body block.
 */
export function placeholderOf(
  node: ProseMirrorNode,
  parent: ProseMirrorNode | null,
  index: number,
): string | null {
  if (node.content.size > 0 || !node.isTextblock) return null;
  switch (node.type.name) {
    case 'sectionHeading':
      return PLACEHOLDERS.sectionTitle;
    case 'subsectionHeading':
      return PLACEHOLDERS.subsectionTitle;
    case 'heading':
      return node.attrs.level === 4 ? PLACEHOLDERS.subheading : PLACEHOLDERS.heading;
    case 'paragraph':
      if (parent === null || index !== 1) return null;
      if (parent.type.name === 'subsection')
        return parent.childCount === 2 ? PLACEHOLDERS.subsectionBody : null;
      if (parent.type.name === 'section') {
        const next = parent.childCount > 2 ? parent.child(2) : null;
        return next === null || next.type.name === 'subsection' ? PLACEHOLDERS.sectionBody : null;
      }
      return null;
    default:
      return null;
  }
}

function decorationFor(node: ProseMirrorNode, pos: number, text: string): Decoration {
  return Decoration.node(
    pos,
    pos + node.nodeSize,
    { class: PLACEHOLDER_CLASS, 'data-placeholder': text },
    { placeholder: text },
  );
}

/** Every placeholder of a document: one walk, done when the editor starts. */
function initialSet(doc: ProseMirrorNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos, parent, index) => {
    if (!node.isTextblock) return true;
    const text = placeholderOf(node, parent, index);
    if (text !== null) decorations.push(decorationFor(node, pos, text));
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

/** The ranges of the new document that a transaction touched. */
function changedRanges(tr: Transaction): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  tr.steps.forEach((step, index) => {
    const map = tr.mapping.maps[index];
    if (map === undefined) return;
    for (const range of ranges) {
      range[0] = map.map(range[0], -1);
      range[1] = map.map(range[1], 1);
    }
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      ranges.push([newStart, newEnd]);
    });
    // Attribute steps have an empty map but may change a heading's level.
    if (step instanceof AttrStep) ranges.push([step.pos, step.pos + 1]);
  });
  return ranges;
}

/**
 * Brings the placeholders up to date after a transaction without walking the document: the old set is
 * mapped, then only the textblocks in the changed ranges are looked at again, plus the first body block
 * of every section and subsection around them (whose "only block" status a change next to it decides).
 */
function updateSet(set: DecorationSet, tr: Transaction): DecorationSet {
  const { doc } = tr;
  let next = set.map(tr.mapping, doc);
  const remove: Decoration[] = [];
  const add: Decoration[] = [];
  const seen = new Set<number>();
  const recheck = (node: ProseMirrorNode, pos: number, parent: ProseMirrorNode | null, index: number) => {
    if (seen.has(pos)) return;
    seen.add(pos);
    for (const old of next.find(pos, pos + node.nodeSize)) {
      if (old.from === pos && old.to === pos + node.nodeSize) remove.push(old);
    }
    const text = placeholderOf(node, parent, index);
    if (text !== null) add.push(decorationFor(node, pos, text));
  };
  for (const [start, end] of changedRanges(tr)) {
    const from = Math.max(0, start - 1);
    const to = Math.min(doc.content.size, end + 1);
    doc.nodesBetween(from, to, (node, pos, parent, index) => {
      if (node.isTextblock) {
        recheck(node, pos, parent, index);
        return false;
      }
      if ((node.type.name === 'section' || node.type.name === 'subsection') && node.childCount > 1) {
        const title = node.child(0);
        recheck(node.child(1), pos + 1 + title.nodeSize, node, 1);
      }
      return true;
    });
  }
  if (remove.length > 0) next = next.remove(remove);
  // DecorationSet.add checks node decorations with a forward-only cursor: they must come in order.
  if (add.length > 0)
    next = next.add(
      doc,
      add.sort((a, b) => a.from - b.from),
    );
  return next;
}

/** Whether the document is as empty as it gets: one untitled section holding one empty paragraph. */
function isEmptyDocument(doc: ProseMirrorNode): boolean {
  if (doc.childCount !== 1) return false;
  const section = doc.child(0);
  if (section.childCount !== 2 || section.child(0).content.size > 0) return false;
  const body = section.child(1);
  return body.type.name === 'paragraph' && body.content.size === 0;
}

/** The placeholders that depend on the whole state: the empty document and the paragraph with the cursor. */
function decorationsOf(state: EditorState, editable: boolean): DecorationSet {
  const set = pluginKey.getState(state) ?? DecorationSet.empty;
  const { doc, selection } = state;
  if (isEmptyDocument(doc)) {
    const section = doc.child(0);
    const title = section.child(0);
    const body = section.child(1);
    return DecorationSet.create(doc, [
      decorationFor(title, 1, PLACEHOLDERS.sectionTitle),
      decorationFor(body, 1 + title.nodeSize, PLACEHOLDERS.emptyDocument),
    ]);
  }
  const { $head } = selection;
  const parent = $head.parent;
  if (!editable || !selection.empty || parent.type.name !== 'paragraph' || parent.content.size > 0)
    return set;
  const pos = $head.before();
  // A structural placeholder says more than "Type something...", so it stays.
  if (set.find(pos, pos + parent.nodeSize).some((decoration) => decoration.from === pos)) return set;
  return set.add(doc, [decorationFor(parent, pos, PLACEHOLDERS.cursor)]);
}

/**
 * The placeholders of spec 001 §2 as node decorations (`class="is-empty"` and `data-placeholder`, shown
 * by CSS `::before`). The structural ones are kept in plugin state and updated incrementally (E9), so a
 * keystroke costs the changed textblocks, not a walk over the document's thousands of blocks.
 */
export function placeholderPlugin(isEditable: () => boolean): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: pluginKey,
    state: {
      init: (_config, state) => initialSet(state.doc),
      apply: (tr, set) => (tr.docChanged ? updateSet(set, tr) : set),
    },
    props: {
      decorations: (state) => decorationsOf(state, isEditable()),
    },
  });
}
