import { type DocumentOutline, outlineOf } from '@planwright/sdk';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SectionsSidebar, type SectionsSidebarProps } from '../../src/workspace/sections-sidebar';
import { memoryStorage } from '../support/render-app';
import { renderComponent } from './render-component';
import { hostileStrings, IDS, planContent } from './workspace-support';

afterEach(cleanup);

const OUTLINE = outlineOf(planContent());
const KEY = 'planwright:sidebar:document:doc-1';

function renderSidebar(overrides: Partial<SectionsSidebarProps> = {}, storage = memoryStorage()) {
  const props: SectionsSidebarProps = {
    documentUuid: 'doc-1',
    outline: OUTLINE,
    selection: { sectionUuid: IDS.market, subsectionUuid: null },
    cursor: null,
    busy: false,
    onSelect: vi.fn(),
    onRenameSection: vi.fn(async () => ({ ok: true as const, value: undefined })),
    onRenameSubsection: vi.fn(async () => ({ ok: true as const, value: undefined })),
    onDeleteSection: vi.fn(),
    onDeleteSubsection: vi.fn(),
    onMoveSection: vi.fn(),
    onMoveSubsection: vi.fn(),
    onDropSection: vi.fn(),
    ...overrides,
  };
  const view = renderComponent(<SectionsSidebar {...props} />, storage);
  return { ...view, props, nav: () => screen.getByRole('navigation', { name: 'Sections' }) };
}

