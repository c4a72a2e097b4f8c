import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConflictDialog } from '../../src/workspace/conflict-dialog';
import { SaveStatusBadge } from '../../src/workspace/save-status-badge';
import type { StructureOutcome } from '../../src/workspace/structure-actions';
import { TitleEditor } from '../../src/workspace/title-editor';
import { planContent } from './workspace-support';

afterEach(cleanup);

const OK: StructureOutcome = { ok: true, value: undefined };

function renderTitle(title = 'Acme plan', onSave = vi.fn(async (_title: string) => OK), disabled = false) {
  render(<TitleEditor title={title} onSave={onSave} disabled={disabled} />);
  return { onSave, field: () => screen.getByRole('textbox', { name: 'Document title' }) as HTMLInputElement };
}

describe('inline title editor (SPEC.md W11)', () => {
  it('W11: the title is a button; clicked it becomes a focused field with Save and Cancel', () => {
    const { field } = renderTitle();
    fireEvent.click(screen.getByRole('button', { name: 'Acme plan' }));
    expect(field().value).toBe('Acme plan');
    expect(field().placeholder).toBe('Untitled Document');
    expect(document.activeElement).toBe(field());
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('W11: an empty title shows "Untitled Document"', () => {
    renderTitle('  ');
    expect(screen.getByRole('button', { name: 'Untitled Document' })).toBeTruthy();
  });

  it('W11: Escape cancels without a call, and the focus goes back to the title', () => {
    const { onSave, field } = renderTitle();
    fireEvent.click(screen.getByRole('button', { name: 'Acme plan' }));
    fireEvent.change(field(), { target: { value: 'Changed' } });
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Acme plan' }));
    expect(onSave).not.toHaveBeenCalled();
  });

  it('W11: an unchanged title just closes; an empty one does nothing', () => {
    const { onSave, field } = renderTitle();
    fireEvent.click(screen.getByRole('button', { name: 'Acme plan' }));
    fireEvent.change(field(), { target: { value: '   ' } });
    fireEvent.submit(field().form as HTMLFormElement);
    expect(field()).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(field(), { target: { value: ' Acme plan ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('W11: Enter saves the trimmed title; everything is disabled while saving', async () => {
    let finish: (outcome: StructureOutcome) => void = () => {};
    const onSave = vi.fn(
      (_title: string) =>
        new Promise<StructureOutcome>((resolve) => {
          finish = resolve;
        }),
    );
    const { field } = renderTitle('Acme plan', onSave);
    fireEvent.click(screen.getByRole('button', { name: 'Acme plan' }));
    fireEvent.change(field(), { target: { value: '  Acme 2027 ' } });
    fireEvent.submit(field().form as HTMLFormElement);
    expect(onSave).toHaveBeenCalledWith('Acme 2027');
    expect(field().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect(field()).toBeTruthy();
    await act(async () => finish(OK));
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it.each([
    ['', 'Failed to save title'],
    ['This document was changed elsewhere.', 'This document was changed elsewhere.'],
  ])('W11: a failure with message %j shows %j and keeps the field', async (message, shown) => {
    const { field } = renderTitle(
      'Acme plan',
      vi.fn(async () => ({ ok: false as const, message })),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Acme plan' }));
    fireEvent.change(field(), { target: { value: 'New' } });
    fireEvent.submit(field().form as HTMLFormElement);
    expect((await screen.findByRole('alert')).textContent).toBe(shown);
    expect(field().value).toBe('New');
    expect(field().disabled).toBe(false);
  });

  it('W11: a title the SDK refuses shows its rule and sends nothing', () => {
    const { onSave, field } = renderTitle();
    fireEvent.click(screen.getByRole('button', { name: 'Acme plan' }));
    fireEvent.change(field(), { target: { value: 'a\u0000b' } });
    fireEvent.submit(field().form as HTMLFormElement);
    expect(screen.getByRole('alert').textContent).not.toBe('');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('W11/W19: disabled while a structure call runs', () => {
    renderTitle('Acme plan', undefined, true);
    const button = screen.getByRole('button', { name: 'Acme plan' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('save-status badge (SPEC.md W8)', () => {
  const base = { status: 'idle', dirty: false, failure: null, retry: null } as const;
  const badge = () => screen.getByRole('status', { name: 'Save status' });

  it.each([
    [{ ...base, status: 'saving', dirty: true }, 'Saving…'],
    [{ ...base, dirty: true }, 'Unsaved changes'],
    [{ ...base, status: 'saved' }, 'Saved'],
    [base, 'Saved'],
    [{ ...base, status: 'error', dirty: true }, 'Error saving'],
  ] as const)('W8: %o shows and tells %s', (snapshot, label) => {
    render(<SaveStatusBadge snapshot={snapshot} />);
    expect(badge().textContent).toBe(label);
    expect(badge().getAttribute('aria-live')).toBe('polite');
    expect(badge().parentElement?.getAttribute('data-tip')).toBe(label);
  });

  it('W8: a failed first read is Error saving', () => {
    render(<SaveStatusBadge snapshot={base} loadFailed />);
    expect(badge().textContent).toBe('Error saving');
  });

  it('W8: a network failure waiting for its retry adds Offline — retrying', () => {
    render(
      <SaveStatusBadge
        snapshot={{
          status: 'error',
          dirty: true,
          failure: { kind: 'network', message: 'down', error: null },
          retry: { attempt: 2, at: 0 },
        }}
      />,
    );
    expect(badge().textContent).toBe('Error savingOffline — retrying');
  });
});

describe('conflict dialog (SPEC.md W9)', () => {
  function renderConflict(overrides: Partial<Parameters<typeof ConflictDialog>[0]> = {}) {
    const props = {
      mine: planContent(),
      onReloadTheirs: vi.fn(async () => {}),
      onKeepMine: vi.fn(async () => true),
      writeClipboard: vi.fn(async (_text: string) => {}),
      ...overrides,
    };
    render(<ConflictDialog {...props} />);
    return {
      props,
      dialog: () => screen.getByRole('dialog', { name: 'This document was changed elsewhere' }),
    };
  }

  it('W9: explains, and each choice does what it says', async () => {
    const { props, dialog } = renderConflict();
    expect(dialog().textContent).toMatch(/another tab or on another device/);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reload theirs' }));
    await waitFor(() => expect(props.onReloadTheirs).toHaveBeenCalledTimes(1));
    // The dialog is busy until the first choice settles; a click before that is ignored on purpose.
    const keepMine = within(dialog()).getByRole('button', { name: 'Keep mine (overwrite)' });
    await waitFor(() => expect((keepMine as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(keepMine);
    await waitFor(() => expect(props.onKeepMine).toHaveBeenCalledTimes(1));
  });

  it('W9: Copy mine writes my version as text and says Copied', async () => {
    const writeClipboard = vi.fn(async (_text: string) => {});
    const { dialog } = renderConflict({ writeClipboard });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Copy mine to clipboard' }));
    expect(await within(dialog()).findByText('Copied')).toBeTruthy();
    const text = writeClipboard.mock.calls[0]?.[0] ?? '';
    expect(text).toContain('# Market');
    expect(text).toContain('## Size');
    expect(text).toContain('## Forecast');
  });

  it('W9: a refused clipboard says so', async () => {
    const { dialog } = renderConflict({
      writeClipboard: vi.fn(async () => Promise.reject(new Error('denied'))),
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Copy mine to clipboard' }));
    expect((await within(dialog()).findByRole('status')).textContent).toMatch(/clipboard/);
  });

  it('W9: Escape and the backdrop do not close it', () => {
    const { dialog } = renderConflict();
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    fireEvent.click(dialog());
    expect(dialog().isConnected).toBe(true);
  });

  it('W9: a choice that fails shows why and stays', async () => {
    const { dialog } = renderConflict({
      onReloadTheirs: vi.fn(async () => Promise.reject(new Error('Network error'))),
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reload theirs' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe('Network error');
  });
});
