import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shouldShowBubble } from '../../src/editor/bubble-toolbar.js';
import { endOf, p, posOf, renderPlanEditor, run, section, select, subsection } from './editor-support.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const FORMATTING = [
  'Bold',
  'Italic',
  'Underline',
  'Strike',
  'Code',
  'Clear Marks',
  'Bulleted List',
  'Numbered List',
  'Clear Nodes',
];

function toolbar(): HTMLElement {
  return screen.getByRole('toolbar', { name: 'Editor toolbar' });
}

function button(label: string): HTMLButtonElement {
  return within(toolbar()).getByRole('button', { name: label }) as HTMLButtonElement;
}

function blockType(): HTMLSelectElement {
  return within(toolbar()).getByRole('combobox', { name: 'Block type' }) as HTMLSelectElement;
}

function enabledFormatting(): string[] {
  return FORMATTING.filter((label) => !button(label).disabled);
}

function openInsertMenu(): HTMLElement {
  fireEvent.click(within(toolbar()).getByRole('button', { name: '+ AI' }));
  return screen.getByRole('menu', { name: 'Insert' });
}

describe('the editor toolbar (E20–E22)', () => {
  it('E20: every control is there with its exact label; marks carry aria-pressed', () => {
    renderPlanEditor();
    for (const label of ['Undo', 'Redo', ...FORMATTING, 'Indent', 'Outdent'])
      expect(button(label)).toBeTruthy();
    for (const label of ['Bold', 'Italic', 'Underline', 'Strike', 'Code']) {
      expect(button(label).getAttribute('aria-pressed')).toBe('false');
    }
    expect([...blockType().options].map((option) => option.text)).toEqual([
      'Normal Text',
      'Heading 3',
      'Heading 4',
      'Quote',
      'Code Block',
      'Horizontal Rule',
      'Hard Break',
    ]);
  });

  it('E20: formatting is enabled in a body and disabled in titles and finalized subsections', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One') + 1);
    expect(enabledFormatting()).toEqual(FORMATTING);
    expect(blockType().disabled).toBe(false);
    for (const title of ['Alpha', 'First']) {
      select(editor, posOf(editor, title) + 1);
      expect(enabledFormatting()).toEqual([]);
      expect(blockType().disabled).toBe(true);
      expect(button('Indent').disabled).toBe(true);
    }
    select(editor, posOf(editor, 'Two locked') + 1);
    expect(enabledFormatting()).toEqual([]);
    expect(blockType().disabled).toBe(true);
  });

  it('E20: a read-only editor, or a disabled toolbar, has every control off', () => {
    const view = renderPlanEditor({ editable: false });
    select(view.editor, posOf(view.editor, 'One') + 1);
    expect(enabledFormatting()).toEqual([]);
    expect(button('Undo').disabled).toBe(true);
    cleanup();
    const busy = renderPlanEditor({ disabled: true });
    select(busy.editor, posOf(busy.editor, 'One') + 1);
    expect(enabledFormatting()).toEqual([]);
    expect((within(toolbar()).getByRole('button', { name: '+ AI' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('E20: editable follows the option: turning it off disables the toolbar and the canvas', () => {
    const view = renderPlanEditor();
    select(view.editor, posOf(view.editor, 'One') + 1);
    act(() => view.rerender({ editable: false }));
    expect(view.editor.isEditable).toBe(false);
    expect(enabledFormatting()).toEqual([]);
    act(() => view.rerender({ editable: true }));
    expect(enabledFormatting()).toEqual(FORMATTING);
  });

  it('E20: Bold toggles the mark on the selection and shows as pressed; Clear Marks removes it', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One more'), endOf(editor, 'One more'));
    fireEvent.click(button('Bold'));
    expect(editor.isActive('bold')).toBe(true);
    expect(button('Bold').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(button('Clear Marks'));
    expect(editor.isActive('bold')).toBe(false);
    expect(button('Bold').getAttribute('aria-pressed')).toBe('false');
  });

  it('E20: Undo and Redo follow the history', () => {
    const { editor } = renderPlanEditor();
    expect(button('Undo').disabled).toBe(true);
    select(editor, endOf(editor, 'One'));
    run(() => editor.commands.insertContent('!'));
    expect(button('Undo').disabled).toBe(false);
    fireEvent.click(button('Undo'));
    expect(editor.state.doc.textContent).not.toContain('One!');
    expect(button('Redo').disabled).toBe(false);
    fireEvent.click(button('Redo'));
    expect(editor.state.doc.textContent).toContain('One!');
  });

  it('E21: Normal Text and Clear Nodes work in a section body too (no Tiptap clearNodes there)', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'Intro text') + 1);
    fireEvent.change(blockType(), { target: { value: 'paragraph' } });
    fireEvent.click(button('Clear Nodes'));
    fireEvent.click(button('Bulleted List'));
    expect(editor.isActive('bulletList')).toBe(true);
    fireEvent.click(button('Clear Nodes'));
    expect(editor.isActive('bulletList')).toBe(false);
    fireEvent.change(blockType(), { target: { value: 'heading4' } });
    fireEvent.click(button('Clear Nodes'));
    expect(editor.state.selection.$head.parent.type.name).toBe('paragraph');
    expect(() => editor.state.doc.check()).not.toThrow();
  });

  it('E20: lists and Clear Nodes', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One more') + 1);
    fireEvent.click(button('Bulleted List'));
    expect(editor.isActive('bulletList')).toBe(true);
    expect(button('Bulleted List').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(button('Numbered List'));
    expect(editor.isActive('orderedList')).toBe(true);
    fireEvent.click(button('Clear Nodes'));
    expect(editor.isActive('orderedList')).toBe(false);
  });

  it('E15: Indent and Outdent move a paragraph by one level within 0–8', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One more') + 1);
    expect(button('Outdent').disabled).toBe(true);
    for (let level = 0; level < 10; level++) {
      if (!button('Indent').disabled) fireEvent.click(button('Indent'));
    }
    const paragraph = () => editor.state.selection.$head.parent;
    expect(paragraph().attrs.indent).toBe(8);
    expect(button('Indent').disabled).toBe(true);
    expect((editor.view.dom.querySelector('[data-indent="8"]') as HTMLElement).style.marginLeft).toBe(
      '192px',
    );
    fireEvent.click(button('Outdent'));
    expect(paragraph().attrs.indent).toBe(7);
  });

  it('E21: the block type dropdown shows and sets the block type', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One more') + 1);
    expect(blockType().value).toBe('paragraph');
    fireEvent.change(blockType(), { target: { value: 'heading3' } });
    expect(editor.state.selection.$head.parent.attrs.level).toBe(3);
    expect(blockType().value).toBe('heading3');
    fireEvent.change(blockType(), { target: { value: 'heading4' } });
    expect(blockType().value).toBe('heading4');
    fireEvent.change(blockType(), { target: { value: 'codeBlock' } });
    expect(editor.state.selection.$head.parent.type.name).toBe('codeBlock');
    fireEvent.change(blockType(), { target: { value: 'paragraph' } });
    fireEvent.change(blockType(), { target: { value: 'blockquote' } });
    expect(blockType().value).toBe('blockquote');
    fireEvent.change(blockType(), { target: { value: 'paragraph' } });
    expect(editor.isActive('blockquote')).toBe(false);
    fireEvent.change(blockType(), { target: { value: 'hardBreak' } });
    fireEvent.change(blockType(), { target: { value: 'horizontalRule' } });
    const types: string[] = [];
    editor.state.doc.descendants((node) => {
      types.push(node.type.name);
    });
    expect(types).toContain('hardBreak');
    expect(types).toContain('horizontalRule');
    expect(() => editor.state.doc.check()).not.toThrow();
    // A forged value does nothing.
    const before = editor.getJSON();
    fireEvent.change(blockType(), { target: { value: 'sectionHeading' } });
    expect(editor.getJSON()).toEqual(before);
  });

  it('E22: the "+ AI" menu calls back for New Section and New Subsection', () => {
    const { editor, onNewSection, onNewSubsection } = renderPlanEditor();
    select(editor, posOf(editor, 'One') + 1);
    const menu = openInsertMenu();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'New Subsection' }));
    expect(onNewSubsection).toHaveBeenCalledTimes(1);
    fireEvent.click(within(openInsertMenu()).getByRole('menuitem', { name: 'New Section' }));
    expect(onNewSection).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('E22: New Subsection is disabled when the cursor is in no section with a uuid; Escape closes the menu', () => {
    const { editor, onNewSubsection } = renderPlanEditor({
      content: { type: 'doc', content: [section(null, 'No id', [p('x', 'p-x')], [subsection(2, 'S', [])])] },
    });
    select(editor, posOf(editor, 'x'));
    const menu = openInsertMenu();
    const item = within(menu).getByRole('menuitem', { name: 'New Subsection' }) as HTMLButtonElement;
    expect(item.disabled).toBe(true);
    fireEvent.click(item);
    expect(onNewSubsection).not.toHaveBeenCalled();
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('E20a, A5: the toolbar is one tab stop, on the control used last while it is enabled', () => {
    const { editor } = renderPlanEditor();
    const stops = () => [...toolbar().querySelectorAll('[tabindex="0"]')];
    expect(stops()).toEqual([within(toolbar()).getByRole('button', { name: '+ AI' })]);
    select(editor, posOf(editor, 'One') + 1);
    act(() => button('Italic').focus());
    expect(stops()).toEqual([button('Italic')]);
    // In a title Italic is off: the stop goes back to the first control.
    select(editor, 2);
    expect(button('Italic').disabled).toBe(true);
    expect(stops()).toEqual([within(toolbar()).getByRole('button', { name: '+ AI' })]);
  });

  it('E20a, A5: Home, End and arrows (also from the block type select); Escape goes back to the editor', async () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One') + 1);
    act(() => button('Bold').focus());
    fireEvent.keyDown(button('Bold'), { key: 'End' });
    expect(document.activeElement).toBe(button('Indent'));
    fireEvent.keyDown(button('Indent'), { key: 'Home' });
    expect(document.activeElement).toBe(within(toolbar()).getByRole('button', { name: '+ AI' }));
    act(() => button('Bold').focus());
    fireEvent.keyDown(button('Bold'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(blockType());
    fireEvent.keyDown(blockType(), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(button('Bold'));
    fireEvent.keyDown(button('Bold'), { key: 'Escape' });
    // Tiptap's focus command waits a frame.
    await waitFor(() => expect(document.activeElement).toBe(editor.view.dom));
  });

  it('E20a, A5: Alt+F10 in the editor focuses the toolbar on its tab stop; elsewhere it does nothing', () => {
    vi.useFakeTimers();
    const { editor } = renderPlanEditor();
    act(() => vi.runOnlyPendingTimers());
    select(editor, posOf(editor, 'One') + 1);
    act(() => editor.view.focus());
    fireEvent.keyDown(editor.view.dom, { key: 'F10', altKey: true });
    expect(document.activeElement).toBe(within(toolbar()).getByRole('button', { name: '+ AI' }));
    act(() => button('Bold').focus());
    act(() => editor.view.focus());
    fireEvent.keyDown(editor.view.dom, { key: 'F10', altKey: true });
    expect(document.activeElement).toBe(button('Bold'));
    act(() => editor.view.focus());
    fireEvent.keyDown(document.body, { key: 'F10', altKey: true });
    expect(document.activeElement).not.toBe(button('Bold'));
  });

  it('E22, A8: ArrowDown on "+ AI" opens the insert menu on its first item, ArrowUp on its last enabled', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One') + 1);
    const insert = within(toolbar()).getByRole('button', { name: '+ AI' });
    act(() => insert.focus());
    fireEvent.keyDown(insert, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('New Section');
    fireEvent.keyDown(screen.getByRole('menu', { name: 'Insert' }), { key: 'Escape' });
    expect(document.activeElement).toBe(insert);
    fireEvent.keyDown(insert, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('New Subsection');
  });

  it('E20: arrow keys move between the toolbar controls', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One') + 1);
    act(() => button('Bold').focus());
    fireEvent.keyDown(button('Bold'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(button('Italic'));
    fireEvent.keyDown(button('Italic'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(button('Bold'));
  });
});

describe('the bubble toolbar (E23)', () => {
  function bubbleProps(editor: Editor, focused: boolean) {
    const { from, to } = editor.state.selection;
    const view = { ...editor.view, hasFocus: () => focused } as typeof editor.view;
    return { editor, element: document.createElement('div'), view, state: editor.state, from, to };
  }

  it('E23: shows only on a non-empty text selection in a focused, editable editor', () => {
    const { editor } = renderPlanEditor();
    select(editor, posOf(editor, 'One more'), endOf(editor, 'One more'));
    expect(shouldShowBubble(bubbleProps(editor, true))).toBe(true);
    expect(shouldShowBubble(bubbleProps(editor, false))).toBe(false);
    select(editor, posOf(editor, 'One more'));
    expect(shouldShowBubble(bubbleProps(editor, true))).toBe(false);
    select(editor, posOf(editor, 'One more'), endOf(editor, 'One more'));
    run(() => editor.setEditable(false));
    expect(shouldShowBubble(bubbleProps(editor, true))).toBe(false);
  });

  it('E23: appears over a selection in the focused editor, with Bold and Italic; disabled in titles', () => {
    vi.useFakeTimers();
    const { editor } = renderPlanEditor();
    act(() => editor.view.focus());
    select(editor, posOf(editor, 'One more'), endOf(editor, 'One more'));
    act(() => vi.advanceTimersByTime(300));
    const bubble = screen.getByRole('toolbar', { name: 'Selection formatting' });
    const bold = within(bubble).getByRole('button', { name: 'Bold' }) as HTMLButtonElement;
    const italic = within(bubble).getByRole('button', { name: 'Italic' }) as HTMLButtonElement;
    fireEvent.click(italic);
    expect(editor.isActive('italic')).toBe(true);
    expect(italic.getAttribute('aria-pressed')).toBe('true');
    expect(bold.getAttribute('aria-pressed')).toBe('false');
    select(editor, posOf(editor, 'First'), endOf(editor, 'First'));
    act(() => vi.advanceTimersByTime(300));
    expect(bold.disabled).toBe(true);
    expect(italic.disabled).toBe(true);
    // A collapsed selection hides it.
    select(editor, posOf(editor, 'One more'));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByRole('toolbar', { name: 'Selection formatting' })).toBeNull();
  });
});
