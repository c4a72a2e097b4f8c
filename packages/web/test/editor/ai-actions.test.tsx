import { createPlanwrightClient, MemoryTokenStore, type PlanwrightClient } from '@planwright/sdk';
import { SuggestionQueue } from '@planwright/sdk/proposals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlanwrightClientContext } from '../../src/api/client-context.js';
import { PlanEditorCanvas, usePlanEditor } from '../../src/editor/index.js';
import { SuggestionBar } from '../../src/suggestions/suggestion-bar.js';
import { useSuggestions } from '../../src/suggestions/use-suggestions.js';
import { createEditorBridge } from '../../src/workspace/editor-bridge.js';
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

/**
 * The canvas (with its bubble) and the suggestion bar over a real SDK client whose network is `server`, wired as
 * the editor pane wires them: the AI actions put their answers in the plan's suggestion queue.
 */
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
    return editor === null ? null : <Wired editor={editor} />;
  }
  function Wired({ editor }: { editor: Editor }) {
    const [workspace] = useState(() => {
      const bridge = createEditorBridge(editor);
      const suggestions = new SuggestionQueue({
        getDocument: () => bridge.getJSON(),
        applyDocument: (next) => run(() => bridge.applyContent(next)),
      });
      return {
        suggestions,
        kind: documentUuid ? 'document' : 'blueprint',
        uuid: documentUuid ?? 'blueprint',
      } as const;
    });
    const wired = useSuggestions(workspace, editor);
    queue = workspace.suggestions;
    return (
      <>
        <PlanEditorCanvas editor={editor} ai={wired.ai} />
        <SuggestionBar
          queue={wired.queue}
          runs={wired.runs}
          failure={wired.failure}
          onDismissFailure={wired.dismissFailure}
          actions={wired.actions}
        />
      </>
    );
  }
  let queue: SuggestionQueue | null = null;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <PlanwrightClientContext value={client}>
        <Harness />
      </PlanwrightClientContext>
    </QueryClientProvider>,
  );
  if (current === null || queue === null) throw new Error('the editor was not created');
  return { editor: current as Editor, onEdit, queue: queue as SuggestionQueue };
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

