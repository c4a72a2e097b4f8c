import type { TransformAction } from '@planwright/sdk';
import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import { Fragment, type Node as ProseMirrorNode, Slice } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import { isInFinalized, isTitleNode } from './structure-queries.js';

/** One AI action of the bubble toolbar (spec 001 §2 "Bubble toolbar", E31). */
export interface AiActionItem {
  readonly action: TransformAction;
  readonly label: string;
}

/** The bubble's AI actions by group, in the order of spec 001 §2 (E31). */
export const AI_ACTION_GROUPS: readonly {
  readonly label: string;
  readonly items: readonly AiActionItem[];
}[] = [
  {
    label: 'Edit',
    items: [
      { action: 'improve', label: 'Improve writing' },
      { action: 'fix_grammar', label: 'Fix spelling & grammar' },
      { action: 'simplify', label: 'Simplify language' },
    ],
  },
  {
    label: 'Adjust length',
    items: [
      { action: 'extend', label: 'Extend' },
      { action: 'shorten', label: 'Shorten' },
    ],
  },
  {
    label: 'Change tone',
    items: [
      { action: 'professional', label: 'Professional' },
      { action: 'casual', label: 'Casual' },
      { action: 'emojify', label: 'Emojify' },
    ],
  },
];

/** The text a transform works on, and where it was (E32). */
export interface TransformTarget {
  readonly from: number;
  readonly to: number;
  /** Blocks separated by a blank line, hard breaks as line breaks. */
  readonly text: string;
}

const BLOCK_SEPARATOR = '\n\n';

function textOf(doc: ProseMirrorNode, from: number, to: number): string {
  return doc.textBetween(from, to, BLOCK_SEPARATOR, '\n');
}

/** The selection as a {@link TransformTarget}. */
export function transformTarget(state: EditorState): TransformTarget {
  const { from, to } = state.selection;
  return { from, to, text: textOf(state.doc, from, to) };
}

/**
 * Whether AI actions may run on the selection (E31): an editable editor, a selection inside bodies only
 * (titles are plain text, finalized subsections read-only).
 */
export function canTransformSelection(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!editor.isEditable || selection.empty) return false;
  for (const $pos of [selection.$from, selection.$to]) {
    if (isInFinalized($pos) || isTitleNode($pos.parent)) return false;
  }
  return true;
}

/**
 * Puts `replacement` where `target` was (E33): one undo step of its own, a user edit (autosave runs),
 * lines separated by a blank line become paragraphs and single line breaks hard breaks. False, changing
 * nothing, when the text there is no longer the target's (the document changed meanwhile) or the editor
 * refuses (read-only, gone).
 */
export function replaceTransformTarget(
  editor: Editor,
  target: TransformTarget,
  replacement: string,
): boolean {
  if (editor.isDestroyed || !editor.isEditable) return false;
  const { state } = editor;
  const { schema } = state;
  const paragraph = schema.nodes.paragraph;
  const hardBreak = schema.nodes.hardBreak;
  if (!paragraph || !hardBreak) return false;
  if (target.to > state.doc.content.size || textOf(state.doc, target.from, target.to) !== target.text) {
    return false;
  }
  const blocks = replacement
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => {
      const content: ProseMirrorNode[] = [];
      block.split('\n').forEach((line, index) => {
        if (index > 0) content.push(hardBreak.create());
        if (line !== '') content.push(schema.text(line));
      });
      return paragraph.create(null, content);
    });
  // Open on both sides: the first and last lines join the blocks around the selection, as a paste does.
  const slice = new Slice(Fragment.from(blocks), 1, 1);
  const tr = closeHistory(state.tr).replaceRange(target.from, target.to, slice).scrollIntoView();
  const before = state.doc;
  editor.view.dispatch(tr);
  return editor.state.doc !== before;
}
