import type { Editor } from '@tiptap/core';
import { setBlockType } from '@tiptap/pm/commands';
import type { Attrs, NodeType } from '@tiptap/pm/model';
import type { EditorState, Transaction } from '@tiptap/pm/state';
import { liftTarget } from '@tiptap/pm/transform';
import { isTitleNode } from './structure-queries.js';
import type { BlockTypeValue } from './toolbar-state.js';

/*
 * Block commands of the toolbar and the block shortcuts (E21). Tiptap's `setNode` falls back to
 * `clearNodes`, which turns each block into its parent's default node type; in a section body that
 * type is `subsection` (the content is `sectionHeading block* subsection*`), so the command throws.
 * These use ProseMirror's `setBlockType` and an explicit paragraph instead, and simply do nothing where
 * a change does not fit.
 */

type Dispatch = ((tr: Transaction) => void) | undefined;

function blockType(editor: Editor, name: string): NodeType | undefined {
  return editor.schema.nodes[name];
}

/** Runs a ProseMirror command as one editor step, keeping the focus. */
function runCommand(editor: Editor, command: (state: EditorState, dispatch: Dispatch) => boolean): boolean {
  return editor
    .chain()
    .focus()
    .command(({ state, dispatch }) => command(state, dispatch))
    .run();
}

function setType(editor: Editor, name: string, attrs?: Attrs): boolean {
  const type = blockType(editor, name);
  return type !== undefined && runCommand(editor, setBlockType(type, attrs ?? null));
}

/**
 * Turns the selected blocks into plain paragraphs (titles excepted) and lifts them out of lists and
 * quotes: the toolbar's Clear Nodes.
 */
export function clearBlocks(state: EditorState, dispatch: Dispatch): boolean {
  const paragraph = state.schema.nodes.paragraph;
  if (paragraph === undefined) return false;
  const { tr, selection } = state;
  state.doc.nodesBetween(selection.from, selection.to, (node, pos) => {
    if (node.isText || isTitleNode(node) || node.type.name === 'section' || node.type.name === 'subsection')
      return;
    const $from = tr.doc.resolve(tr.mapping.map(pos));
    const $to = tr.doc.resolve(tr.mapping.map(pos + node.nodeSize));
    const range = $from.blockRange($to);
    if (range === null) return;
    if (node.isTextblock && node.type !== paragraph) tr.setNodeMarkup(range.start, paragraph);
    const target = liftTarget(range);
    if (target !== null) tr.lift(range, target);
  });
  if (!tr.docChanged) return false;
  dispatch?.(tr);
  return true;
}

/** Runs the block type dropdown's choice (or a block shortcut) on the selection. */
export function applyBlockType(editor: Editor, value: BlockTypeValue): boolean {
  switch (value) {
    case 'paragraph': {
      const lifted = editor.isActive('blockquote') && editor.chain().focus().lift('blockquote').run();
      return setType(editor, 'paragraph') || lifted;
    }
    case 'heading3':
      return setType(editor, 'heading', { level: 3 });
    case 'heading4':
      return setType(editor, 'heading', { level: 4 });
    case 'blockquote':
      return editor.chain().focus().toggleWrap('blockquote').run();
    case 'codeBlock':
      return editor.isActive('codeBlock') ? setType(editor, 'paragraph') : setType(editor, 'codeBlock');
    case 'horizontalRule':
      return editor.chain().focus().insertContent({ type: 'horizontalRule' }).run();
    case 'hardBreak':
      return editor.chain().focus().insertContent({ type: 'hardBreak' }).run();
  }
}

/** Clear Nodes on the editor, as one step. */
export function clearBlocksInEditor(editor: Editor): boolean {
  return runCommand(editor, clearBlocks);
}
