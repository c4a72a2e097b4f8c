import { type DocumentJson, moveSectionTo } from '@planwright/sdk/model';
import { act, cleanup, fireEvent } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { STRUCTURE_META } from '../../src/editor/editor-meta.js';
import {
  changesStructure,
  hintBuilds,
  hintPlacements,
  isLongHint,
} from '../../src/editor/hint-decorations.js';
import { loadEditorContent, setStructureHints } from '../../src/editor/index.js';
import { PLACEHOLDERS } from '../../src/editor/placeholder-plugin.js';
import { hostileStrings } from '../workspace/workspace-support.js';
import {
  endOf,
  handleKey,
  p,
  planDocument,
  posOf,
  press,
  renderPlanEditor,
  run,
  section,
  select,
  subsection,
  uuid,
} from './editor-support.js';

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

/** Where the hints belong, computed from scratch: right after the heading of every part that has one. */
function expectedPlacements(
  doc: ProseMirrorNode,
  hinted: ReadonlyMap<string, string>,
): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'section' && node.type.name !== 'subsection') return false;
    const id = node.attrs.uuid;
    if (typeof id === 'string' && hinted.has(id)) out.push([pos + 1 + (node.firstChild?.nodeSize ?? 0), id]);
    return true;
  });
  return out;
}