function choose(actionsFor: string, item: 'Rename' | 'Delete' | 'Move up' | 'Move down') {
  fireEvent.click(screen.getByRole('button', { name: `Actions for ${actionsFor}` }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

describe('the list (SPEC.md W14)', () => {
  it('W14: "Sections", each section with its subsections in order, untitled items named', () => {
    const { nav } = renderSidebar();
    expect(within(nav()).getByRole('heading', { name: 'Sections' })).toBeTruthy();
    const sections = nav().querySelectorAll('[data-section-uuid]');
    expect([...sections].map((item) => item.getAttribute('data-section-uuid'))).toEqual([
      IDS.market,
      IDS.product,
      IDS.finance,
    ]);
    expect(within(nav()).getByRole('button', { name: 'Market' })).toBeTruthy();
    expect(within(nav()).getByRole('button', { name: 'Untitled Subsection' })).toBeTruthy();
    const market = nav().querySelector(`[data-section-uuid="${IDS.market}"]`) as HTMLElement;
    expect(
      [...market.querySelectorAll('[data-subsection-uuid]')].map((item) =>
        item.getAttribute('data-subsection-uuid'),
      ),
    ).toEqual([IDS.size, IDS.rivals]);
    expect(nav().style.width).toBe('260px');
  });

  it('W14: no sections gives "No sections available"', () => {
    renderSidebar({ outline: { sections: [] } });
    expect(screen.getByText('No sections available')).toBeTruthy();
  });

  it('W14: hide leaves a rail with Show sections; Show brings the list back', () => {
    renderSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Hide sections' }));
    expect(screen.queryByRole('button', { name: 'Market' })).toBeNull();
    const show = screen.getByRole('button', { name: 'Show sections' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(show);
    expect(screen.getByRole('button', { name: 'Market' })).toBeTruthy();
  });

  it('W14: titles are text in any script, never markup', () => {
    const titles = hostileStrings()
      .filter((value) => value.trim() !== '' && value.length < 80)
      .slice(0, 40);
    const outline: DocumentOutline = {
      sections: titles.map((title, index) => ({
        uuid: `s-${index}`,
        blueprintUuid: null,
        title,
        displayTitle: title,
        order: index + 1,
        subsections: [],
      })),
    };
    const { nav } = renderSidebar({ outline, selection: { sectionUuid: null, subsectionUuid: null } });
    expect(nav().querySelectorAll('[data-section-uuid]')).toHaveLength(titles.length);
    expect(nav().querySelector('script, img, iframe')).toBeNull();
    for (const [index, title] of titles.entries()) {
      const item = nav().querySelector(`[data-section-uuid="s-${index}"] span[dir="auto"]`);
      expect(item?.textContent).toBe(title);
    }
  });
});

describe('collapse (SPEC.md W15)', () => {
  it('W15: a section with subsections toggles them and the collapsed uuids are stored as a JSON list', () => {
    const { storage } = renderSidebar();
    expect(screen.queryByRole('button', { name: 'Collapse Product' })).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Collapse Market' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.queryByRole('button', { name: 'Size' })).toBeNull();
    expect(JSON.parse(storage.data.get(KEY) ?? 'null')).toEqual([IDS.market]);
    fireEvent.click(screen.getByRole('button', { name: 'Expand Market' }));
    expect(screen.getByRole('button', { name: 'Size' })).toBeTruthy();
    expect(JSON.parse(storage.data.get(KEY) ?? 'null')).toEqual([]);
  });

  it('W15: the stored list is read on arrival', () => {
    renderSidebar({}, memoryStorage({ [KEY]: JSON.stringify([IDS.finance, 'unknown']) }));
    expect(screen.getByRole('button', { name: 'Expand Finance' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Forecast' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Size' })).toBeTruthy();
  });

  it.each(['{oops', '"x"', '{"a":1}', '[1,2,null]'])(
    'W15: stored %s is tolerated as nothing collapsed',
    (raw) => {
      renderSidebar({}, memoryStorage({ [KEY]: raw }));
      expect(screen.getByRole('button', { name: 'Size' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Forecast' })).toBeTruthy();
    },
  );

  it('W15: storage that throws does not break the sidebar', () => {
    const broken = memoryStorage();
    broken.getItem = () => {
      throw new Error('blocked');
    };
    broken.setItem = () => {
      throw new Error('quota');
    };
    renderSidebar({}, broken);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse Market' }));
    expect(screen.queryByRole('button', { name: 'Size' })).toBeNull();
  });
});

describe('selection (SPEC.md W16)', () => {
  it('W16: a section click selects it without a subsection; a subsection click selects both', () => {
    const { props } = renderSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Finance' }));
    expect(props.onSelect).toHaveBeenLastCalledWith({ sectionUuid: IDS.finance, subsectionUuid: null });
    fireEvent.click(screen.getByRole('button', { name: 'Size' }));
    expect(props.onSelect).toHaveBeenLastCalledWith({ sectionUuid: IDS.market, subsectionUuid: IDS.size });
  });

  it('W16: the selected item is marked current; the cursor’s place is marked too', () => {
    renderSidebar({
      selection: { sectionUuid: IDS.market, subsectionUuid: IDS.size },
      cursor: { sectionUuid: IDS.finance, subsectionUuid: IDS.forecast },
    });
    expect(screen.getByRole('button', { name: 'Size' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('button', { name: 'Market' }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('button', { name: 'Forecast' }).getAttribute('data-cursor')).toBe('true');
    expect(document.querySelectorAll('[data-cursor]')).toHaveLength(1);
    expect(
      screen.getByRole('button', { name: 'Forecast' }).querySelector('[title="Cursor is here"]'),
    ).toBeTruthy();
  });
});

describe('actions and dialogs (SPEC.md W17)', () => {
  it('W17: Rename section: prefilled, Enter saves the trimmed title, the dialog closes', async () => {
    const { props } = renderSidebar();
    choose('Market', 'Rename');
    const dialog = screen.getByRole('dialog', { name: 'Rename section' });
    const field = within(dialog).getByLabelText('Title') as HTMLInputElement;
    expect(field.value).toBe('Market');
    fireEvent.change(field, { target: { value: '  Markets  ' } });
    fireEvent.submit(field.form as HTMLFormElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(props.onRenameSection).toHaveBeenCalledWith(IDS.market, 'Markets');
  });

  it('W17: an empty or unchanged title closes silently without a call', () => {
    const { props } = renderSidebar();
    choose('Size', 'Rename');
    const dialog = screen.getByRole('dialog', { name: 'Rename subsection' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    choose('Size', 'Rename');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(props.onRenameSubsection).not.toHaveBeenCalled();
  });

  it('W17: a failure stays open with the message; Cancel closes', async () => {
    const { props } = renderSidebar({
      onRenameSubsection: vi.fn(async () => ({ ok: false as const, message: 'Nope.' })),
    });
    choose('Untitled Subsection', 'Rename');
    const dialog = screen.getByRole('dialog', { name: 'Rename subsection' });
    const field = within(dialog).getByLabelText('Title') as HTMLInputElement;
    expect(field.value).toBe('');
    expect(field.placeholder).toBe('Untitled Subsection');
    fireEvent.change(field, { target: { value: 'Rivals' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Nope.');
    expect(props.onRenameSubsection).toHaveBeenCalledWith(IDS.market, IDS.rivals, 'Rivals');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('W17: a title the rule refuses says why and sends nothing', () => {
    const { props } = renderSidebar();
    choose('Market', 'Rename');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'x'.repeat(201) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('dialog', { name: 'Rename section' }).textContent).toMatch(/200/);
    expect(props.onRenameSection).not.toHaveBeenCalled();
  });

  it('W17: Delete section? says it cannot be undone; Cancel (focused) keeps it, Delete deletes', () => {
    const { props } = renderSidebar();
    choose('Product', 'Delete');
    let dialog = screen.getByRole('dialog', { name: 'Delete section?' });
    expect(dialog.textContent).toContain('This action cannot be undone.');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.click(cancel);
    expect(props.onDeleteSection).not.toHaveBeenCalled();
    choose('Product', 'Delete');
    dialog = screen.getByRole('dialog', { name: 'Delete section?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(props.onDeleteSection).toHaveBeenCalledWith(IDS.product);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('W17: Delete subsection? names the subsection and deletes it', () => {
    const { props } = renderSidebar();
    choose('Forecast', 'Delete');
    const dialog = screen.getByRole('dialog', { name: 'Delete subsection?' });
    expect(dialog.textContent).toContain('Forecast');
    expect(dialog.textContent).toContain('This action cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(props.onDeleteSubsection).toHaveBeenCalledWith(IDS.finance, IDS.forecast);
  });

  it('W17/W21: Move up and Move down ask for the move (edges are the workspace’s rule)', () => {
    const { props } = renderSidebar();
    choose('Product', 'Move up');
    expect(props.onMoveSection).toHaveBeenLastCalledWith(IDS.product, 'up');
    choose('Product', 'Move down');
    expect(props.onMoveSection).toHaveBeenLastCalledWith(IDS.product, 'down');
    choose('Size', 'Move down');
    expect(props.onMoveSubsection).toHaveBeenLastCalledWith(IDS.market, IDS.size, 'down');
  });

  it('W19: while a structure call runs, no dialog opens', () => {
    renderSidebar({ busy: true });
    choose('Market', 'Rename');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('W18: every section has a keyboard-reachable reorder handle named by its title', () => {
    renderSidebar();
    const handle = screen.getByRole('button', { name: 'Reorder Market' });
    expect(handle.getAttribute('aria-roledescription')).toBe('sortable');
    expect(handle.tabIndex).toBe(0);
  });
});

describe('drag and drop (SPEC.md W18)', () => {
  /** happy-dom lays nothing out: each section row is 40 px high, one under the other. */
  function layOut() {
    const original = Element.prototype.getBoundingClientRect;
    const spy = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: Element,
    ) {
      const item = this.closest('[data-section-uuid]');
      if (!item) return original.call(this);
      const index = [...document.querySelectorAll('[data-section-uuid]')].indexOf(item);
      const top = index * 40;
      return {
        x: 0,
        y: top,
        top,
        left: 0,
        right: 260,
        bottom: top + 40,
        width: 260,
        height: 40,
        toJSON: () => ({}),
      };
    });
    return spy;
  }

  it('W18: the keyboard picks a section up, shows the drop line where it will land, and drops it there', async () => {
    const spy = layOut();
    try {
      const { props } = renderSidebar();
      const handle = screen.getByRole('button', { name: 'Reorder Market' });
      handle.focus();
      fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
      await waitFor(() => expect(handle.getAttribute('aria-pressed')).toBe('true'));
      fireEvent.keyDown(document, { key: 'ArrowDown', code: 'ArrowDown' });
      fireEvent.keyDown(document, { key: 'ArrowDown', code: 'ArrowDown' });
      await waitFor(() => expect(screen.getByTestId('drop-indicator')).toBeTruthy());
      const finance = document.querySelector(`[data-section-uuid="${IDS.finance}"]`) as HTMLElement;
      // Moving down, the line is drawn after the section it lands on.
      expect(finance.lastElementChild?.getAttribute('data-testid')).toBe('drop-indicator');
      fireEvent.keyDown(document, { key: ' ', code: 'Space' });
      await waitFor(() => expect(props.onDropSection).toHaveBeenCalledWith(IDS.market, 2));
      expect(screen.queryByTestId('drop-indicator')).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });

  it('W18: Escape cancels a drag without a drop', async () => {
    const spy = layOut();
    try {
      const { props } = renderSidebar();
      const handle = screen.getByRole('button', { name: 'Reorder Finance' });
      handle.focus();
      fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
      await waitFor(() => expect(handle.getAttribute('aria-pressed')).toBe('true'));
      fireEvent.keyDown(document, { key: 'ArrowUp', code: 'ArrowUp' });
      await waitFor(() => expect(screen.getByTestId('drop-indicator')).toBeTruthy());
      fireEvent.keyDown(document, { key: 'Escape', code: 'Escape' });
      await waitFor(() => expect(handle.getAttribute('aria-pressed')).not.toBe('true'));
      expect(screen.queryByTestId('drop-indicator')).toBeNull();
      expect(props.onDropSection).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