describe('bubble AI actions (E31–E34, E43–E45)', () => {
  it('E31: the AI actions menu holds the free prompt and the eight actions in their groups, and closes on Escape', () => {
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
    expect(screen.getByRole('textbox', { name: 'Ask AI to…' })).toBeTruthy();
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

  it('E32, E43: the answer shows in the text as a suggestion; Accept in the bar replaces the selection in one undo step', async () => {
    vi.useFakeTimers();
    const server = createFakeServer().on(TRANSFORM, (request) => {
      const body = request.body as { text: string };
      return json({
        transformed_text: `${body.text} (improved)`,
        provider: { ...PROVIDER, offline: false, label: 'Model X' },
      });
    });
    const { editor, onEdit } = renderCanvas(server);
    selectInFocusedEditor(editor, 'One more');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Improve writing' }));
    expect(screen.getByRole('status').textContent).toContain('Improve writing');
    await settle();
    expect(server.calls('/api/v1/apps/ai/transform/')[0]?.body).toEqual({
      text: 'One more',
      action: 'improve',
      document_uuid: DOCUMENT_UUID,
    });
    // In the text, not in the document.
    expect(editor.view.dom.querySelector('ins.pw-suggestion-ins')?.textContent).toContain('(improved)');
    expect(editor.state.doc.textContent).toContain('OneOne moreSecond');
    const bar = screen.getByRole('toolbar', { name: 'AI suggestions' });
    expect(within(bar).getByTestId('suggestion-provider').textContent).toBe('Model X');
    expect(bar.textContent).toContain('Improve writing');
    onEdit.mockClear();
    fireEvent.click(within(bar).getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('toolbar', { name: 'AI suggestions' })).toBeNull();
    expect(editor.state.doc.textContent).toContain('OneOne more (improved)SecondTwo locked');
    expect(onEdit).toHaveBeenCalled();
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).toContain('OneOne moreSecondTwo locked');
  });

  it('E43: Reject leaves the text as it was; an answer with paragraphs becomes paragraphs', async () => {
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
    fireEvent.click(
      within(screen.getByRole('toolbar', { name: 'AI suggestions' })).getByRole('button', { name: 'Reject' }),
    );
    expect(screen.queryByRole('toolbar', { name: 'AI suggestions' })).toBeNull();
    expect(editor.state.doc.child(1).child(1).textContent).toBe('Body B');
    expect(onEdit).not.toHaveBeenCalled();
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Shorten' }));
    await settle();
    fireEvent.click(
      within(screen.getByRole('toolbar', { name: 'AI suggestions' })).getByRole('button', { name: 'Accept' }),
    );
    const beta = editor.state.doc.child(1);
    expect(beta.childCount).toBe(3);
    expect(beta.child(1).content.content.map((node) => node.type.name)).toEqual([
      'text',
      'hardBreak',
      'text',
    ]);
    expect(beta.child(2).textContent).toBe('New paragraph');
  });

  it('E44: "Ask AI to…" sends the user\'s words as the custom prompt; Try again asks again for the same text', async () => {
    vi.useFakeTimers();
    let answers = 0;
    const server = createFakeServer().on(TRANSFORM, () =>
      json({
        transformed_text: `Answer ${++answers}`,
        provider: { ...PROVIDER, offline: false, label: 'Model X' },
      }),
    );
    const { editor, queue } = renderCanvas(server);
    selectInFocusedEditor(editor, 'Intro text');
    openAiMenu();
    fireEvent.change(screen.getByRole('textbox', { name: 'Ask AI to…' }), {
      target: { value: 'make it bolder' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await settle();
    expect(server.calls('/api/v1/apps/ai/transform/')[0]?.body).toEqual({
      text: 'Intro text',
      action: 'improve',
      custom_prompt: 'make it bolder',
      document_uuid: DOCUMENT_UUID,
    });
    const inserted = () =>
      [...editor.view.dom.querySelectorAll('ins.pw-suggestion-ins')].map((n) => n.textContent).join('');
    expect(inserted()).toBe('Answer1');
    fireEvent.click(
      within(screen.getByRole('toolbar', { name: 'AI suggestions' })).getByRole('button', {
        name: 'Try again',
      }),
    );
    await settle();
    expect(server.calls('/api/v1/apps/ai/transform/')).toHaveLength(2);
    expect(server.calls('/api/v1/apps/ai/transform/')[1]?.body).toMatchObject({
      text: 'Intro text',
      custom_prompt: 'make it bolder',
    });
    expect(queue.getSnapshot().suggestions).toHaveLength(1);
    expect(inserted()).toBe('Answer2');
  });

  it('E45: offline, the free prompt and the actions the server cannot do are disabled with the reason; the rest say "offline"', async () => {
    vi.useFakeTimers();
    const server = createFakeServer().on(
      'GET /api/v1/apps/ai/provider/',
      json({
        ...PROVIDER,
        supports: { web_access: false, research: false, tools: false },
        calls_per_minute: 20,
        actions: [
          'improve',
          'fix_grammar',
          'simplify',
          'extend',
          'shorten',
          'professional',
          'casual',
          'emojify',
        ].map((action) => ({
          action,
          available: ['fix_grammar', 'simplify', 'shorten'].includes(action),
          offline: true,
        })),
      }),
    );
    const { editor } = renderCanvas(server);
    await settle();
    selectInFocusedEditor(editor, 'One more');
    const menu = openAiMenu();
    const professional = within(menu).getByRole('menuitem', { name: /Professional/ });
    expect(professional.getAttribute('aria-disabled')).toBe('true');
    expect(professional.closest('li')?.getAttribute('title')).toMatch(/Needs an AI model/);
    fireEvent.click(professional);
    expect(server.calls('/api/v1/apps/ai/transform/')).toEqual([]);
    expect(within(menu).getByRole('menuitem', { name: /Fix spelling/ }).textContent).toContain('offline');
    expect((screen.getByRole('textbox', { name: 'Ask AI to…' }) as HTMLInputElement).disabled).toBe(true);
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
    const bar = screen.getByRole('toolbar', { name: 'AI suggestions' });
    expect(within(bar).getByRole('alert').textContent).toContain('AI rate limit reached.');
    fireEvent.click(within(bar).getByRole('button', { name: 'Dismiss' }));
    answer = new Response('<html>Bad gateway</html>', {
      status: 502,
      headers: { 'content-type': 'text/html' },
    });
    selectInFocusedEditor(editor, 'Intro text');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Professional' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Failed to transform text');
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
    expect(screen.getByRole('alert').textContent).toContain('No text selected');
    expect(server.calls('/api/v1/apps/ai/transform/')).toEqual([]);
  });

  it('E43: the text changed before the answer came: nothing to review, and it says so', async () => {
    vi.useFakeTimers();
    let release: (value: Response) => void = () => {};
    const server = createFakeServer().on(
      TRANSFORM,
      () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    );
    const { editor, queue } = renderCanvas(server);
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Improve writing' }));
    await settle();
    run(() => editor.commands.insertContentAt(posOf(editor, 'Body B') + 1, 'X'));
    release(json({ transformed_text: 'Better', provider: PROVIDER }));
    await settle();
    expect(screen.getByRole('alert').textContent).toMatch(/changed/);
    expect(queue.getSnapshot().suggestions).toEqual([]);
    expect(editor.state.doc.child(1).child(1).textContent).toBe('BXody B');
  });

  it('E46: the answer grows in the text as it is written, not decidable until complete', async () => {
    vi.useFakeTimers();
    let push: (line: unknown) => void = () => {};
    let end: () => void = () => {};
    const server = createFakeServer().on(TRANSFORM, (request) => {
      expect(request.headers.get('accept')).toContain('application/x-ndjson');
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (line) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
          end = () => controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/x-ndjson; charset=utf-8' } });
    });
    const { editor, queue } = renderCanvas(server);
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Improve writing' }));
    await settle();
    push({ type: 'text', text: 'Body Beta is' });
    await settle();
    const [growing] = queue.getSnapshot().suggestions;
    expect(growing?.streaming).toBe(true);
    expect(editor.view.dom.querySelector('.pw-suggestion-streaming')).not.toBeNull();
    const bar = screen.getByRole('toolbar', { name: 'AI suggestions' });
    expect((within(bar).getByRole('button', { name: 'Accept' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(bar).getByTestId('suggestion-streaming').textContent).toContain('writing');
    push({ type: 'text', text: 'Body Beta is growing' });
    push({ type: 'result', body: { transformed_text: 'Body Beta is growing fast.', provider: PROVIDER } });
    end();
    await settle();
    const [done] = queue.getSnapshot().suggestions;
    expect(done?.streaming).toBe(false);
    expect(queue.getSnapshot().suggestions).toHaveLength(1);
    fireEvent.click(
      within(screen.getByRole('toolbar', { name: 'AI suggestions' })).getByRole('button', { name: 'Accept' }),
    );
    expect(editor.state.doc.child(1).child(1).textContent).toBe('Body Beta is growing fast.');
  });

  it('E46: Cancel while it is written drops what was written; the text stays', async () => {
    vi.useFakeTimers();
    let push: (line: unknown) => void = () => {};
    const server = createFakeServer().on(TRANSFORM, () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (line) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/x-ndjson' } });
    });
    const { editor, queue } = renderCanvas(server);
    selectInFocusedEditor(editor, 'Body B');
    fireEvent.click(within(openAiMenu()).getByRole('menuitem', { name: 'Shorten' }));
    await settle();
    push({ type: 'text', text: 'Body' });
    await settle();
    expect(queue.getSnapshot().suggestions).toHaveLength(1);
    fireEvent.click(
      within(screen.getByRole('toolbar', { name: 'AI suggestions' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(queue.getSnapshot().suggestions).toEqual([]);
    expect(editor.state.doc.child(1).child(1).textContent).toBe('Body B');
  });
});