/** The document with section `id` (and its subsections) left out, or a new section appended. */
function withoutSection(doc: DocumentJson, id: string): DocumentJson {
  return { ...doc, content: doc.content.filter((part) => part.attrs.uuid !== id) };
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
    const before = JSON.stringify(editor.getJSON());
    const strings = hostileStrings().filter((text) => text.trim() !== '');
    expect(strings.length).toBeGreaterThan(400);
    for (const hostile of strings) {
      run(() => setStructureHints(editor, new Map([[uuid(2), hostile]])));
      const hint = editor.view.dom.querySelector(`.pw-hint[data-hint-for="${uuid(2)}"]`);
      const literal = hostile.replace(/\r\n?/g, '\n');
      expect(hint?.querySelector('.pw-hint-text')?.textContent, hostile).toBe(literal);
      expect(hint?.getAttribute('aria-label'), hostile).toBe(`Hint: ${literal}`);
      expect(editor.view.dom.querySelector('.pw-hint script, .pw-hint img, .pw-hint iframe')).toBeNull();
    }
    expect(JSON.stringify(editor.getJSON())).toBe(before);
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

  it('E30: deleting, typing over a selection, removing or wrapping a block are no structure change', () => {
    const { editor } = renderPlanEditor();
    const { state } = editor;
    const tr = () => editor.state.tr;
    expect(changesStructure(tr().delete(endOf(editor, 'One more') - 1, endOf(editor, 'One more')))).toBe(
      false,
    );
    expect(changesStructure(tr().delete(endOf(editor, 'First') - 1, endOf(editor, 'First')))).toBe(false);
    // A whole title typed over: the heading holds the range.
    expect(changesStructure(tr().insertText('New', posOf(editor, 'First'), endOf(editor, 'First')))).toBe(
      false,
    );
    expect(changesStructure(tr().insertText('x', posOf(editor, 'Intro'), endOf(editor, 'Intro text')))).toBe(
      false,
    );
    // A range from one block into the next, and a whole block.
    expect(changesStructure(tr().delete(posOf(editor, 'One') + 1, posOf(editor, 'One more') + 2))).toBe(
      false,
    );
    const one = posOf(editor, 'One') - 1;
    expect(changesStructure(tr().delete(one, one + (state.doc.nodeAt(one)?.nodeSize ?? 0)))).toBe(false);
    const { blockquote } = state.schema.nodes;
    const bold = state.schema.marks.bold?.create();
    const range = state.doc.resolve(posOf(editor, 'One')).blockRange();
    if (!blockquote || !bold || !range) throw new Error('setup');
    expect(changesStructure(tr().wrap(range, [{ type: blockquote }]))).toBe(false);
    expect(changesStructure(tr().addMark(posOf(editor, 'One'), endOf(editor, 'One'), bold))).toBe(false);
  });

  it('E30: a range into another part, a slice with a part, a part removed or re-identified is one', () => {
    const { editor } = renderPlanEditor();
    const { state } = editor;
    const tr = () => editor.state.tr;
    // From the last block of Alpha into Beta's title.
    expect(changesStructure(tr().delete(endOf(editor, 'Three') - 1, posOf(editor, 'Beta') + 1))).toBe(true);
    // From a subsection's body into the next subsection's body.
    expect(changesStructure(tr().delete(posOf(editor, 'One more') + 1, posOf(editor, 'Three') + 1))).toBe(
      true,
    );
    // A heading removed with the block after it.
    expect(changesStructure(tr().delete(posOf(editor, 'First') - 1, endOf(editor, 'One')))).toBe(true);
    const newSection = state.schema.nodeFromJSON(section(9, 'Gamma', [p('Body G', 'p-gamma')]));
    expect(changesStructure(tr().insert(state.doc.content.size, newSection))).toBe(true);
    const newSubsection = state.schema.nodeFromJSON(subsection(8, 'Fourth', [p('Four', 'p-four')]));
    expect(changesStructure(tr().insert(endOf(editor, 'Three') + 1, newSubsection))).toBe(true);
    const beta = state.doc.child(0).nodeSize;
    expect(changesStructure(tr().setNodeAttribute(beta, 'uuid', uuid(9)))).toBe(true);
    expect(changesStructure(tr().setNodeAttribute(posOf(editor, 'First') - 2, 'finalized', true))).toBe(
      false,
    );
  });

  it('E30: Backspace, Delete and Enter in a body or a title only map the hints', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint', 2: 'First hint', 5: 'Beta hint' })));
    const builds = hintBuilds(editor.state);
    // A character deleted is the browser's own edit: a one-character delete step.
    const deleteBefore = (end: number) =>
      run(() => editor.view.dispatch(editor.state.tr.delete(end - 1, end)));
    deleteBefore(endOf(editor, 'One more'));
    deleteBefore(endOf(editor, 'Fir'));
    // A selection deleted is the editor's.
    select(editor, posOf(editor, 'Intro'), endOf(editor, 'Intro'));
    expect(handleKey(editor, 'Delete')).toBe(true);
    select(editor, posOf(editor, 'ne mor'), endOf(editor, 'ne mo'));
    expect(handleKey(editor, 'Backspace')).toBe(true);
    select(editor, endOf(editor, 'One'));
    press(editor, 'Enter');
    expect(editor.state.doc.textBetween(0, editor.state.doc.content.size, '|')).toContain('Fist|One||Or');
    expect(hintBuilds(editor.state)).toBe(builds);
    expect(hintPlacements(editor.state)).toEqual(
      expectedPlacements(editor.state.doc, hints({ 1: 'x', 2: 'x', 5: 'x' })),
    );
  });

  it('E29: a part added without a hint shows none; a removed part takes its hint along', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint', 4: 'Third hint', 5: 'Beta hint' })));
    // Through steps (a structure transaction, as the workspace's loads are).
    const gamma = editor.state.schema.nodeFromJSON(section(9, 'Gamma', [p('Body G', 'p-gamma')]));
    run(() =>
      editor.view.dispatch(
        editor.state.tr.insert(editor.state.doc.child(0).nodeSize, gamma).setMeta(STRUCTURE_META, true),
      ),
    );
    expect(shown(editor).map(([id]) => id)).toEqual([uuid(1), uuid(4), uuid(5)]);
    const third = posOf(editor, 'Third') - 2;
    const thirdSize = editor.state.doc.nodeAt(third)?.nodeSize ?? 0;
    run(() =>
      editor.view.dispatch(editor.state.tr.delete(third, third + thirdSize).setMeta(STRUCTURE_META, true)),
    );
    expect(shown(editor).map(([id]) => id)).toEqual([uuid(1), uuid(5)]);
    // Through a load.
    run(() =>
      loadEditorContent(editor, withoutSection(editor.getJSON() as unknown as DocumentJson, uuid(1))),
    );
    expect(shown(editor)).toEqual([[uuid(5), 'Beta hint']]);
    expect(hintPlacements(editor.state)).toEqual(expectedPlacements(editor.state.doc, hints({ 5: 'x' })));
  });

  it('E29: removing the first block under a heading keeps the hint under the heading', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 2: 'First hint' })));
    const one = posOf(editor, 'One') - 1;
    const size = editor.state.doc.nodeAt(one)?.nodeSize ?? 0;
    run(() => editor.view.dispatch(editor.state.tr.delete(one, one + size)));
    const hint = editor.view.dom.querySelector<HTMLElement>(`.pw-hint[data-hint-for="${uuid(2)}"]`);
    expect(hint?.previousElementSibling?.textContent).toBe('First');
    expect(hint?.nextElementSibling?.textContent).toBe('One more');
  });

  it('E30: a hint keeps its element when the hints are placed again', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint', 5: 'Beta hint' })));
    const element = () => editor.view.dom.querySelector(`.pw-hint[data-hint-for="${uuid(5)}"]`);
    const before = element();
    const builds = hintBuilds(editor.state);
    // Another part's hint changes, and a subsection is removed: both place the hints again.
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint, longer', 5: 'Beta hint' })));
    const third = posOf(editor, 'Third') - 2;
    const size = editor.state.doc.nodeAt(third)?.nodeSize ?? 0;
    run(() =>
      editor.view.dispatch(editor.state.tr.delete(third, third + size).setMeta(STRUCTURE_META, true)),
    );
    expect(hintBuilds(editor.state)).toBe(builds + 2);
    expect(element()).not.toBeNull();
    expect(element()).toBe(before);
    // Its own text changing makes a new one.
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint, longer', 5: 'Beta hint, new' })));
    expect(element()).not.toBe(before);
    expect(element()?.textContent).toContain('Beta hint, new');
  });

  it('E29: after any sequence of edits and loads the mapped hints are where a fresh placement puts them', () => {
    const hinted = hints({
      1: 'Alpha hint',
      2: 'First hint',
      3: 'Second hint',
      4: 'Third hint',
      5: 'Beta hint',
    });
    const actions = fc.array(
      fc.record({
        at: fc.nat(),
        length: fc.nat({ max: 12 }),
        kind: fc.constantFrom(
          'type',
          'enter',
          'backspace',
          'delete',
          'undo',
          'redo',
          'paste',
          'move',
          'drop',
        ),
      }),
      { maxLength: 14 },
    );
    fc.assert(
      fc.property(actions, (steps) => {
        cleanup();
        const { editor } = renderPlanEditor();
        run(() => setStructureHints(editor, hinted));
        for (const step of steps) {
          const { doc } = editor.state;
          const clamp = (pos: number) => Math.min(pos, doc.content.size);
          const $from = doc.resolve(clamp(step.at % (doc.content.size + 1)));
          const $to = doc.resolve(clamp($from.pos + step.length));
          run(() => editor.view.dispatch(editor.state.tr.setSelection(TextSelection.between($from, $to))));
          if (step.kind === 'type') run(() => editor.commands.insertContent('a'));
          else if (step.kind === 'enter') press(editor, 'Enter');
          else if (step.kind === 'backspace') press(editor, 'Backspace');
          else if (step.kind === 'delete') press(editor, 'Delete');
          else if (step.kind === 'undo') run(() => editor.commands.undo());
          else if (step.kind === 'redo') run(() => editor.commands.redo());
          else if (step.kind === 'paste') run(() => editor.commands.insertContent('<p>one</p><p>two</p>'));
          else if (step.kind === 'move') {
            const json = editor.getJSON() as unknown as DocumentJson;
            const last = json.content.at(-1)?.attrs.uuid;
            const moved = last === undefined ? null : moveSectionTo(json, last, 0);
            if (moved?.ok) run(() => loadEditorContent(editor, moved.doc));
          } else {
            const json = editor.getJSON() as unknown as DocumentJson;
            const first = json.content[0]?.attrs.uuid;
            if (first !== undefined && json.content.length > 1) {
              run(() => loadEditorContent(editor, withoutSection(json, first)));
            }
          }
          expect(hintPlacements(editor.state)).toEqual(expectedPlacements(editor.state.doc, hinted));
        }
        expect(shown(editor).map(([id]) => id)).toEqual(
          expectedPlacements(editor.state.doc, hinted).map(([, id]) => id),
        );
      }),
      { numRuns: 25 },
    );
  });

  it('E26: the placeholder of an empty subsection still shows under its hint', () => {
    const content: DocumentJson = {
      type: 'doc',
      content: [section(1, 'Alpha', [p('Intro', 'p-intro')], [subsection(2, 'Empty', [p('', 'p-empty')])])],
    };
    const { editor } = renderPlanEditor({ content });
    run(() => setStructureHints(editor, hints({ 2: 'Fill me in.' })));
    select(editor, 1);
    const hint = editor.view.dom.querySelector<HTMLElement>(`.pw-hint[data-hint-for="${uuid(2)}"]`);
    const body = hint?.nextElementSibling as HTMLElement | null;
    expect(body?.tagName).toBe('P');
    expect(body?.dataset.placeholder).toBe(PLACEHOLDERS.subsectionBody);
  });

  it('E28: line breaks are kept, whatever their kind', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 1: 'One\r\nTwo\rThree\nFour' })));
    expect(shown(editor)).toEqual([[uuid(1), 'One\nTwo\nThree\nFour']]);
    expect(isLongHint('One\nTwo\nThree')).toBe(false);
    expect(isLongHint('One\nTwo\nThree\nFour')).toBe(true);
    expect(isLongHint('x'.repeat(241))).toBe(true);
  });

  it('E27: undo after hints were set undoes the typing only; the hints stay', () => {
    const { editor } = renderPlanEditor();
    select(editor, endOf(editor, 'Intro text'));
    run(() => editor.commands.insertContent('!'));
    run(() => setStructureHints(editor, hints({ 1: 'Alpha hint' })));
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).not.toContain('Intro text!');
    expect(editor.can().undo()).toBe(false);
    expect(shown(editor)).toEqual([[uuid(1), 'Alpha hint']]);
  });

  it('E29: the caret never stops in a hint: a selection the browser puts there is not taken, clicks on it are its own', () => {
    const { editor } = renderPlanEditor();
    run(() => setStructureHints(editor, hints({ 2: 'First hint' })));
    editor.view.focus();
    select(editor, endOf(editor, 'First'));
    const before = editor.state.selection.toJSON();
    const hint = editor.view.dom.querySelector<HTMLElement>(`.pw-hint[data-hint-for="${uuid(2)}"]`);
    const text = hint?.querySelector('.pw-hint-text')?.firstChild;
    if (!hint || !text) throw new Error('no hint');
    // The widget answers "not mine" for the selection and stops the editor's handling of its events.
    const desc = (
      hint as HTMLElement & {
        pmViewDesc?: { ignoreMutation(m: unknown): boolean; stopEvent(e: Event): boolean };
      }
    ).pmViewDesc;
    expect(desc?.ignoreMutation({ type: 'selection', target: text })).toBe(true);
    expect(desc?.stopEvent(new MouseEvent('mousedown'))).toBe(true);
    act(() => {
      document.getSelection()?.collapse(text, 3);
      document.dispatchEvent(new Event('selectionchange'));
    });
    act(() => {
      fireEvent.mouseDown(text);
      fireEvent.mouseUp(text);
    });
    expect(editor.state.selection.toJSON()).toEqual(before);
    // Where the browser's caret lands after ArrowDown (the first block: the hint is contenteditable=false).
    const first = editor.view.dom.querySelector(`.pw-hint[data-hint-for="${uuid(2)}"] + p`);
    expect(first?.textContent).toBe('One');
    expect(editor.view.posAtDOM(first?.firstChild as Node, 0)).toBe(posOf(editor, 'One'));
  });
});
