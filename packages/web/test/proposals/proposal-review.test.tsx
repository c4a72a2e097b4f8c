import type { ChatProposal } from '@planwright/sdk';
import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProposalCard, ProposalReviewDialog } from '../../src/proposals/index.js';
import { createEditorBridge } from '../../src/workspace/editor-bridge.js';
import { planDocument, renderPlanEditor, run, uuid } from '../editor/editor-support.js';

afterEach(cleanup);

/** A proposal as the chat session holds it (plain data from the socket). */
function proposal(
  toolName: ChatProposal['toolName'],
  payload: Record<string, unknown>,
  status: ChatProposal['status'] = 'pending',
): ChatProposal {
  const message =
    status === 'accepted'
      ? 'Changes applied successfully'
      : status === 'rejected'
        ? 'Proposed edit rejected. Click to review.'
        : null;
  return {
    toolId: 'tool-1',
    toolName,
    payload,
    timestamp: '2025-01-01T00:00:00Z',
    status,
    message,
    messageId: 'message-1',
  } as ChatProposal;
}

const FULL = proposal('propose_full_subsection', {
  subsection_uuid: uuid(2),
  format: 'markdown',
  content: 'One, rewritten better.',
});

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

function contentOf(editor: Editor): DocumentJson {
  const result = normalizeDocument(editor.getJSON());
  if (!result.ok) throw new Error(result.error.message);
  return result.doc;
}

