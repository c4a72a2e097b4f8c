import { cleanPastedText, type PastePlan, planPaste } from '@planwright/sdk/model';
import {
  DOMParser,
  Fragment,
  type Node as ProseMirrorNode,
  type ResolvedPos,
  type Schema,
  Slice,
} from '@tiptap/pm/model';
import { Plugin, PluginKey, Selection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { refusesInputOver } from './structure-guard.js';
import { ancestorDepth, isInFinalized, isStructureNode, isTitleNode, uuidOf } from './structure-queries.js';

/**
 * The schema's HTML parser plus `<h5>` and `<h6>` as level-4 headings (spec 001 §9: levels 3–4 in
 * blocks), so a word processor's deep headings stay headings instead of becoming paragraphs (E12).
 */
function clipboardParserFor(schema: Schema): DOMParser {
  const base = DOMParser.fromSchema(schema);
  return new DOMParser(schema, [
    ...base.rules,
    { tag: 'h5', node: 'heading', attrs: { level: 4 } },
    { tag: 'h6', node: 'heading', attrs: { level: 4 } },
  ]);
}

/** Whether pasted content holds sections, subsections or their titles (which the default paste cannot place). */
export function hasStructure(fragment: Fragment): boolean {
  let found = false;
  fragment.descendants((node) => {
    if (found) return false;
    if (isStructureNode(node) || isTitleNode(node)) found = true;
    return !found && !node.isTextblock;
  });
  return found;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a document cannot store.
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]/u;

/** The fragment with unstorable characters removed from its text (E13); the same object when clean. */
function cleanFragment(fragment: Fragment, schema: Schema): Fragment {
  let dirty = false;
  fragment.descendants((node) => {
    if (dirty) return false;
    if (node.isText && UNSTORABLE.test(node.text ?? '')) dirty = true;
    return !dirty;
  });
  if (!dirty) return fragment;
  const nodes: ProseMirrorNode[] = [];
  fragment.forEach((node) => {
    if (node.isText) {
      const text = cleanPastedText(node.text ?? '');
      if (text !== '') nodes.push(schema.text(text, node.marks));
    } else {
      nodes.push(node.copy(cleanFragment(node.content, schema)));
    }
  });
  return Fragment.from(nodes);
}

/** Where the subsections of a paste go: after the current subsection, else first in the section (E12). */
function subsectionInsertPosition($from: ResolvedPos): number | null {
  const subsectionDepth = ancestorDepth($from, 'subsection');
  if (subsectionDepth > 0) return $from.after(subsectionDepth);
  const sectionDepth = ancestorDepth($from, 'section');
  if (sectionDepth < 0) return null;
  const section = $from.node(sectionDepth);
  const start = $from.start(sectionDepth);
  let position = start + section.content.size;
  let found = false;
  section.forEach((child, offset) => {
    if (!found && child.type.name === 'subsection') {
      position = start + offset;
      found = true;
    }
  });
  return position;
}

/**
 * The blocks as a slice that is open where a paragraph (or list) starts or ends it, so their text joins
 * the paragraph at the cursor as any paste does, but closed at a heading, which would otherwise lose
 * its level by merging into the paragraph.
 */
function openSlice(fragment: Fragment): Slice {
  const open = Slice.maxOpen(fragment);
  const openStart = fragment.firstChild?.type.name === 'heading' ? 0 : open.openStart;
  const openEnd = fragment.lastChild?.type.name === 'heading' ? 0 : open.openEnd;
  return new Slice(fragment, openStart, openEnd);
}

/** Applies a body plan at the selection in one transaction (one undo step). */
function applyBodyPlan(view: EditorView, plan: Extract<PastePlan, { kind: 'body' }>): void {
  const { schema, selection } = view.state;
  const tr = view.state.tr;
  // Decided before the blocks go in, and mapped: the selection after a replace may sit elsewhere.
  const subsectionsAt = subsectionInsertPosition(selection.$from);
  const blocks = plan.blocks.map((block) => schema.nodeFromJSON(block));
  if (blocks.length > 0) tr.replaceSelection(openSlice(Fragment.from(blocks)));
  else if (!selection.empty) tr.deleteSelection();
  let end = tr.mapping.map(selection.to, 1);
  if (plan.subsections.length > 0 && subsectionsAt !== null) {
    const position = tr.mapping.map(subsectionsAt, 1);
    const subsections = Fragment.from(plan.subsections.map((subsection) => schema.nodeFromJSON(subsection)));
    tr.insert(position, subsections);
    end = position + subsections.size;
  }
  tr.setSelection(Selection.near(tr.doc.resolve(end), -1));
  view.dispatch(tr.scrollIntoView().setMeta('paste', true).setMeta('uiEvent', 'paste'));
}

/**
 * Paste and drop (SPEC.md E12–E14), applying the SDK's paste rules (M40–M46): into a title only plain
 * text goes; content holding titles or sections is planned by `planPaste` (level 1 → 3, level 2 →
 * new subsections when the section is known, deeper than 4 → 4); anything else takes ProseMirror's own
 * paste, whose parser already drops unknown nodes, `<img>`, `<script>` and links the schema refuses.
 * Nothing pasted into a finalized subsection or over a selection that crosses structure goes in.
 */
export function pastePlugin(schema: Schema, generateId?: () => string): Plugin {
  return new Plugin({
    key: new PluginKey('planwrightPaste'),
    props: {
      clipboardParser: clipboardParserFor(schema),
      transformPasted: (slice, view) => {
        const content = cleanFragment(slice.content, view.state.schema);
        return content === slice.content ? slice : new Slice(content, slice.openStart, slice.openEnd);
      },
      handlePaste: (view, _event, slice) => {
        if (!view.editable) return false;
        const { selection } = view.state;
        if (refusesInputOver(selection)) return true;
        const { $from, $to } = selection;
        const nodes = slice.content.toJSON() as unknown[] | null;
        if (isTitleNode($from.parent)) {
          const plan = planPaste(nodes ?? [], { kind: 'title' });
          if ($from.sameParent($to) && plan.kind === 'title' && plan.text !== '') {
            view.dispatch(view.state.tr.insertText(plan.text).scrollIntoView().setMeta('uiEvent', 'paste'));
          }
          return true;
        }
        if (!hasStructure(slice.content)) return false;
        const sectionDepth = ancestorDepth($from, 'section');
        const sectionUuid = sectionDepth > 0 ? uuidOf($from.node(sectionDepth)) : null;
        const plan = planPaste(nodes ?? [], { kind: 'body', sectionUuid }, generateId ? { generateId } : {});
        if (plan.kind === 'body') applyBodyPlan(view, plan);
        return true;
      },
      handleDrop: (view, event, slice) => {
        if (!view.editable) return false;
        if (hasStructure(slice.content)) return true;
        const target = view.posAtCoords({ left: event.clientX, top: event.clientY });
        if (target === null) return false;
        const $target = view.state.doc.resolve(target.pos);
        // Titles take typed text only; finalized subsections take nothing (E14).
        return isTitleNode($target.parent) || isInFinalized($target);
      },
    },
  });
}
