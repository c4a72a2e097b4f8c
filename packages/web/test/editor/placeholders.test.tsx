import { cleanup } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { applyBlockType } from '../../src/editor/block-commands.js';
import { PLACEHOLDERS, placeholderOf } from '../../src/editor/placeholder-plugin.js';
import {
  endOf,
  p,
  posOf,
  press,
  renderPlanEditor,
  run,
  section,
  select,
  subsection,
} from './editor-support.js';

afterEach(cleanup);

/** [tag, placeholder] of every element that shows one, in document order. */
function shown(editor: Editor): string[] {
  return [...editor.view.dom.querySelectorAll<HTMLElement>('[data-placeholder]')].map(
    (element) => `${element.tagName.toLowerCase()}:${element.dataset.placeholder}`,
  );
}

/** The structural placeholders computed from scratch, to compare the incremental ones with. */
function expected(editor: Editor): string[] {
  const out: string[] = [];
  editor.state.doc.descendants((node, _pos, parent, index) => {
    if (!node.isTextblock) return true;
    const text = placeholderOf(node, parent, index);
    if (text !== null) out.push(text);
    return false;
  });
  return out;
}

const EMPTY_TITLES = {
  type: 'doc' as const,
  content: [
    section(
      1,
      '',
      [
        p('', 'p-1'),
        { type: 'heading', attrs: { level: 3, nodeId: 'h-3' } },
        { type: 'heading', attrs: { level: 4, nodeId: 'h-4' } },
      ],
      [subsection(2, '', [p('', 'p-2')]), subsection(3, 'Full', [p('', 'p-3'), p('x', 'p-4')])],
    ),
    section(4, 'Only body', [p('', 'p-5')], [subsection(5, 'Sub', [p('y', 'p-6')])]),
  ],
};

describe('placeholders (E9)', () => {
  it('E9: titles, headings and the only body block of a section or subsection show theirs', () => {
    const { editor } = renderPlanEditor({ content: EMPTY_TITLES, editable: false });
    expect(shown(editor)).toEqual([
      `h1:${PLACEHOLDERS.sectionTitle}`,
      `h3:${PLACEHOLDERS.heading}`,
      `h4:${PLACEHOLDERS.subheading}`,
      `h2:${PLACEHOLDERS.subsectionTitle}`,
      `p:${PLACEHOLDERS.subsectionBody}`,
      `p:${PLACEHOLDERS.sectionBody}`,
    ]);
    // Shown by CSS from the attribute, on an element marked empty.
    for (const element of editor.view.dom.querySelectorAll('[data-placeholder]')) {
      expect(element.classList.contains('is-empty')).toBe(true);
    }
  });

  it('E9: the empty paragraph with the cursor says "Type something..." when nothing more specific applies', () => {
    const { editor } = renderPlanEditor({ content: EMPTY_TITLES });
    select(editor, endOf(editor, 'x') - 3);
    expect(shown(editor)).toContain(`p:${PLACEHOLDERS.cursor}`);
    // The structural one wins where there is one.
    select(editor, posOf(editor, 'Sub') - 2);
    expect(shown(editor)).not.toContain(`p:${PLACEHOLDERS.cursor}`);
  });

  it('E9: an empty document says "Start typing..."', () => {
    const { editor } = renderPlanEditor({
      content: { type: 'doc', content: [section(1, '', [p('', 'p-1')])] },
    });
    expect(shown(editor)).toEqual([`h1:${PLACEHOLDERS.sectionTitle}`, `p:${PLACEHOLDERS.emptyDocument}`]);
  });

  it('E9: typing removes a placeholder, Enter after an only block removes "only block" ones', () => {
    const { editor } = renderPlanEditor({ content: EMPTY_TITLES });
    select(editor, 2);
    run(() => editor.commands.insertContent('Title'));
    expect(shown(editor)).not.toContain(`h1:${PLACEHOLDERS.sectionTitle}`);
    // Into the subsection's only (empty) paragraph, then Enter: two blocks, no "only block" placeholder.
    const subsectionBody = editor.state.doc.child(0).child(4);
    const bodyPos =
      1 +
      editor.state.doc.child(0).content.size -
      subsectionBody.nodeSize -
      editor.state.doc.child(0).child(5).nodeSize;
    select(editor, bodyPos + 1 + subsectionBody.child(0).nodeSize + 1);
    press(editor, 'Enter');
    expect(shown(editor)).not.toContain(`p:${PLACEHOLDERS.subsectionBody}`);
    run(() => editor.commands.undo());
    expect(shown(editor)).toContain(`p:${PLACEHOLDERS.subsectionBody}`);
  });

  it('E9: after any sequence of edits the incremental placeholders equal a fresh computation', () => {
    const actions = fc.array(
      fc.record({
        at: fc.nat(),
        kind: fc.constantFrom('type', 'enter', 'backspace', 'delete', 'undo', 'heading', 'paragraph'),
      }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(actions, (steps) => {
        cleanup();
        const { editor } = renderPlanEditor({ content: EMPTY_TITLES });
        for (const step of steps) {
          const { doc } = editor.state;
          const at = TextSelection.near(doc.resolve(step.at % (doc.content.size + 1)));
          run(() => editor.view.dispatch(editor.state.tr.setSelection(at)));
          if (step.kind === 'type') run(() => editor.commands.insertContent('a'));
          else if (step.kind === 'enter') press(editor, 'Enter');
          else if (step.kind === 'backspace') press(editor, 'Backspace');
          else if (step.kind === 'delete') press(editor, 'Delete');
          else if (step.kind === 'undo') run(() => editor.commands.undo());
          // The block type control is off in titles (E20), so these only run in bodies.
          else if (at.$from.parent.type.name.endsWith('ectionHeading')) continue;
          else if (step.kind === 'heading') run(() => applyBlockType(editor, 'heading4'));
          else run(() => applyBlockType(editor, 'paragraph'));
          // Leave the cursor in a title so "Type something..." does not show.
          select(editor, 1);
          expect(shown(editor).map((entry) => entry.slice(entry.indexOf(':') + 1))).toEqual(expected(editor));
        }
      }),
      { numRuns: 25 },
    );
  });
});
