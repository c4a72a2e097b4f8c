import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { applyProposal } from '@planwright/sdk/proposals';
import { cleanup } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditorBridge } from '../../src/workspace/editor-bridge.js';
import {
  endOf,
  p,
  planDocument,
  posOf,
  renderPlanEditor,
  run,
  section,
  select,
  subsection,
  uuid,
} from '../editor/editor-support.js';

afterEach(cleanup);

/** The editor's content as the SDK normalises it, so it compares with an `applyProposal` result. */
function contentOf(editor: Editor): DocumentJson {
  const result = normalizeDocument(editor.getJSON());
  if (!result.ok) throw new Error(result.error.message);
  return result.doc;
}

function applied(
  document: DocumentJson,
  toolName: string,
  payload: unknown,
  accept?: number[],
): DocumentJson {
  const result = applyProposal(document, toolName, payload, accept ? { accept } : {});
  if (!result.ok) throw new Error(result.message);
  return result.document;
}

function undo(editor: Editor): void {
  run(() => editor.commands.undo());
}

describe('EditorBridge.applyContent (R1–R3)', () => {
  it('R1: a full-subsection proposal lands as one undoable user edit', () => {
    const { editor, onEdit } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    const original = contentOf(editor);
    const next = applied(original, 'propose_full_subsection', {
      subsection_uuid: uuid(2),
      format: 'markdown',
      content: 'Brand new first body.\n\nAnd a second paragraph.',
    });
    expect(run(() => bridge.applyContent(next))).toBe(true);
    expect(contentOf(editor)).toEqual(next);
    expect(onEdit).toHaveBeenCalled();
    undo(editor);
    expect(contentOf(editor)).toEqual(original);
    run(() => editor.commands.redo());
    expect(contentOf(editor)).toEqual(next);
  });

  it('R1: a rename and a new body are undone together, in one step', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    const original = contentOf(editor);
    const next = applied(original, 'propose_full_subsection', {
      subsection_uuid: uuid(4),
      title: 'Third, renamed',
      format: 'markdown',
      content: 'Rewritten third.',
    });
    expect(run(() => bridge.applyContent(next))).toBe(true);
    expect(contentOf(editor)).toEqual(next);
    expect(editor.state.doc.textContent).toContain('Third, renamed');
    undo(editor);
    expect(contentOf(editor)).toEqual(original);
  });

  it('R1: typing just before does not merge into the proposal’s undo step', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    select(editor, endOf(editor, 'Body B'));
    run(() => editor.commands.insertContent('!'));
    const typed = contentOf(editor);
    const next = applied(typed, 'propose_partial_edits', {
      edits: [{ targetNodeId: 'p-one', mode: 'replace', format: 'markdown', content: 'One, better.' }],
    });
    expect(run(() => bridge.applyContent(next))).toBe(true);
    undo(editor);
    expect(contentOf(editor)).toEqual(typed);
  });

  it('R2: only what differs changes: other sections keep their nodes, the cursor keeps its text', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    const beta = editor.state.doc.child(1);
    select(editor, posOf(editor, 'Body B') + 2);
    const next = applied(contentOf(editor), 'propose_partial_edits', {
      edits: [
        { targetNodeId: 'p-one-more', mode: 'replace', format: 'markdown', content: 'A much longer text' },
      ],
    });
    expect(run(() => bridge.applyContent(next))).toBe(true);
    expect(editor.state.doc.child(1)).toBe(beta);
    const { from } = editor.state.selection;
    expect(editor.state.doc.textBetween(from, from + 4)).toBe('dy B');
  });

  it('R2: edits on both sides of a finalized subsection apply and undo (nothing inside it is touched)', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    const original = contentOf(editor);
    const next = applied(original, 'propose_partial_edits', {
      edits: [
        { targetNodeId: 'p-one', mode: 'insert_after', format: 'markdown', content: 'Inserted after one' },
        { targetNodeId: 'p-three', mode: 'delete' },
        { targetNodeId: 'p-beta', mode: 'replace', format: 'markdown', content: 'Body Beta' },
      ],
    });
    expect(run(() => bridge.applyContent(next))).toBe(true);
    expect(contentOf(editor)).toEqual(next);
    undo(editor);
    expect(contentOf(editor)).toEqual(original);
  });

  it('R2: the same content changes nothing and is no edit; another structure or a finalized change is refused', () => {
    const { editor, onEdit } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    const original = contentOf(editor);
    expect(run(() => bridge.applyContent(original))).toBe(true);
    expect(onEdit).not.toHaveBeenCalled();
    // A subsection gone.
    const fewer: DocumentJson = {
      type: 'doc',
      content: [
        section(1, 'Alpha', [p('Intro text', 'p-intro')], [subsection(2, 'First', [p('One', 'p-one')])]),
        section(5, 'Beta', [p('Body B', 'p-beta')]),
      ],
    };
    expect(run(() => bridge.applyContent(fewer))).toBe(false);
    // The finalized subsection's text changed.
    const locked = planDocument();
    const second = locked.content[0]?.content?.[3];
    if (second?.type !== 'subsection') throw new Error('fixture changed');
    second.content = [second.content[0], p('Two changed', 'p-two')] as typeof second.content;
    expect(run(() => bridge.applyContent(locked))).toBe(false);
    expect(contentOf(editor)).toEqual(original);
    expect(onEdit).not.toHaveBeenCalled();
  });

  it('R3: a read-only or destroyed editor, and content that is no document, are refused', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    const original = contentOf(editor);
    const next = applied(original, 'propose_partial_edits', {
      edits: [{ targetNodeId: 'p-one', mode: 'delete' }],
    });
    expect(run(() => bridge.applyContent({ type: 'paragraph' } as unknown as DocumentJson))).toBe(false);
    run(() => editor.setEditable(false));
    expect(run(() => bridge.applyContent(next))).toBe(false);
    run(() => editor.setEditable(true));
    run(() => editor.destroy());
    expect(bridge.applyContent(next)).toBe(false);
  });
});

