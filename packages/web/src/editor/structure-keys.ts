import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { crossesStructure } from './structure-guard.js';
import { isInFinalized, isStructureNode, isTitleNode } from './structure-queries.js';

/**
 * Keys around titles (SPEC.md E5–E7). The guard would refuse what the default keymap does there (merge a
 * title into the block before it, split a title, select a whole subsection with Delete), so these run
 * first and do the expected thing instead, or nothing. Each returns true when it handled the key.
 */

/** Enter (and Shift-Enter, Mod-Enter) in a title: the cursor goes to the body, never a split (E5). */
export function enterInTitle(editor: Editor): boolean {
  const { selection } = editor.state;
  const { $from, $to } = selection;
  if (!isTitleNode($from.parent)) return false;
  if (!$from.sameParent($to)) return crossesStructure(selection);
  const container = $from.node(-1);
  const bodyStart = $from.after();
  const first = container.childCount > 1 ? container.child(1) : null;
  const finalized = isInFinalized($from);
  return editor.commands.command(({ tr, dispatch }) => {
    if (first?.isTextblock) {
      if (dispatch) tr.setSelection(TextSelection.create(tr.doc, bodyStart + 1)).scrollIntoView();
      return true;
    }
    // Nothing to type on: an empty paragraph first, unless the subsection is finalized (E3).
    if (finalized) return true;
    const paragraph = editor.schema.nodes.paragraph?.create();
    if (paragraph === undefined) return false;
    if (dispatch) {
      tr.insert(bodyStart, paragraph);
      tr.setSelection(TextSelection.create(tr.doc, bodyStart + 1)).scrollIntoView();
    }
    return true;
  });
}

/**
 * Enter over a selection that crosses structure (a heading in one subsection to the title of the next):
 * nothing, as for Backspace and Delete (E5). The default would delete and split across the titles, which
 * the schema cannot hold.
 */
export function enterOverStructure(editor: Editor): boolean {
  const { selection } = editor.state;
  return !selection.empty && crossesStructure(selection);
}

/**
 * Enter in an empty paragraph directly in a section or subsection body makes a new paragraph. (The
 * default would try to lift it out of the subsection, which splits the subsection in two.)
 */
export function enterInEmptyBodyParagraph(editor: Editor): boolean {
  const { selection } = editor.state;
  const { $head } = selection;
  if (!selection.empty || $head.parent.type.name !== 'paragraph' || $head.parent.content.size > 0)
    return false;
  if (!isStructureNode($head.node(-1))) return false;
  return editor.commands.splitBlock();
}

/**
 * Backspace (E6): at the start of a title, nothing. At the start of the block right after a title, the
 * cursor moves to the end of the title; an empty paragraph there is removed when other body blocks
 * follow it. Over a selection that crosses structure, nothing.
 */
export function backspaceAtStructure(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!selection.empty) return crossesStructure(selection);
  const { $head } = selection;
  if ($head.parentOffset > 0) return false;
  if (isTitleNode($head.parent)) return true;
  if ($head.depth < 2) return false;
  const container = $head.node(-1);
  if (!isStructureNode(container) || $head.index(-1) !== 1) return false;
  const block = $head.parent;
  const titleEnd = $head.before() - 1;
  const next = container.childCount > 2 ? container.child(2) : null;
  const removable =
    block.type.name === 'paragraph' && block.content.size === 0 && next !== null && !isStructureNode(next);
  return editor.commands.command(({ tr, dispatch }) => {
    if (dispatch) {
      if (removable && !isInFinalized($head)) tr.delete($head.before(), $head.after());
      tr.setSelection(TextSelection.create(tr.doc, titleEnd)).scrollIntoView();
    }
    return true;
  });
}

/**
 * Delete (E7): at the end of a title, nothing; at the end of the last block before a section or
 * subsection boundary, nothing (the default would pull a title into the block, or select the whole
 * subsection). Over a selection that crosses structure, nothing.
 */
export function deleteAtStructure(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!selection.empty) return crossesStructure(selection);
  const { $head } = selection;
  if (!$head.parent.isTextblock || $head.parentOffset < $head.parent.content.size) return false;
  if (isTitleNode($head.parent)) return true;
  for (let depth = $head.depth; depth > 0; depth--) {
    const container = $head.node(depth - 1);
    const index = $head.index(depth - 1);
    if (index < container.childCount - 1) return isStructureNode(container.child(index + 1));
    // The last block of a section or subsection: what follows lies beyond the boundary.
    if (isStructureNode(container) || container.type.name === 'doc') return true;
  }
  return false;
}
