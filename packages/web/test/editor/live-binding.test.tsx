import { createLiveContent, readLiveContent } from '@planwright/sdk/live';
import { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { afterEach, describe, expect, it } from 'vitest';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { createPlanEditorExtensions } from '../../src/editor/plan-editor-extensions';
import { countingIds, planDocument, posOf } from './editor-support';

/**
 * The editor bound to a live plan (docs/editor.md "Live plans"), on the y-tiptap patch in
 * `patches/@tiptap+y-tiptap+3.0.9.patch`: another person's typing rebuilds only the blocks it touched, as
 * y-prosemirror does (the unpatched 3.0.9 rebuilt every node of the plan per remote change: 70 ms at p99 on
 * 200 pages, bench editor-keystroke); blocks removed still rebuild everything, as 3.0.9 does for moves.
 */

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

/** An editor on `document`'s content, as the workspace binds it. */
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

/** The paragraph holding `text`. */
function paragraphWith(editor: Editor, text: string): PmNode {
  let found: PmNode | undefined;
  editor.state.doc.descendants((node) => {
    if (found) return false;
    if (node.type.name === 'paragraph' && node.textContent.includes(text)) found = node;
    return true;
  });
  if (!found) throw new Error(`no paragraph with ${text}`);
  return found;
}

/** Another person's replica of `mine`, with their changes applied to `mine` as the provider does. */
function otherPerson(mine: Y.Doc): Y.Doc {
  const theirs = new Y.Doc();
  Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
  theirs.on('update', (update: Uint8Array) => Y.applyUpdate(mine, update, 'remote'));
  return theirs;
}

/** The Yjs element of the paragraph whose node id is `nodeId`. */
function yParagraph(doc: Y.Doc, nodeId: string): Y.XmlElement {
  for (const node of doc.getXmlFragment('content').createTreeWalker(() => true)) {
    if (node instanceof Y.XmlElement && node.getAttribute('nodeId') === nodeId) return node;
  }
  throw new Error(`no paragraph ${nodeId}`);
}

describe('the editor on a live plan', () => {
  it("keeps the blocks another person's typing did not touch (no full rebuild per remote keystroke)", () => {
    const mine = createLiveContent(planDocument());
    const editor = liveEditor(mine);
    const untouched = paragraphWith(editor, 'Body B');
    const typedIn = paragraphWith(editor, 'Three');
    const theirs = otherPerson(mine);
    const text = yParagraph(theirs, 'p-three').get(0) as Y.XmlText;
    text.insert(text.length, ' and more');
    expect(paragraphWith(editor, 'Three and more')).not.toBe(typedIn);
    // The very same node object: y-tiptap reused it instead of building it again.
    expect(paragraphWith(editor, 'Body B')).toBe(untouched);
    expect(readLiveContent(mine).document).toEqual(readLiveContent(theirs).document);
  });

  it('keeps the caret where it was across remote typing before it and a remote block removal', () => {
    const mine = createLiveContent(planDocument());
    const editor = liveEditor(mine);
    const caret = posOf(editor, 'Body B') + 'Body'.length;
    editor.commands.setTextSelection(caret);
    const theirs = otherPerson(mine);
    const text = yParagraph(theirs, 'p-one').get(0) as Y.XmlText;
    text.insert(0, 'Earlier, ');
    expect(editor.state.selection.head).toBe(posOf(editor, 'Body B') + 'Body'.length);
    // Removing a whole block is structural: the mapping is rebuilt, and the caret still follows its text.
    const removed = yParagraph(theirs, 'p-one-more');
    const parent = removed.parent as Y.XmlElement;
    parent.delete(parent.toArray().indexOf(removed), 1);
    expect(editor.state.doc.textContent).not.toContain('One more');
    expect(editor.state.selection.head).toBe(posOf(editor, 'Body B') + 'Body'.length);
    expect(readLiveContent(mine).document).toEqual(readLiveContent(theirs).document);
  });
});
