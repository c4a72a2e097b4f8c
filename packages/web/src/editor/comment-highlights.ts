import { decodeCommentAnchor, encodeCommentAnchor } from '@planwright/sdk/live';
import { type Editor, Extension } from '@tiptap/core';
import { type EditorState, Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';

/** A comment thread the canvas marks: its id and where it is (`CommentThread.anchor`). */
export interface CommentMark {
  id: string;
  anchor: string;
}

const commentHighlightsKey = new PluginKey<Highlights>('commentHighlights');

/** The live content of a collaborative editor (y-tiptap's sync plugin state), when there is one. */
interface SyncState {
  doc: Y.Doc;
  type: Y.XmlFragment;
}

function syncOf(state: EditorState): SyncState | null {
  const sync = ySyncPluginKey.getState(state) as SyncState | undefined;
  return sync?.type ? sync : null;
}

/**
 * The Yjs text position of a ProseMirror position inside a textblock. The two trees have the same blocks at the
 * same indices (the binding keeps them so), and a textblock's inline content is Yjs text runs and one-sized
 * inline elements, so the block path and the character offset say where it is, without the binding's cache of
 * nodes (which may hold a node from before the last keystroke).
 */
function relativeOf(
  state: EditorState,
  sync: SyncState,
  pos: number,
  assoc: number,
): Y.RelativePosition | null {
  const $pos = state.doc.resolve(pos);
  if (!$pos.parent.isTextblock) return null;
  let node: Y.XmlFragment | Y.XmlElement = sync.type;
  for (let depth = 0; depth < $pos.depth; depth++) {
    const child: Y.XmlElement | Y.XmlText = node.get($pos.index(depth));
    if (!(child instanceof Y.XmlElement)) return null;
    node = child;
  }
  let offset = $pos.parentOffset;
  for (const child of node.toArray()) {
    if (child instanceof Y.XmlText) {
      if (offset <= child.length) return Y.createRelativePositionFromTypeIndex(child, offset, assoc);
      offset -= child.length;
    } else {
      offset -= 1;
    }
  }
  return null;
}

/** The ProseMirror position of a Yjs text position, or null when its text is gone. */
function absoluteOf(state: EditorState, sync: SyncState, relative: Y.RelativePosition): number | null {
  const at = Y.createAbsolutePositionFromRelativePosition(relative, sync.doc);
  if (!at || !(at.type instanceof Y.XmlText)) return null;
  const text = at.type;
  const block = text.parent;
  if (!(block instanceof Y.XmlElement)) return null;
  let offset = at.index;
  for (const child of block.toArray()) {
    if (child === text) break;
    offset += child instanceof Y.XmlText ? child.length : 1;
  }
  // The block's path from the root, as child indices.
  const path: number[] = [];
  let node: Y.XmlElement | Y.XmlFragment = block;
  while (node !== sync.type) {
    const parent: unknown = node.parent;
    if (!(parent instanceof Y.XmlElement || parent instanceof Y.XmlFragment)) return null;
    path.unshift(parent.toArray().indexOf(node as Y.XmlElement));
    node = parent;
  }
  let pos = 0;
  let pm = state.doc;
  for (const index of path) {
    if (index < 0 || index >= pm.childCount) return null;
    for (let i = 0; i < index; i++) pos += pm.child(i).nodeSize;
    pm = pm.child(index);
    pos += 1;
  }
  if (!pm.isTextblock || offset > pm.content.size) return null;
  return pos + offset;
}

/** Where an anchor is in the editor now, or null when it cannot be placed (its text is gone). */
function placed(state: EditorState, anchor: string): { from: number; to: number } | null {
  const sync = syncOf(state);
  const range = decodeCommentAnchor(anchor);
  if (!sync || !range) return null;
  const from = absoluteOf(state, sync, range.start);
  const to = absoluteOf(state, sync, range.end);
  if (from === null || to === null || from >= to || to > state.doc.content.size) return null;
  return { from, to };
}

/**
 * The anchor of the editor's selection in a live plan (two Yjs relative positions, which follow the text
 * through everyone's edits; docs/teams.md "Comments"), or null for a caret, a selection across blocks' edges
 * that are not text, or a plan that is not live. The end sticks to the character before it, so typing right
 * after the range stays out of it.
 */
export function commentAnchorOfSelection(editor: Editor): string | null {
  const { state } = editor;
  const sync = syncOf(state);
  const { from, to } = state.selection;
  if (!sync || from === to) return null;
  const start = relativeOf(state, sync, from, 0);
  const end = relativeOf(state, sync, to, -1);
  return start && end ? encodeCommentAnchor({ start, end }) : null;
}

/** Marks the comment threads on the canvas (editor SPEC E36); a thread whose text is gone is not marked. */
export function setCommentMarks(editor: Editor, marks: readonly CommentMark[]): void {
  if (editor.isDestroyed) return;
  editor.view.dispatch(editor.state.tr.setMeta(commentHighlightsKey, marks).setMeta('addToHistory', false));
}

/** Selects a thread's text and scrolls it into view, with the focus in the editor; false when it is gone. */
export function revealCommentRange(editor: Editor, anchor: string): boolean {
  const at = placed(editor.state, anchor);
  if (!at) return false;
  const { tr } = editor.state;
  editor.view.dispatch(tr.setSelection(TextSelection.create(tr.doc, at.from, at.to)).scrollIntoView());
  editor.view.focus();
  return true;
}

/** The comment thread whose highlighted text a click landed on (the innermost, where ranges overlap), or null. */
export function commentThreadAt(target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  return target.closest<HTMLElement>('.pw-comment-range[data-comment-thread]')?.dataset.commentThread ?? null;
}

/** The marks and where they are drawn. */
interface Highlights {
  marks: readonly CommentMark[];
  set: DecorationSet;
}

function drawn(state: EditorState, marks: readonly CommentMark[]): DecorationSet {
  const decorations: Decoration[] = [];
  for (const mark of marks) {
    const at = placed(state, mark.anchor);
    if (at) {
      decorations.push(
        Decoration.inline(at.from, at.to, { class: 'pw-comment-range', 'data-comment-thread': mark.id }),
      );
    }
  }
  return DecorationSet.create(state.doc, decorations);
}

/**
 * The highlights of the comment threads on a live plan's canvas. They are placed from the Yjs anchors when set
 * and when someone else's change arrives (already in the Yjs document then); one's own typing maps them like
 * any decoration, as it reaches the Yjs document only after the editor has drawn it.
 */
export const CommentHighlights = Extension.create({
  name: 'commentHighlights',
  addProseMirrorPlugins() {
    return [
      new Plugin<Highlights>({
        key: commentHighlightsKey,
        state: {
          init: () => ({ marks: [], set: DecorationSet.empty }),
          apply(tr, value, _old, state) {
            const marks = tr.getMeta(commentHighlightsKey) as readonly CommentMark[] | undefined;
            if (marks) return { marks, set: drawn(state, marks) };
            if (!tr.docChanged || value.marks.length === 0) return value;
            const remote = (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)
              ?.isChangeOrigin;
            return {
              marks: value.marks,
              set: remote ? drawn(state, value.marks) : value.set.map(tr.mapping, tr.doc),
            };
          },
        },
        props: {
          decorations: (state) => commentHighlightsKey.getState(state)?.set ?? null,
        },
      }),
    ];
  },
});
