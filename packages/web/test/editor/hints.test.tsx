import { moveSectionTo } from '@planwright/sdk/model';
import { cleanup, fireEvent } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { changesStructure, hintBuilds, isLongHint } from '../../src/editor/hint-decorations.js';
import { loadEditorContent, setStructureHints } from '../../src/editor/index.js';
import { hostileStrings } from '../workspace/workspace-support.js';
import { endOf, planDocument, posOf, press, renderPlanEditor, run, select, uuid } from './editor-support.js';

afterEach(cleanup);

/** [uuid the hint is for, its text] of every hint on the canvas, in order. */
function shown(editor: Editor): string[][] {
  return [...editor.view.dom.querySelectorAll<HTMLElement>('.pw-hint')].map((hint) => [
    hint.dataset.hintFor ?? '',
    hint.querySelector('.pw-hint-text')?.textContent ?? '',
  ]);
}

function hints(entries: Record<number, string>): Map<string, string> {
  return new Map(Object.entries(entries).map(([id, text]) => [uuid(Number(id)), text]));
}

describe('hints under headings (SPEC.md E26–E30)', () => {
  it('E26: each hint shows right under its section or subsection heading; blank ones show nothing', () => {
    const { editor } = renderPlanEditor();
    run(() =>
      setStructureHints(
        editor,
        hints({ 1: 'Say what the plan is.', 3: 'Lock it when done.', 4: '   ', 5: 'Beta hint' }),
      ),
    );
    expect(shown(editor)).toEqual([
      [uuid(1), 'Say what the plan is.'],
      [uuid(3), 'Lock it when done.'],
      [uuid(5), 'Beta hint'],
    ]);
    const first = editor.view.dom.querySelector<HTMLElement>(`.pw-hint[data-hint-for="${uuid(1)}"]`);
    expect(first?.previousElementSibling?.textContent).toBe('Alpha');
    expect(first?.getAttribute('contenteditable')).toBe('false');
    expect(first?.getAttribute('role')).toBe('note');
    expect(first?.getAttribute('aria-label')).toBe('Hint: Say what the plan is.');
    const inSubsection = editor.view.dom.querySelector(`.pw-hint[data-hint-for="${uuid(3)}"]`);
    expect(inSubsection?.previousElementSibling?.textContent).toBe('Second');
  });

  it('E27: never content: not in the JSON, the HTML, the undo history or an edit', () => {
    const { editor, onEdit } = renderPlanEditor();
    const before = JSON.stringify(editor.getJSON());
    run(() => setStructureHints(editor, hints({ 1: 'Hidden from the saved text' })));
    expect(shown(editor)).toHaveLength(1);
    expect(JSON.stringify(editor.getJSON())).toBe(before);
    expect(editor.getHTML()).not.toContain('Hidden from the saved text');
    expect(onEdit).not.toHaveBeenCalled();
    expect(editor.can().undo()).toBe(false);
  });

  it('E27: copying a range across a hint copies the text only', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'Do not copy me' })));
    select(editor, posOf(editor, 'Alpha'), endOf(editor, 'Intro text'));
    const slice = editor.state.selection.content();
    const text = slice.content.textBetween(0, slice.content.size, '\n');
    expect(text).toContain('Intro text');
    expect(text).not.toContain('Do not copy me');
    const serialized = editor.view.serializeForClipboard(slice);
    expect(serialized.dom.textContent).not.toContain('Do not copy me');
  });

  it('E28: hostile hints are shown as text, literally', () => {
    const { editor } = renderPlanEditor();
    const strings = hostileStrings()
      .filter((text) => text.trim() !== '')
      .slice(0, 200);
    for (const hostile of strings) {
      run(() => setStructureHints(editor, new Map([[uuid(2), hostile]])));
      const text = editor.view.dom.querySelector(`.pw-hint[data-hint-for="${uuid(2)}"] .pw-hint-text`);
      expect(text?.textContent, hostile).toBe(hostile);
      expect(editor.view.dom.querySelector('.pw-hint script, .pw-hint img, .pw-hint iframe')).toBeNull();
    }
  });

  it('E28: a long hint is clamped with Show more / Show less, which change neither the text nor the selection', () => {
    const { editor, onEdit } = renderPlanEditor();
    const long = Array.from({ length: 6 }, (_, line) => `Line ${line + 1} of the guidance.`).join('\n');
    expect(isLongHint(long)).toBe(true);
    expect(isLongHint('Short.')).toBe(false);
    run(() => setStructureHints(editor, hints({ 2: long })));
    select(editor, posOf(editor, 'One more'));
    const selection = editor.state.selection.toJSON();
    const hint = () => editor.view.dom.querySelector<HTMLElement>(`.pw-hint[data-hint-for="${uuid(2)}"]`);
    expect(hint()?.dataset.expanded).toBe('false');
    const more = hint()?.querySelector('button');
    expect(more?.textContent).toBe('Show more');
    run(() => fireEvent.click(more as HTMLButtonElement));
    expect(hint()?.dataset.expanded).toBe('true');
    expect(hint()?.querySelector('button')?.textContent).toBe('Show less');
    expect(hint()?.querySelector('button')?.getAttribute('aria-expanded')).toBe('true');
    expect(editor.state.selection.toJSON()).toEqual(selection);
    expect(onEdit).not.toHaveBeenCalled();
    run(() => fireEvent.click(hint()?.querySelector('button') as HTMLButtonElement));
    expect(hint()?.dataset.expanded).toBe('false');
  });

  it('E29: hints follow their parts when they move, go with them, and stay under the heading when a block is added there', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint', 5: 'Beta hint', 2: 'First hint' })));
    const moved = moveSectionTo(editor.getJSON() as never, uuid(5), 1);
    if (!moved.ok) throw new Error('setup');
    run(() => loadEditorContent(editor, moved.doc));
    expect(shown(editor).map(([id]) => id)).toEqual([uuid(5), uuid(1), uuid(2)]);
    // Enter at the end of a title makes a block right under it: the hint stays between the two.
    select(editor, endOf(editor, 'First'));
    press(editor, 'Enter');
    const hint = editor.view.dom.querySelector(`.pw-hint[data-hint-for="${uuid(2)}"]`);
    expect(hint?.previousElementSibling?.textContent).toBe('First');
  });

  it('E29: Enter in a subsection title lands in its first block, not in the hint (arrow keys: the browser test)', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 2: 'First hint' })));
    select(editor, endOf(editor, 'First'));
    press(editor, 'Enter');
    // Enter in a title moves to its text (E-rules): the cursor is in the first block, not in the hint.
    const { $from } = editor.state.selection;
    expect($from.parent.type.name).toBe('paragraph');
    expect(
      editor.view.dom.querySelector('.pw-hint')?.contains(document.getSelection()?.anchorNode ?? null),
    ).toBe(false);
  });

  it('E30: typing only maps the hints; structure changes and new hints place them again', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint', 2: 'First hint' })));
    const afterSet = hintBuilds(editor.state);
    expect(afterSet).toBe(1);
    select(editor, endOf(editor, 'One more'));
    for (const character of 'typed text') run(() => editor.commands.insertContent(character));
    // Typing in a title too.
    select(editor, endOf(editor, 'First'));
    run(() => editor.commands.insertContent(' part'));
    expect(hintBuilds(editor.state)).toBe(afterSet);
    expect(shown(editor)).toEqual([
      [uuid(1), 'Alpha hint'],
      [uuid(2), 'First hint'],
    ]);
    // The same hints again: nothing; other hints: placed again.
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint', 2: 'First hint' })));
    expect(hintBuilds(editor.state)).toBe(afterSet);
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint' })));
    expect(hintBuilds(editor.state)).toBe(afterSet + 1);
    // A whole new tree is a structure change.
    run(() => loadEditorContent(editor, planDocument()));
    expect(hintBuilds(editor.state)).toBe(afterSet + 2);
  });

  it('E30: changesStructure tells typing from structure', () => {
    const { editor } = renderPlanEditor();
    const typing = editor.state.tr.insertText('x', posOf(editor, 'One'));
    expect(changesStructure(typing)).toBe(false);
    const inTitle = editor.state.tr.insertText('x', endOf(editor, 'Alpha'));
    expect(changesStructure(inTitle)).toBe(false);
    const from = posOf(editor, 'Alpha') - 2;
    const wholeSection = editor.state.tr.delete(from, from + (editor.state.doc.firstChild?.nodeSize ?? 0));
    expect(changesStructure(wholeSection)).toBe(true);
  });
});
