import { MAX_PARAGRAPH_INDENT } from '@planwright/sdk/model';
import type { EditorState } from '@tiptap/pm/state';
import { isInFinalized } from './structure-queries.js';

/** Indent or outdent: one level (24 px) in or out. */
export type IndentDirection = 1 | -1;

function indentOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The paragraphs of the selection whose indent can move that way, as [position, new indent]. */
function indentChanges(state: EditorState, direction: IndentDirection): Array<[number, number]> {
  const { selection, doc } = state;
  const { $from } = selection;
  if (isInFinalized($from) || isInFinalized(selection.$to)) return [];
  const changes: Array<[number, number]> = [];
  const consider = (indentValue: unknown, pos: number) => {
    const next = indentOf(indentValue) + direction;
    if (next >= 0 && next <= MAX_PARAGRAPH_INDENT) changes.push([pos, next]);
  };
  // The common case, a cursor, looks at one node.
  if (selection.empty || $from.sameParent(selection.$to)) {
    if ($from.parent.type.name === 'paragraph') consider($from.parent.attrs.indent, $from.before());
    return changes;
  }
  doc.nodesBetween(selection.from, selection.to, (node, pos) => {
    if (node.type.name === 'paragraph') consider(node.attrs.indent, pos);
    return !node.isTextblock;
  });
  return changes;
}

/** Whether Indent (1) or Outdent (-1) would change a paragraph of the selection (E15). */
export function canChangeIndent(state: EditorState, direction: IndentDirection): boolean {
  return indentChanges(state, direction).length > 0;
}

/**
 * Indents or outdents every paragraph of the selection by one level, within 0–8 (spec 001 §3); returns
 * whether anything changed. One transaction, so one undo step.
 */
export function changeIndent(
  state: EditorState,
  dispatch: ((tr: import('@tiptap/pm/state').Transaction) => void) | undefined,
  direction: IndentDirection,
): boolean {
  const changes = indentChanges(state, direction);
  if (changes.length === 0) return false;
  if (dispatch) {
    const { tr } = state;
    for (const [pos, indent] of changes) tr.setNodeAttribute(pos, 'indent', indent);
    dispatch(tr);
  }
  return true;
}
