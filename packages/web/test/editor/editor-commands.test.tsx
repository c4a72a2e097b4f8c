import type { DocumentJson, SectionJson } from '@planwright/sdk/model';
import { cleanup } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNDO_DEPTH, UNDO_NEW_GROUP_DELAY_MS } from '../../src/editor/editor-meta.js';
import { cursorContext, loadEditorContent, revealInEditor } from '../../src/editor/index.js';
import { isInlineStep } from '../../src/editor/structure-guard.js';
import {
  countingIds,
  endOf,
  p,
  planDocument,
  posOf,
  press,
  renderPlanEditor,
  run,
  section,
  select,
  structureOf,
  subsection,
  uuid,
} from './editor-support.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The plan with subsections Third and First swapped, as the server answers a move. */
function movedPlan(): DocumentJson {
  const doc = planDocument();
  const alpha = doc.content[0] as SectionJson;
  const [heading, intro, first, second, third] = alpha.content;
  alpha.content = [heading, intro, third, second, first] as SectionJson['content'];
  return doc;
}

function nodeIds(editor: Editor): string[] {
  const ids: string[] = [];
  editor.state.doc.descendants((node) => {
    if (typeof node.attrs.nodeId === 'string') ids.push(node.attrs.nodeId);
  });
  return ids;
}

describe('loadEditorContent (E16)', () => {
  it('E16: replaces the content without onEdit and without an undo step', () => {
    const { editor, onEdit, container } = renderPlanEditor();
    run(() => loadEditorContent(editor, movedPlan()));
    expect(structureOf(editor).slice(1, 4)).toEqual([
      `  s ${uuid(4)} Third`,
      `  s ${uuid(3)} Second`,
      `  s ${uuid(2)} First`,
    ]);
    expect(onEdit).not.toHaveBeenCalled();
    expect(editor.can().undo()).toBe(false);
    // The node views follow: wrappers in the new order, edges recomputed.
    const order = [...container.querySelectorAll<HTMLElement>('.pw-subsection')].map(
      (element) => element.dataset.subsectionUuid,
    );
    expect(order).toEqual([uuid(4), uuid(3), uuid(2)]);
  });

  it('E16: user steps before a load stay undoable where the load did not touch them', () => {
    const { editor } = renderPlanEditor();
    run(() => editor.view.dispatch(editor.state.tr.insertText('!', endOf(editor, 'Body B'))));
    const withEdit = editor.getJSON() as unknown as DocumentJson;
    // The server's answer: the same, with a subsection renamed far from the edit.
    const answer = structuredClone(withEdit);
    const alpha = answer.content[0] as SectionJson;
    const third = alpha.content[4] as unknown as { content: [{ content: [{ text: string }] }] };
    third.content[0].content[0].text = 'Third (renamed)';
    run(() => loadEditorContent(editor, answer));
    expect(structureOf(editor)).toContain(`  s ${uuid(4)} Third (renamed)`);
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).toContain('Body B');
    expect(editor.state.doc.textContent).not.toContain('Body B!');
    expect(structureOf(editor)).toContain(`  s ${uuid(4)} Third (renamed)`);
  });

  it('E16: an equal answer changes nothing at all; the selection stays where the text did not change', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'Body B') + 2);
    const transactions = vi.fn();
    editor.on('transaction', transactions);
    run(() => loadEditorContent(editor, planDocument()));
    expect(transactions).not.toHaveBeenCalled();
    run(() => loadEditorContent(editor, movedPlan()));
    expect(editor.state.selection.from).toBe(posOf(editor, 'Body B') + 2);
  });

  it('E16: content that does not fit the schema is repaired before it goes in', () => {
    const { editor } = renderPlanEditor();
    const broken = {
      type: 'doc',
      content: [
        {
          type: 'section',
          attrs: { uuid: uuid(9) },
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'no title' }] }],
        },
      ],
    } as unknown as DocumentJson;
    run(() => loadEditorContent(editor, broken));
    expect(() => editor.state.doc.check()).not.toThrow();
    expect(editor.state.doc.textContent).toBe('no title');
  });

  it('E16: a load may remove a finalized subsection and the last structure (the guard lets it through)', () => {
    const { editor } = renderPlanEditor();
    run(() => loadEditorContent(editor, { type: 'doc', content: [section(7, 'Only', [p('x', 'p-x')])] }));
    expect(structureOf(editor)).toEqual([`S ${uuid(7)} Only`]);
  });
});

describe('revealInEditor (E18)', () => {
  it('E18: puts the cursor at the end of the section or subsection title', () => {
    const { editor } = renderPlanEditor();
    expect(run(() => revealInEditor(editor, { sectionUuid: uuid(5) }))).toBe(true);
    expect(editor.state.selection.from).toBe(endOf(editor, 'Beta'));
    expect(run(() => revealInEditor(editor, { sectionUuid: uuid(1), subsectionUuid: uuid(3) }))).toBe(true);
    expect(editor.state.selection.from).toBe(endOf(editor, 'Second'));
    expect(
      run(() => revealInEditor(editor, { sectionUuid: uuid(1).toUpperCase(), subsectionUuid: null })),
    ).toBe(true);
    expect(editor.state.selection.from).toBe(endOf(editor, 'Alpha'));
  });

  it('E18: unknown uuids, or a subsection of another section, give false and leave the selection', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One'));
    expect(revealInEditor(editor, { sectionUuid: uuid(99) })).toBe(false);
    expect(revealInEditor(editor, { sectionUuid: uuid(5), subsectionUuid: uuid(3) })).toBe(false);
    expect(revealInEditor(editor, { sectionUuid: uuid(1), subsectionUuid: uuid(98) })).toBe(false);
    expect(editor.state.selection.from).toBe(posOf(editor, 'One'));
  });
});