describe('EditorBridge.insertParagraphAfterCursor (R4)', () => {
  function paragraphsOf(editor: Editor, subsectionIndex: number): string[] {
    const holder = editor.state.doc.child(0).child(subsectionIndex);
    const texts: string[] = [];
    holder.forEach((child, _offset, index) => {
      if (index > 0 && child.type.name !== 'subsection') texts.push(child.textContent);
    });
    return texts;
  }

  it('R4: goes after the block with the cursor, as one undo step and an edit; the cursor ends after it', () => {
    const { editor, onEdit } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    select(editor, posOf(editor, 'One') + 1);
    expect(run(() => bridge.insertParagraphAfterCursor('const x = 1;'))).toBe(true);
    // Children of section Alpha: heading, intro, First (2), ...
    expect(paragraphsOf(editor, 2)).toEqual(['One', 'const x = 1;', 'One more']);
    expect(onEdit).toHaveBeenCalled();
    expect(editor.state.selection.$head.parent.textContent).toBe('const x = 1;');
    undo(editor);
    expect(paragraphsOf(editor, 2)).toEqual(['One', 'One more']);
  });

  it('R4: in a title it goes to the end of that part’s own body', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    select(editor, posOf(editor, 'First') + 2);
    expect(run(() => bridge.insertParagraphAfterCursor('End of First'))).toBe(true);
    expect(paragraphsOf(editor, 2)).toEqual(['One', 'One more', 'End of First']);
    select(editor, posOf(editor, 'Alpha') + 1);
    expect(run(() => bridge.insertParagraphAfterCursor('Section own'))).toBe(true);
    // Before the subsections, after the intro.
    expect(editor.state.doc.child(0).child(2).textContent).toBe('Section own');
    expect(editor.state.doc.child(0).child(3).type.name).toBe('subsection');
  });

  it('R4: lines stay lines (hard breaks); blank text, finalized subsections and read-only are refused', () => {
    const { editor } = renderPlanEditor();
    const bridge = createEditorBridge(editor);
    select(editor, posOf(editor, 'Body B') + 1);
    expect(run(() => bridge.insertParagraphAfterCursor('line 1\r\n\nline 3'))).toBe(true);
    const added = editor.state.doc.child(1).child(2);
    expect(added.type.name).toBe('paragraph');
    expect(added.content.content.map((node) => node.type.name)).toEqual([
      'text',
      'hardBreak',
      'hardBreak',
      'text',
    ]);
    const before = editor.state.doc;
    expect(run(() => bridge.insertParagraphAfterCursor('  \n '))).toBe(false);
    select(editor, posOf(editor, 'Two locked') + 1);
    expect(run(() => bridge.insertParagraphAfterCursor('nope'))).toBe(false);
    select(editor, posOf(editor, 'Body B') + 1);
    run(() => editor.setEditable(false));
    expect(run(() => bridge.insertParagraphAfterCursor('nope'))).toBe(false);
    expect(editor.state.doc).toBe(before);
  });
});
