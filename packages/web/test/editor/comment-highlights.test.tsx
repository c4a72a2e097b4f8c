import { createLiveContent } from '@planwright/sdk/live';
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import {
  commentAnchorOfSelection,
  revealCommentRange,
  setCommentMarks,
} from '../../src/editor/comment-highlights';
import { createPlanEditorExtensions } from '../../src/editor/plan-editor-extensions';
import { countingIds, planDocument, posOf } from './editor-support';

/** Comment ranges on a live plan's canvas (editor SPEC E36; docs/teams.md "Comments"). */

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

function liveEditor(document: Y.Doc): Editor {
  const editor = new Editor({
    element: globalThis.document.createElement('div'),
    extensions: createPlanEditorExtensions({
      actions: { current: { moveSubsection: () => {}, deleteSubsection: () => {}, setFinalized: () => {} } },
      generateId: countingIds(),
      live: { document, awareness: new Awareness(document) },
    }),
  });
  editors.push(editor);
  return editor;
}

/** What the canvas marks, joined. */
function marked(editor: Editor): string {
  return [...editor.view.dom.querySelectorAll('.pw-comment-range')].map((span) => span.textContent).join('');
}

function yText(doc: Y.Doc, containing: string): Y.XmlText {
  for (const node of doc.getXmlFragment('content').createTreeWalker(() => true)) {
    if (node instanceof Y.XmlText && node.toString().includes(containing)) return node;
  }
  throw new Error(`no text with ${containing}`);
}

describe('comment ranges on a live plan', () => {
  it('mark the words they were made on, and follow them through another person’s typing before and inside them', () => {
    const mine = createLiveContent(planDocument());
    const editor = liveEditor(mine);
    const from = posOf(editor, 'Body B');
    editor.commands.setTextSelection({ from, to: from + 'Body B'.length });
    const anchor = commentAnchorOfSelection(editor);
    expect(anchor).not.toBeNull();
    setCommentMarks(editor, [{ id: 't1', anchor: anchor ?? '' }]);
    expect(marked(editor)).toBe('Body B');

    const theirs = new Y.Doc();
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
    theirs.on('update', (update: Uint8Array) => Y.applyUpdate(mine, update, 'remote'));
    const text = yText(theirs, 'Body B');
    text.insert(0, 'Before: ');
    text.insert(text.toString().indexOf(' B', text.toString().indexOf('Body')), 'ish');
    expect(marked(editor)).toBe('Bodyish B');
    // One's own typing before it, a character at a time, as the keyboard does.
    editor.commands.setTextSelection(posOf(editor, 'Before: '));
    for (const character of 'Mine, ') editor.commands.insertContent(character);
    expect(editor.state.doc.textContent).toContain('Mine, Before: Bodyish B');
    expect(marked(editor)).toBe('Bodyish B');
    // Show in text selects exactly the words.
    editor.commands.setTextSelection(1);
    expect(revealCommentRange(editor, anchor ?? '')).toBe(true);
    const { from: start, to: end } = editor.state.selection;
    expect(editor.state.doc.textBetween(start, end)).toBe('Bodyish B');
    // Their words deleted: nothing is marked, and nothing can be shown.
    text.delete(text.toString().indexOf('Bodyish B'), 'Bodyish B'.length);
    expect(marked(editor)).toBe('');
    expect(revealCommentRange(editor, anchor ?? '')).toBe(false);
  });

  it('a caret and a plan that is not live have no anchor; damaged anchors mark nothing', () => {
    const mine = createLiveContent(planDocument());
    const editor = liveEditor(mine);
    editor.commands.setTextSelection(posOf(editor, 'Body B'));
    expect(commentAnchorOfSelection(editor)).toBeNull();
    setCommentMarks(editor, [{ id: 'bad', anchor: 'not an anchor' }]);
    expect(marked(editor)).toBe('');
  });
});