describe('cursor context (E19)', () => {
  it('E19: names the section and subsection at the cursor, titles and finalized subsections', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'Intro'));
    expect(cursorContext(editor.state)).toEqual({
      sectionUuid: uuid(1),
      subsectionUuid: null,
      inHeading: false,
      inFinalized: false,
    });
    select(editor, posOf(editor, 'Second'));
    expect(cursorContext(editor.state)).toEqual({
      sectionUuid: uuid(1),
      subsectionUuid: uuid(3),
      inHeading: true,
      inFinalized: true,
    });
    select(editor, posOf(editor, 'Beta'));
    expect(cursorContext(editor.state)).toMatchObject({ sectionUuid: uuid(5), inHeading: true });
  });

  it('E19: onCursorContext runs when the context changes, not on every keystroke', () => {
    const { editor, onCursorContext } = renderPlanEditor();
    onCursorContext.mockClear();
    select(editor, posOf(editor, 'One'));
    expect(onCursorContext).toHaveBeenCalledTimes(1);
    for (const letter of 'abc') run(() => editor.commands.insertContent(letter));
    select(editor, posOf(editor, 'One more'));
    expect(onCursorContext).toHaveBeenCalledTimes(1);
    select(editor, posOf(editor, 'Three'));
    expect(onCursorContext).toHaveBeenLastCalledWith({
      sectionUuid: uuid(1),
      subsectionUuid: uuid(4),
      inHeading: false,
      inFinalized: false,
    });
  });
});

describe('onEdit (E19)', () => {
  it('E19: every user edit calls onEdit once; selection changes do not', () => {
    const { editor, onEdit } = renderPlanEditor();
    select(editor, endOf(editor, 'One'));
    expect(onEdit).not.toHaveBeenCalled();
    run(() => editor.commands.insertContent('x'));
    press(editor, 'Enter');
    expect(onEdit).toHaveBeenCalledTimes(2);
    expect(onEdit).toHaveBeenLastCalledWith(editor);
  });
});

describe('node ids (E8)', () => {
  it('E8: Enter in the middle of a paragraph gives the new half a fresh id; ids stay unique', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One more') + 3);
    press(editor, 'Enter');
    const ids = nodeIds(editor);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('p-one-more');
    expect(ids).toContain(uuid(1001));
  });

  it('E8: a pasted copy of a block (its data-node-id too) gets a fresh id', () => {
    const { editor } = renderPlanEditor();
    select(editor, endOf(editor, 'Three'));
    run(() => editor.view.pasteHTML('<p data-node-id="p-one">copy</p><p data-node-id="p-one">again</p>'));
    const ids = nodeIds(editor);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id === 'p-one')).toHaveLength(1);
  });

  it('E8: typing takes the fast path (inline steps); a split does not', () => {
    const { editor } = renderPlanEditor();
    const typing = editor.state.tr.insertText('x', posOf(editor, 'One') + 1);
    expect(typing.steps.every((step, index) => isInlineStep(step, typing.docs[index] ?? typing.doc))).toBe(
      true,
    );
    const split = editor.state.tr.split(posOf(editor, 'One') + 1);
    expect(split.steps.every((step, index) => isInlineStep(step, split.docs[index] ?? split.doc))).toBe(
      false,
    );
  });
});

describe('undo (E19, spec 001 §9)', () => {
  it('E19: undo keeps 100 steps and starts a new one after 500 ms', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(100_000);
    const { editor } = renderPlanEditor({
      content: { type: 'doc', content: [section(1, 'A', [], [subsection(2, 'S', [p('', 'p-1')])])] },
      generateId: countingIds(),
    });
    const undoRedo = editor.extensionManager.extensions.find((extension) => extension.name === 'undoRedo');
    expect(undoRedo?.options).toMatchObject({ depth: UNDO_DEPTH, newGroupDelay: UNDO_NEW_GROUP_DELAY_MS });
    select(editor, endOf(editor, 'S') + 2);
    // Two letters within 500 ms are one step; a third 600 ms later is another.
    run(() => editor.commands.insertContent('a'));
    vi.setSystemTime(100_400);
    run(() => editor.commands.insertContent('b'));
    vi.setSystemTime(101_000);
    run(() => editor.commands.insertContent('c'));
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).toBe('ASab');
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).toBe('AS');
    // 150 separate steps: not all can be undone. ProseMirror trims the oldest in batches of 20 once
    // more than 100 are kept, so between 100 and 120 remain.
    for (let step = 1; step <= 150; step++) {
      vi.setSystemTime(200_000 + step * 1000);
      run(() => editor.commands.insertContent('x'));
    }
    let undone = 0;
    while (run(() => editor.commands.undo())) undone += 1;
    expect(undone).toBeGreaterThanOrEqual(UNDO_DEPTH);
    expect(undone).toBeLessThanOrEqual(UNDO_DEPTH + 20);
    expect(editor.state.doc.textContent).toBe(`AS${'x'.repeat(150 - undone)}`);
  });
});

describe('accessibility of the editor (E24)', () => {
  it('E24: the editable element is a labelled multi-line textbox; the canvas is at least 280 px', () => {
    const { editor, container } = renderPlanEditor();
    const dom = editor.view.dom;
    expect(dom.getAttribute('aria-label')).toBe('Document editor');
    expect(dom.getAttribute('role')).toBe('textbox');
    expect(dom.getAttribute('aria-multiline')).toBe('true');
    expect(container.querySelector('.pw-canvas .pw-editor')).not.toBeNull();
  });
});
