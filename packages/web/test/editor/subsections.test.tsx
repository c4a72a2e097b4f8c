import { cleanup, fireEvent } from '@testing-library/react';
import type { NodeType } from '@tiptap/pm/model';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSubsectionFinalizedInEditor } from '../../src/editor/index.js';
import { endOf, planDocument, posOf, press, renderPlanEditor, run, select, uuid } from './editor-support.js';

afterEach(cleanup);

function wrapper(container: HTMLElement, id: number): HTMLElement {
  const element = container.querySelector<HTMLElement>(`[data-subsection-uuid="${uuid(id)}"]`);
  if (element === null) throw new Error(`no subsection ${id}`);
  return element;
}

function control(container: HTMLElement, id: number, label: string): HTMLButtonElement {
  const element = wrapper(container, id).querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
  if (element === null) throw new Error(`no "${label}" on subsection ${id}`);
  return element;
}

describe('finalized subsections are read-only (E3)', () => {
  it('E3: typing, marks, block changes and deletes inside a finalized subsection are refused', () => {
    const { editor } = renderPlanEditor();
    const before = editor.getJSON();
    const inside = posOf(editor, 'Two locked') + 3;
    run(() => editor.view.dispatch(editor.state.tr.insertText('x', inside)));
    run(() => editor.view.dispatch(editor.state.tr.addMark(inside, inside + 3, editor.schema.mark('bold'))));
    run(() =>
      editor.view.dispatch(
        editor.state.tr.setBlockType(inside, inside, editor.schema.nodes.heading as NodeType, { level: 3 }),
      ),
    );
    run(() => editor.view.dispatch(editor.state.tr.delete(inside - 3, inside + 2)));
    run(() => editor.view.dispatch(editor.state.tr.insertText('y', posOf(editor, 'Second'))));
    select(editor, inside);
    press(editor, 'Enter');
    press(editor, 'Backspace');
    expect(editor.getJSON()).toEqual(before);
  });

  it('E3: a range that ends inside a finalized subsection is refused; edits next to it are not', () => {
    const { editor } = renderPlanEditor();
    const before = editor.getJSON();
    run(() =>
      editor.view.dispatch(
        editor.state.tr.delete(posOf(editor, 'One more') + 2, posOf(editor, 'Two locked') + 2),
      ),
    );
    expect(editor.getJSON()).toEqual(before);
    run(() => editor.view.dispatch(editor.state.tr.insertText('!', endOf(editor, 'One more'))));
    run(() => editor.view.dispatch(editor.state.tr.insertText('!', endOf(editor, 'Three'))));
    expect(editor.state.doc.textContent).toContain('One more!');
    expect(editor.state.doc.textContent).toContain('Three!');
  });

  it('E3: its content is not contenteditable, looks muted, and its control says "Continue editing"', () => {
    const { container } = renderPlanEditor();
    const locked = wrapper(container, 3);
    expect(locked.dataset.finalized).toBe('true');
    expect(locked.classList.contains('pw-finalized')).toBe(true);
    expect(locked.querySelector('.pw-subsection-content')?.getAttribute('contenteditable')).toBe('false');
    expect(control(container, 3, 'Continue editing').textContent).toBe('Continue editing');
    expect(wrapper(container, 2).dataset.finalized).toBe('false');
    expect(control(container, 2, 'Finalize subsection').textContent).toBe('Finalize subsection');
  });

  it('E17: setSubsectionFinalizedInEditor is one undoable edit that calls onEdit; unknown uuids give false', () => {
    const { editor, container, onEdit } = renderPlanEditor();
    expect(run(() => setSubsectionFinalizedInEditor(editor, uuid(2), true))).toBe(true);
    expect(onEdit).toHaveBeenCalledTimes(1);
    expect(wrapper(container, 2).dataset.finalized).toBe('true');
    expect(control(container, 2, 'Continue editing')).toBeTruthy();
    // Now locked: typing inside is refused.
    const text = editor.state.doc.textContent;
    run(() => editor.view.dispatch(editor.state.tr.insertText('x', posOf(editor, 'One') + 1)));
    expect(editor.state.doc.textContent).toBe(text);
    run(() => editor.commands.undo());
    expect(wrapper(container, 2).dataset.finalized).toBe('false');
    expect(onEdit).toHaveBeenCalledTimes(2);
    // The same value changes nothing; an unknown subsection (or a section uuid) is not found.
    expect(run(() => setSubsectionFinalizedInEditor(editor, uuid(2), false))).toBe(true);
    expect(onEdit).toHaveBeenCalledTimes(2);
    expect(setSubsectionFinalizedInEditor(editor, uuid(99), true)).toBe(false);
    expect(setSubsectionFinalizedInEditor(editor, uuid(1), true)).toBe(false);
  });

  it('E3: reopening a finalized subsection makes it editable again', () => {
    const { editor, container } = renderPlanEditor();
    run(() => setSubsectionFinalizedInEditor(editor, uuid(3), false));
    run(() => editor.view.dispatch(editor.state.tr.insertText('!', endOf(editor, 'Two locked'))));
    expect(editor.state.doc.textContent).toContain('Two locked!');
    // Editable again by inheritance (never an explicit "true", which would beat a read-only editor).
    const content = wrapper(container, 3).querySelector('.pw-subsection-content');
    expect(content?.hasAttribute('contenteditable')).toBe(false);
  });
});

