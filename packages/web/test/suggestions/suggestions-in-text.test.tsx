import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { SuggestionQueue, type SuggestionTurn } from '@planwright/sdk/proposals';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actionProposal } from '../../src/editor/action-proposal.js';
import { transformTarget } from '../../src/editor/ai-actions.js';
import { type SuggestionLayerActions, setSuggestionLayer } from '../../src/editor/suggestion-layer.js';
import { SuggestionBar } from '../../src/suggestions/suggestion-bar.js';
import { createEditorBridge } from '../../src/workspace/editor-bridge.js';
import { endOf, planDocument, posOf, press, renderPlanEditor, run, uuid } from '../editor/editor-support.js';

afterEach(cleanup);

function contentOf(editor: Editor): DocumentJson {
  const result = normalizeDocument(editor.getJSON());
  if (!result.ok) throw new Error(result.error.message);
  return result.doc;
}

function chatTurn(id: string, toolName: string, payload: unknown): SuggestionTurn {
  return { id, toolName, payload, origin: 'chat', label: null, provider: 'Test model', whole: false };
}

const PARTIAL = {
  edits: [
    {
      targetNodeId: 'p-one',
      mode: 'replace',
      format: 'markdown',
      content: 'One improved',
      reason: 'Clearer',
    },
    { targetNodeId: 'p-beta', mode: 'replace', format: 'markdown', content: 'Body Beta' },
  ],
};

/** A real editor with the queue drawn in it, as the editor pane wires them (W50, E40). */
function setUp(content: DocumentJson = planDocument()) {
  const { editor } = renderPlanEditor({ content });
  const bridge = createEditorBridge(editor);
  const decided = vi.fn();
  const queue = new SuggestionQueue({
    getDocument: () => bridge.getJSON(),
    applyDocument: (next) => run(() => bridge.applyContent(next)),
    onTurnDecided: decided,
  });
  const actions: SuggestionLayerActions = {
    accept: (id) => run(() => queue.accept(id)),
    reject: (id) => run(() => queue.reject(id)),
    select: (id) => queue.select(id),
    step: (direction) => queue.step(direction),
  };
  queue.subscribe(() => run(() => setSuggestionLayer(editor, queue.getSnapshot(), actions)));
  return { editor, queue, decided, dom: editor.view.dom as HTMLElement };
}

function texts(dom: HTMLElement, selector: string): string[] {
  return [...dom.querySelectorAll(selector)].map((node) => node.textContent ?? '');
}

