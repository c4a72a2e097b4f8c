import type { TransformAction } from '@planwright/sdk';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
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