/** The dialog over a real editor (the workspace's bridge), with spies for the session's calls. */
function openReview(chat: ChatProposal, content: DocumentJson = planDocument()) {
  const { editor } = renderPlanEditor({ content });
  const bridge = createEditorBridge(editor);
  const calls = {
    onAccepted: vi.fn(),
    onRejected: vi.fn(),
    onAskAgain: vi.fn<(message: string) => void>(),
    onClose: vi.fn(),
  };
  const applyDocument = vi.fn((next: DocumentJson) => run(() => bridge.applyContent(next)));
  render(
    <ProposalReviewDialog
      proposal={chat}
      getDocument={() => bridge.getJSON()}
      applyDocument={applyDocument}
      {...calls}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Review proposed changes' });
  return { editor, dialog, applyDocument, ...calls };
}

function button(dialog: HTMLElement, name: string): HTMLButtonElement {
  return within(dialog).getByRole('button', { name }) as HTMLButtonElement;
}

describe('ProposalCard (R5)', () => {
  it('R5: a button with its status, opening the review', () => {
    const onOpen = vi.fn();
    const { rerender } = render(<ProposalCard proposal={FULL} onOpen={onOpen} />);
    const card = screen.getByTestId('proposal-card');
    expect(card.tagName).toBe('BUTTON');
    expect(card.getAttribute('data-status')).toBe('pending');
    expect(card.textContent).toContain('Review proposed changes');
    fireEvent.click(card);
    expect(onOpen).toHaveBeenCalledTimes(1);
    rerender(
      <ProposalCard
        proposal={{ ...FULL, status: 'rejected', message: 'Proposed edit rejected. Click to review.' }}
        onOpen={onOpen}
      />,
    );
    expect(screen.getByTestId('proposal-card').getAttribute('data-status')).toBe('rejected');
    expect(screen.getByTestId('proposal-card').textContent).toContain(
      'Proposed edit rejected. Click to review.',
    );
  });
});

describe('ProposalReviewDialog (R6–R11)', () => {
  it('R7: shows the word diff against the live text, insertions in <ins>, deletions in <del>, named for readers', () => {
    const { dialog } = openReview(FULL);
    expect([...dialog.querySelectorAll('ins')].map((node) => node.textContent).join('')).toContain(
      'rewritten',
    );
    expect([...dialog.querySelectorAll('del')].map((node) => node.textContent).join('')).toContain('more');
    expect(dialog.textContent).toContain('[inserted: ');
    expect(dialog.textContent).toContain('Alpha > First');
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Ask again' })).toBeNull();
  });

  it('R8: Accept & Apply puts the change in the editor (undoable), then tells the session', () => {
    const { editor, dialog, onAccepted, onClose, onRejected } = openReview(FULL);
    const before = contentOf(editor);
    fireEvent.click(button(dialog, 'Accept & Apply'));
    expect(editor.state.doc.textContent).toContain('One, rewritten better.');
    expect(onAccepted).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onRejected).not.toHaveBeenCalled();
    run(() => editor.commands.undo());
    expect(contentOf(editor)).toEqual(before);
  });

  it('R8: Reject tells the session and changes nothing', () => {
    const { editor, dialog, onAccepted, onRejected, onClose } = openReview(FULL);
    const before = editor.state.doc;
    fireEvent.click(button(dialog, 'Reject'));
    expect(onRejected).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onAccepted).not.toHaveBeenCalled();
    expect(editor.state.doc).toBe(before);
  });

  it('R9: partial edits have a checkbox each, all on; the checked ones are applied together', () => {
    const { editor, dialog, onAccepted } = openReview(proposal('propose_partial_edits', PARTIAL));
    const first = within(dialog).getByRole('checkbox', { name: 'Apply edit 1' }) as HTMLInputElement;
    const second = within(dialog).getByRole('checkbox', { name: 'Apply edit 2' }) as HTMLInputElement;
    expect(first.checked && second.checked).toBe(true);
    expect(dialog.textContent).toContain('Clearer');
    fireEvent.click(first);
    fireEvent.click(button(dialog, 'Accept & Apply'));
    expect(editor.state.doc.textContent).toContain('One more');
    expect(editor.state.doc.textContent).not.toContain('One improved');
    expect(editor.state.doc.textContent).toContain('Body Beta');
    expect(onAccepted).toHaveBeenCalledTimes(1);
  });

  it('R9: with every edit unchecked, Accept & Apply is off', () => {
    const { dialog } = openReview(proposal('propose_partial_edits', PARTIAL));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Apply edit 1' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Apply edit 2' }));
    expect(button(dialog, 'Accept & Apply').disabled).toBe(true);
  });

  it('R10: what no longer applies says so and offers Ask again, which sends a request to redo it', () => {
    const stale = proposal('propose_partial_edits', {
      edits: [
        { targetNodeId: 'p-gone', mode: 'replace', format: 'markdown', content: 'x' },
        { targetNodeId: 'p-beta', mode: 'delete' },
      ],
    });
    const { dialog, onAskAgain, onClose } = openReview(stale);
    expect(within(dialog).getByRole('status').textContent).toContain('No longer applies');
    const gone = within(dialog).getByRole('checkbox', { name: 'Apply edit 1' }) as HTMLInputElement;
    expect(gone.checked).toBe(false);
    expect(gone.disabled).toBe(true);
    expect(button(dialog, 'Accept & Apply').disabled).toBe(false);
    fireEvent.click(button(dialog, 'Ask again'));
    expect(onAskAgain).toHaveBeenCalledTimes(1);
    expect(onAskAgain.mock.calls[0]?.[0]).toMatch(/no longer applies.*propose the change again/s);
    expect(onClose).toHaveBeenCalled();
  });

  it('R10: a full-subsection proposal on a finalized subsection cannot be accepted', () => {
    const { dialog } = openReview(
      proposal('propose_full_subsection', { subsection_uuid: uuid(3), format: 'markdown', content: 'x' }),
    );
    expect(button(dialog, 'Accept & Apply').disabled).toBe(true);
    expect(button(dialog, 'Ask again')).toBeTruthy();
  });

  it('R11: when the editor refuses, nothing is sent and the review closes into the failure', () => {
    const { editor, dialog, onAccepted, onRejected } = openReview(FULL);
    run(() => editor.setEditable(false));
    fireEvent.click(button(dialog, 'Accept & Apply'));
    expect(onAccepted).not.toHaveBeenCalled();
    expect(onRejected).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: 'Review proposed changes' })).toBeNull();
    const failed = screen.getByRole('dialog', { name: 'Proposal not applied' });
    expect(within(failed).getByRole('alert').textContent).toContain('Nothing was applied');
  });

  it('R11: when the text changed after opening, applying fails, nothing is sent, the failure shows', () => {
    const { editor, dialog, onAccepted } = openReview(proposal('propose_partial_edits', PARTIAL));
    // The targeted paragraph goes away while the review is open.
    run(() => {
      let from = -1;
      editor.state.doc.descendants((node, pos) => {
        if (from < 0 && node.type.name === 'paragraph' && node.textContent === 'One') from = pos;
        return from < 0;
      });
      editor.view.dispatch(editor.state.tr.delete(from, from + 5));
    });
    fireEvent.click(button(dialog, 'Accept & Apply'));
    expect(onAccepted).not.toHaveBeenCalled();
    expect(
      within(screen.getByRole('dialog', { name: 'Proposal not applied' })).getByRole('alert'),
    ).toBeTruthy();
  });

  it('R6: decided proposals reopen: accepted read-only; rejected may still be accepted', () => {
    const accepted = openReview({ ...FULL, status: 'accepted', message: 'Changes applied successfully' });
    expect(within(accepted.dialog).queryByRole('button', { name: 'Accept & Apply' })).toBeNull();
    expect(within(accepted.dialog).queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(within(accepted.dialog).getByTestId('proposal-status').textContent).toBe(
      'Changes applied successfully',
    );
    fireEvent.click(button(accepted.dialog, 'Close'));
    expect(accepted.onClose).toHaveBeenCalled();
    cleanup();
    const rejected = openReview({
      ...FULL,
      status: 'rejected',
      message: 'Proposed edit rejected. Click to review.',
    });
    expect(within(rejected.dialog).queryByRole('button', { name: 'Reject' })).toBeNull();
    fireEvent.click(button(rejected.dialog, 'Accept & Apply'));
    expect(rejected.onAccepted).toHaveBeenCalledTimes(1);
  });

  it('R6: an unreadable payload says why and can only be rejected or closed', () => {
    const { dialog } = openReview(proposal('propose_partial_edits', { edits: 'nope' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/malformed/);
    expect(button(dialog, 'Accept & Apply').disabled).toBe(true);
    expect(button(dialog, 'Reject')).toBeTruthy();
  });
});