describe('suggestions in the text (E40–E42, S1–S8)', () => {
  it('E40: a rewrite is drawn as tracked changes, and nothing enters the document until accepted', () => {
    const { editor, queue, dom } = setUp();
    const before = contentOf(editor);
    queue.sync([chatTurn('t1', 'propose_partial_edits', PARTIAL)]);
    expect(queue.getSnapshot().suggestions.map((s) => s.id)).toEqual(['t1#0', 't1#1']);
    expect(texts(dom, 'ins.pw-suggestion-ins').join('|')).toContain('improved');
    expect(texts(dom, '.pw-suggestion-del').join('|')).toContain('B');
    expect(texts(dom, 'ins.pw-suggestion-ins').join('|')).toContain('Beta');
    // Decorations only: the document (and a live plan's shared copy) is untouched.
    expect(contentOf(editor)).toEqual(before);
    // The current one carries its Accept and Reject.
    expect(dom.querySelectorAll('[data-suggestion-controls]')).toHaveLength(1);
    expect(dom.querySelector('[data-suggestion-controls]')?.getAttribute('data-suggestion-controls')).toBe(
      't1#0',
    );
  });

  it('S4, S5: accept one edit from its control and reject the other; the turn is reported once, accepted', () => {
    const { editor, queue, dom, decided } = setUp();
    queue.sync([chatTurn('t1', 'propose_partial_edits', PARTIAL)]);
    const accept = dom.querySelector<HTMLButtonElement>('[data-suggestion-controls] .pw-suggestion-accept');
    expect(accept?.getAttribute('aria-label')).toBe('Accept suggestion 1');
    run(() => accept?.click());
    expect(editor.state.doc.textContent).toContain('One improved');
    expect(queue.getSnapshot().suggestions.map((s) => s.id)).toEqual(['t1#1']);
    expect(decided).not.toHaveBeenCalled();
    const reject = dom.querySelector<HTMLButtonElement>('[data-suggestion-controls] .pw-suggestion-reject');
    run(() => reject?.click());
    expect(editor.state.doc.textContent).toContain('Body B');
    expect(editor.state.doc.textContent).not.toContain('Body Beta');
    expect(queue.getSnapshot().suggestions).toEqual([]);
    expect(dom.querySelectorAll('.pw-suggestion-ins, .pw-suggestion-del')).toHaveLength(0);
    expect(decided).toHaveBeenCalledTimes(1);
    expect(decided.mock.calls[0]?.[1]).toBe('accepted');
  });

  it('S6: Accept all is one edit: one undo takes the whole AI turn back', () => {
    const { editor, queue } = setUp();
    const before = contentOf(editor);
    queue.sync([chatTurn('t1', 'propose_partial_edits', PARTIAL)]);
    expect(run(() => queue.acceptAll())).toEqual({ ok: true, applied: 2 });
    expect(editor.state.doc.textContent).toContain('One improved');
    expect(editor.state.doc.textContent).toContain('Body Beta');
    run(() => editor.commands.undo());
    expect(contentOf(editor)).toEqual(before);
  });

  it('S4: rejecting every change reports the turn rejected and changes nothing', () => {
    const { editor, queue, decided } = setUp();
    const before = contentOf(editor);
    queue.sync([chatTurn('t1', 'propose_partial_edits', PARTIAL)]);
    run(() => queue.rejectAll());
    expect(contentOf(editor)).toEqual(before);
    expect(decided.mock.calls.map((call) => call[1])).toEqual(['rejected']);
  });

  it('E40: a subsection rewrite keeps unchanged blocks unmarked and shows new blocks where they land', () => {
    const { queue, dom } = setUp();
    queue.sync([
      chatTurn('t2', 'propose_full_subsection', {
        subsection_uuid: uuid(2),
        format: 'markdown',
        content: 'One\n\nOne more, and better.\n\n- A new point',
      }),
    ]);
    expect(texts(dom, '.pw-suggestion-del').join('')).toBe('');
    expect(texts(dom, 'ins.pw-suggestion-ins').join('')).toContain('and better.');
    const block = dom.querySelector('.pw-suggestion-ins-block');
    expect(block?.textContent).toBe('A new point');
    expect(block?.querySelector('ul li')).not.toBeNull();
  });

  it('S3: a change whose target went stays listed with its problem, is not drawn, and cannot be accepted', () => {
    const { editor, queue, dom } = setUp();
    queue.sync([
      chatTurn('t3', 'propose_partial_edits', {
        edits: [{ targetNodeId: 'p-two', mode: 'replace', format: 'markdown', content: 'Unlocked' }],
      }),
    ]);
    const [stale] = queue.getSnapshot().suggestions;
    expect(stale?.item.problem?.reason).toBe('subsection_finalized');
    expect(dom.querySelectorAll('[data-suggestion]')).toHaveLength(0);
    const outcome = run(() => queue.accept('t3#0'));
    expect(outcome.ok).toBe(false);
    expect(editor.state.doc.textContent).toContain('Two locked');
  });

  it('S8: unreadable payloads list nothing, hostile content is drawn as the schema reads it, nothing throws', () => {
    const { queue, dom } = setUp();
    queue.sync([
      chatTurn('h1', 'propose_partial_edits', { edits: 'nope' }),
      chatTurn('h2', 'rm_rf', {}),
      chatTurn('h3', 'propose_full_subsection', {
        subsection_uuid: uuid(2),
        format: 'html',
        content: '<script>x</script>',
      }),
    ]);
    expect(queue.getSnapshot().suggestions.map((s) => s.turnId)).toEqual(['h3']);
    expect(dom.querySelector('script')).toBeNull();
  });

  it('E42: Alt+] and Alt+[ step through the suggestions; Ctrl+Shift+Enter accepts the current one', () => {
    const { editor, queue } = setUp();
    queue.sync([chatTurn('t1', 'propose_partial_edits', PARTIAL)]);
    expect(queue.getSnapshot().currentId).toBe('t1#0');
    press(editor, ']', { altKey: true });
    expect(queue.getSnapshot().currentId).toBe('t1#1');
    press(editor, '[', { altKey: true });
    expect(queue.getSnapshot().currentId).toBe('t1#0');
    press(editor, 'Enter', { ctrlKey: true, shiftKey: true });
    expect(editor.state.doc.textContent).toContain('One improved');
    expect(queue.getSnapshot().currentId).toBe('t1#1');
  });

  it('W50: typing moves the marks with the text until the queue reviews again', () => {
    const { editor, queue, dom } = setUp();
    queue.sync([chatTurn('t1', 'propose_partial_edits', PARTIAL)]);
    run(() => editor.chain().setTextSelection(posOf(editor, 'Intro')).insertContent('New ').run());
    expect(texts(dom, 'ins.pw-suggestion-ins').join('|')).toContain('improved');
    queue.refresh();
    expect(queue.getSnapshot().suggestions).toHaveLength(2);
  });
});

