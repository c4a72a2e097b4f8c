import { createPlanwrightClient, MemoryTokenStore, type PlanwrightClient } from '@planwright/sdk';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlanwrightClientContext } from '../../src/api/client-context.js';
import { PlanEditorCanvas, usePlanEditor } from '../../src/editor/index.js';
import { createFakeServer, type FakeServer, json } from '../support/fake-server.js';
import { countingIds, endOf, planDocument, posOf, run, select } from './editor-support.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const DOCUMENT_UUID = '6b0e1f3a-8f1d-4c1e-9b7a-0c2f4e5d6a7b';
const TRANSFORM = 'POST /api/v1/apps/ai/transform/';
const PROVIDER = { name: 'offline', model: 'echo', label: 'Offline', offline: true };
const ACTIONS = [
  'Improve writing',
  'Fix spelling & grammar',
  'Simplify language',
  'Extend',
  'Shorten',
  'Professional',
  'Casual',
  'Emojify',
];

/** The canvas (with its bubble) over a real SDK client whose network is `server`, as the workspace renders it. */
function renderCanvas(server: FakeServer, documentUuid: string | null = DOCUMENT_UUID) {
  const client: PlanwrightClient = createPlanwrightClient({
    baseUrl: 'http://planwright.test',
    fetch: server.fetch,
    tokenStore: new MemoryTokenStore(),
  });
  const onEdit = vi.fn();
  let current: Editor | null = null;
  function Harness() {
    const editor = usePlanEditor({
      content: planDocument(),
      editable: true,
      canvas: { moveSubsection: vi.fn(), deleteSubsection: vi.fn(), setFinalized: vi.fn() },
      onEdit,
      generateId: countingIds(),
    });
    useEffect(() => {
      current = editor;
    }, [editor]);
    return <PlanEditorCanvas editor={editor} documentUuid={documentUuid} />;
  }
  render(
    <PlanwrightClientContext value={client}>
      <Harness />
    </PlanwrightClientContext>,
  );
  if (current === null) throw new Error('the editor was not created');
  return { editor: current as Editor, onEdit };
}

/** Focuses the editor, selects `text` and lets the bubble appear. */
function selectInFocusedEditor(editor: Editor, text: string): void {
  act(() => editor.view.focus());
  select(editor, posOf(editor, text), endOf(editor, text));
  act(() => vi.advanceTimersByTime(300));
}

function openAiMenu(): HTMLElement {
  const bubble = screen.getByRole('toolbar', { name: 'Selection formatting' });
  fireEvent.click(within(bubble).getByRole('button', { name: 'AI actions' }));
  return screen.getByRole('menu', { name: 'AI actions' });
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let index = 0; index < 10; index++) await Promise.resolve();
  });
}