describe('subsection controls (E10, E11)', () => {
  it('E10: move up, move down and delete call the canvas with the section and subsection uuids', () => {
    const { container, actions } = renderPlanEditor();
    fireEvent.click(control(container, 4, 'Move subsection up'));
    fireEvent.click(control(container, 2, 'Move subsection down'));
    fireEvent.click(control(container, 3, 'Delete subsection'));
    expect(actions.moveSubsection.mock.calls).toEqual([
      [uuid(1), uuid(4), 'up'],
      [uuid(1), uuid(2), 'down'],
    ]);
    expect(actions.deleteSubsection.mock.calls).toEqual([[uuid(1), uuid(3)]]);
  });

  it('E10: the first subsection cannot move up, the last cannot move down', () => {
    const { container, actions } = renderPlanEditor();
    expect(control(container, 2, 'Move subsection up').disabled).toBe(true);
    expect(control(container, 2, 'Move subsection down').disabled).toBe(false);
    expect(control(container, 4, 'Move subsection down').disabled).toBe(true);
    expect(control(container, 3, 'Move subsection up').disabled).toBe(false);
    // A disabled button forced through (a stale DOM) still does nothing.
    control(container, 2, 'Move subsection up').disabled = false;
    fireEvent.click(control(container, 2, 'Move subsection up'));
    expect(actions.moveSubsection).not.toHaveBeenCalled();
  });

  it('E11: Finalize subsection and Continue editing ask the canvas for the opposite state', () => {
    const { container, actions } = renderPlanEditor();
    fireEvent.click(control(container, 2, 'Finalize subsection'));
    fireEvent.click(control(container, 3, 'Continue editing'));
    expect(actions.setFinalized.mock.calls).toEqual([
      [uuid(1), uuid(2), true],
      [uuid(1), uuid(3), false],
    ]);
  });

  it('E10: the controls are buttons in the tab order, outside the editable content', () => {
    const { container } = renderPlanEditor();
    const controls = wrapper(container, 2).querySelector('.pw-subsection-controls');
    expect(controls?.getAttribute('contenteditable')).toBe('false');
    const labels = [...(controls?.querySelectorAll('button') ?? [])].map((button) => [
      button.getAttribute('aria-label'),
      button.type,
      button.tabIndex,
    ]);
    expect(labels).toEqual([
      ['Move subsection up', 'button', 0],
      ['Move subsection down', 'button', 0],
      ['Delete subsection', 'button', 0],
      ['Finalize subsection', 'button', 0],
    ]);
  });

  it('E10: the canvas callbacks are read when clicked, so the latest ones run', () => {
    const view = renderPlanEditor();
    const later = { moveSubsection: vi.fn(), deleteSubsection: vi.fn(), setFinalized: vi.fn() };
    view.rerender({ canvas: later });
    fireEvent.click(control(view.container, 4, 'Delete subsection'));
    expect(later.deleteSubsection).toHaveBeenCalledWith(uuid(1), uuid(4));
    expect(view.actions.deleteSubsection).not.toHaveBeenCalled();
  });

  it('E10: a read-only editor ignores the controls', () => {
    const view = renderPlanEditor({ editable: false });
    fireEvent.click(control(view.container, 4, 'Delete subsection'));
    fireEvent.click(control(view.container, 2, 'Finalize subsection'));
    expect(view.actions.deleteSubsection).not.toHaveBeenCalled();
    expect(view.actions.setFinalized).not.toHaveBeenCalled();
  });

  it('E10: wrappers carry data-section-uuid and data-subsection-uuid; sections data-section-uuid', () => {
    const { container } = renderPlanEditor();
    const sections = [...container.querySelectorAll<HTMLElement>('section.pw-section')].map(
      (element) => element.dataset.sectionUuid,
    );
    expect(sections).toEqual([uuid(1), uuid(5)]);
    const subsections = [...container.querySelectorAll<HTMLElement>('.pw-subsection')].map((element) => [
      element.dataset.sectionUuid,
      element.dataset.subsectionUuid,
    ]);
    expect(subsections).toEqual([
      [uuid(1), uuid(2)],
      [uuid(1), uuid(3)],
      [uuid(1), uuid(4)],
    ]);
    expect(planDocument().content).toHaveLength(2);
  });
});