describe('AI actions as suggestions (E43)', () => {
  it('E43: the answer replaces the selected words only, keeping the text and marks around them', () => {
    const { editor, queue, dom } = setUp();
    const from = posOf(editor, 'more');
    run(() =>
      editor.view.dispatch(
        editor.state.tr.setSelection(TextSelection.create(editor.state.doc, from, endOf(editor, 'more'))),
      ),
    );
    const proposal = actionProposal(editor.state, transformTarget(editor.state), 'and more');
    expect(proposal?.payload.edits).toHaveLength(1);
    expect(proposal?.payload.edits[0]?.target_node_id).toBe('p-one-more');
    queue.add({
      id: 'a1',
      toolName: 'propose_partial_edits',
      payload: proposal?.payload,
      origin: 'action',
      label: 'Extend',
      provider: 'Test',
      whole: true,
    });
    expect(texts(dom, 'ins.pw-suggestion-ins').join('')).toContain('and');
    expect(run(() => queue.accept('a1#0')).ok).toBe(true);
    expect(editor.state.doc.textContent).toContain('One and more');
  });

  it('E43: a selection over two paragraphs becomes one whole change of both blocks', () => {
    const { editor, queue } = setUp();
    const from = posOf(editor, 'One');
    const to = endOf(editor, 'One more');
    run(() =>
      editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, from, to))),
    );
    const proposal = actionProposal(editor.state, transformTarget(editor.state), 'Single line');
    expect(proposal?.payload.edits.map((edit) => edit.mode)).toEqual(['replace', 'delete']);
    queue.add({
      id: 'a2',
      toolName: 'propose_partial_edits',
      payload: proposal?.payload,
      origin: 'action',
      label: 'Shorten',
      provider: 'Test',
      whole: true,
    });
    expect(queue.getSnapshot().suggestions).toHaveLength(2);
    // Whole: accepting one accepts the other with it, in one edit.
    expect(run(() => queue.accept('a2#1'))).toEqual({ ok: true, applied: 2 });
    expect(editor.state.doc.textContent).toContain('Single line');
    expect(editor.state.doc.textContent).not.toContain('One more');
    run(() => editor.commands.undo());
    expect(editor.state.doc.textContent).toContain('One more');
  });

  it('E43: text that changed since the question gives no proposal', () => {
    const { editor } = setUp();
    const target = { from: posOf(editor, 'One'), to: endOf(editor, 'One'), text: 'Not this' };
    expect(actionProposal(editor.state, target, 'x')).toBeNull();
  });
});

describe('the suggestion bar (W51)', () => {
  it('W51: says which of how many, and decides the current one, its subsection, or all', () => {
    const { editor, queue } = setUp();
    queue.sync([
      chatTurn('t1', 'propose_partial_edits', {
        edits: [
          { targetNodeId: 'p-one', mode: 'replace', format: 'markdown', content: 'One, better' },
          { targetNodeId: 'p-one-more', mode: 'replace', format: 'markdown', content: 'One more, better' },
          { targetNodeId: 'p-beta', mode: 'replace', format: 'markdown', content: 'Body Beta' },
        ],
      }),
    ]);
    const calls = {
      accept: (id: string) => run(() => queue.accept(id)),
      reject: (id: string) => run(() => queue.reject(id)),
      acceptAll: () => run(() => queue.acceptAll()),
      rejectAll: () => run(() => queue.rejectAll()),
      acceptSubsection: (uuid: string) => run(() => queue.acceptAll({ subsectionUuid: uuid })),
      rejectSubsection: (uuid: string) => run(() => queue.rejectAll({ subsectionUuid: uuid })),
      step: (direction: 1 | -1) => queue.step(direction),
      show: (id: string) => queue.select(id),
      retry: vi.fn(),
      askAgain: vi.fn(),
    };
    render(
      <SuggestionBar queue={queue} runs={null} failure={null} onDismissFailure={vi.fn()} actions={calls} />,
    );
    const bar = screen.getByRole('toolbar', { name: 'AI suggestions' });
    expect(within(bar).getByTestId('suggestion-position').textContent).toBe('Suggestion 1 of 3');
    expect(bar.textContent).toContain('AI chat: Replace · Alpha › First');
    expect(within(bar).getByTestId('suggestion-provider').textContent).toBe('Test model');
    fireEvent.click(within(bar).getByRole('button', { name: 'Review queue (3)' }));
    expect(within(bar).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(within(bar).getByRole('button', { name: 'Accept in this subsection' }));
    expect(editor.state.doc.textContent).toContain('One, better');
    expect(editor.state.doc.textContent).toContain('One more, better');
    expect(editor.state.doc.textContent).not.toContain('Body Beta');
    expect(within(bar).getByTestId('suggestion-position').textContent).toBe('Suggestion 1 of 1');
    fireEvent.click(within(bar).getByRole('button', { name: 'Reject' }));
    expect(screen.queryByRole('toolbar', { name: 'AI suggestions' })).toBeNull();
    expect(editor.state.doc.textContent).toContain('Body B');
  });
});