describe('bubble AI actions (E31–E34)', () => {
  it('E31: the AI actions menu holds the eight actions in their groups, and closes on Escape', () => {
    vi.useFakeTimers();
    const { editor } = renderCanvas(createFakeServer());
    selectInFocusedEditor(editor, 'One more');
    const menu = openAiMenu();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(ACTIONS);
    expect(within(menu).getByRole('group', { name: 'Adjust length' })).toBeTruthy();
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu', { name: 'AI actions' })).toBeNull();
  });

  it('E31, A8: ArrowDown on the button opens the menu on its first action, ArrowUp on its last; Escape returns', () => {
    vi.useFakeTimers();
    const { editor } = renderCanvas(createFakeServer());
    selectInFocusedEditor(editor, 'One more');
    const bubble = screen.getByRole('toolbar', { name: 'Selection formatting' });
    const button = within(bubble).getByRole('button', { name: 'AI actions' });
    for (const [key, label] of [
      ['ArrowDown', ACTIONS[0]],
      ['ArrowUp', ACTIONS[ACTIONS.length - 1]],
    ] as const) {
      act(() => button.focus());
      fireEvent.keyDown(button, { key });
      const menu = screen.getByRole('menu', { name: 'AI actions' });
      expect(document.activeElement?.textContent).toBe(label);
      fireEvent.keyDown(document.activeElement ?? menu, { key: 'Escape' });
      expect(screen.queryByRole('menu', { name: 'AI actions' })).toBeNull();
      expect(document.activeElement).toBe(button);
    }
  });

  it('E31: AI actions are off in titles and finalized subsections', () => {
    vi.useFakeTimers();
    const { editor } = renderCanvas(createFakeServer());
    selectInFocusedEditor(editor, 'First');
    const bubble = screen.getByRole('toolbar', { name: 'Selection formatting' });
    expect((within(bubble).getByRole('button', { name: 'AI actions' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('E32, E33: sends the selection, previews the answer, Accept replaces it in one undo step as an edit', async () => {
    vi.useFakeTimers();
    const server = createFakeServer().on(TRANSFORM, (request) => {
      const body = request.body as { text: string };
      return json({ transformed_text: `${body.text.toUpperCase()} (improved)`, provider: PROVIDER });
    });
    const { editor, onEdit } = renderCanvas(server);
    selectInFocusedEditor(editor, 'One more');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Improve writing' }));
    const dialog = screen.getByRole('dialog', { name: 'AI suggestion' });
    expect((within(dialog).getByRole('button', { name: 'Accept' }) as HTMLButtonElement).disabled).toBe(true);
    await settle();
    expect(server.calls('/api/v1/apps/ai/transform/')[0]?.body).toEqual({
      text: 'One more',
      action: 'improve',
      document_uuid: DOCUMENT_UUID,
    });
    expect(within(dialog).getByTestId('ai-suggestion-text').textContent).toBe('ONE MORE (improved)');
    onEdit.mockClear();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('dialog', { name: 'AI suggestion' })).toBeNull();
    expect(editor.state.doc.textContent).toContain('OneONE MORE (improved)SecondTwo locked');
    expect(onEdit).toHaveBeenCalled();
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).toContain('OneOne moreSecondTwo locked');
  });

  it('E33: Discard leaves the text as it was; an answer with paragraphs becomes paragraphs', async () => {
    vi.useFakeTimers();
    const server = createFakeServer().on(
      TRANSFORM,
      json({ transformed_text: 'First line\nsecond line\n\nNew paragraph', provider: PROVIDER }),
    );
    const { editor, onEdit } = renderCanvas(server);
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Shorten' }));
    await settle();
    onEdit.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('dialog', { name: 'AI suggestion' })).toBeNull();
    expect(editor.state.doc.child(1).child(1).textContent).toBe('Body B');
    expect(onEdit).not.toHaveBeenCalled();
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Emojify' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    const beta = editor.state.doc.child(1);
    expect(beta.childCount).toBe(3);
    expect(beta.child(1).content.content.map((node) => node.type.name)).toEqual([
      'text',
      'hardBreak',
      'text',
    ]);
    expect(beta.child(2).textContent).toBe('New paragraph');
  });

  it('E34: a failure shows the server’s detail, or "Failed to transform text"; nothing changes', async () => {
    vi.useFakeTimers();
    let answer = json({ detail: 'AI rate limit reached.' }, 429);
    const server = createFakeServer().on(TRANSFORM, () => answer);
    const { editor } = renderCanvas(server, null);
    const before = editor.state.doc;
    selectInFocusedEditor(editor, 'Intro text');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Casual' }));
    await settle();
    // A blueprint (no document) sends no document_uuid.
    expect(server.calls('/api/v1/apps/ai/transform/')[0]?.body).toEqual({
      text: 'Intro text',
      action: 'casual',
    });
    let dialog = screen.getByRole('dialog', { name: 'AI suggestion' });
    expect(within(dialog).getByRole('alert').textContent).toBe('AI rate limit reached.');
    expect((within(dialog).getByRole('button', { name: 'Accept' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    answer = new Response('<html>Bad gateway</html>', {
      status: 502,
      headers: { 'content-type': 'text/html' },
    });
    selectInFocusedEditor(editor, 'Intro text');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Professional' }));
    await settle();
    dialog = screen.getByRole('dialog', { name: 'AI suggestion' });
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed to transform text');
    expect(editor.state.doc.eq(before)).toBe(true);
  });

  it('E34: a whitespace-only selection says "No text selected" and sends nothing', async () => {
    vi.useFakeTimers();
    const server = createFakeServer();
    const { editor } = renderCanvas(server);
    run(() => editor.commands.insertContentAt(endOf(editor, 'Body B'), '   '));
    const end = endOf(editor, 'Body B');
    act(() => editor.view.focus());
    select(editor, end, end + 3);
    act(() => vi.advanceTimersByTime(300));
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Extend' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('No text selected');
    expect(server.calls('/api/v1/apps/ai/transform/')).toEqual([]);
  });

  it('E33: the text changed meanwhile: Accept refuses and says so', async () => {
    vi.useFakeTimers();
    const server = createFakeServer().on(TRANSFORM, json({ transformed_text: 'Better', provider: PROVIDER }));
    const { editor } = renderCanvas(server);
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Improve writing' }));
    await settle();
    run(() => editor.commands.insertContentAt(posOf(editor, 'Body B') + 1, 'X'));
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(screen.getByRole('alert').textContent).toMatch(/changed/);
    expect(editor.state.doc.child(1).child(1).textContent).toBe('BXody B');
  });
});
