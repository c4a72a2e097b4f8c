import type { ChatProposal } from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { applyProposal, type ProposalReviewItem, reviewProposal } from '@planwright/sdk/proposals';
import { type JSX, useState } from 'react';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import { askAgainMessage, kindLabel, PROPOSAL_TEXTS, placeLabel } from './proposal-texts';
import { WordDiffView } from './word-diff-view';

export interface ProposalReviewDialogProps {
  proposal: ChatProposal;
  /** The live editor content. */
  getDocument: () => DocumentJson;
  /** `workspace.applyContent`: false when the editor did not take it. */
  applyDocument: (next: DocumentJson) => boolean;
  /** The caller's `session.acceptProposal(toolId)`. */
  onAccepted: () => void;
  /** The caller's `session.rejectProposal(toolId)`. */
  onRejected: () => void;
  /** The caller's `session.send(message)`. */
  onAskAgain: (message: string) => void;
  onClose: () => void;
}

/**
 * The review of one AI proposal (R6–R11): each change as a word diff against the live document; Reject and
 * "Accept & Apply" (partial edits chosen one by one); what no longer applies says so and can be asked
 * again. Applying runs the SDK's `applyProposal` on the live content and hands the result to the editor;
 * only when the editor took it is the acceptance sent.
 */
export function ProposalReviewDialog(props: ProposalReviewDialogProps): JSX.Element {
  const { proposal, getDocument, applyDocument, onAccepted, onRejected, onAskAgain, onClose } = props;
  // Read once on open: the review is of the text as it was when the user looked.
  const [review] = useState(() => reviewProposal(getDocument(), proposal.toolName, proposal.payload));
  const partial = review.ok && review.toolName === 'propose_partial_edits';
  const [checked, setChecked] = useState<ReadonlySet<number>>(
    () =>
      new Set(
        review.ok ? review.items.filter((item) => item.problem === null).map((item) => item.editIndex) : [],
      ),
  );
  const [failure, setFailure] = useState<string | null>(null);

  if (failure !== null) {
    return (
      <Dialog title={PROPOSAL_TEXTS.failedTitle} onClose={onClose}>
        <div className="mt-3 flex flex-col gap-4">
          <Alert kind="error">{failure}</Alert>
          <div className="modal-action mt-0">
            <button type="button" className="btn" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      </Dialog>
    );
  }

  const decidable = proposal.status !== 'accepted';
  const items = review.ok ? review.items : [];
  const stale = decidable && items.some((item) => item.problem !== null);
  const chosen = items.filter((item) => item.problem === null && (!partial || checked.has(item.editIndex)));
  const canAccept = decidable && review.ok && chosen.length > 0 && (partial || review.applicable);

  const accept = () => {
    if (!canAccept) return;
    const result = applyProposal(
      getDocument(),
      proposal.toolName,
      proposal.payload,
      partial ? { accept: chosen.map((item) => item.editIndex) } : {},
    );
    // Spec 001 §4: a failed apply sends nothing, closes the review and says why.
    if (!result.ok) {
      setFailure(result.message);
      return;
    }
    if (!applyDocument(result.document)) {
      setFailure(PROPOSAL_TEXTS.editorRefused);
      return;
    }
    onAccepted();
    onClose();
  };

  const toggle = (editIndex: number, on: boolean) => {
    setChecked((current) => {
      const next = new Set(current);
      if (on) next.add(editIndex);
      else next.delete(editIndex);
      return next;
    });
  };

  return (
    <Dialog title={PROPOSAL_TEXTS.dialogTitle} onClose={onClose}>
      <div className="mt-3 flex min-w-0 flex-col gap-4">
        {proposal.status !== 'pending' && (
          <p data-testid="proposal-status" className="text-sm text-base-content/70">
            {proposal.message ?? PROPOSAL_TEXTS[proposal.status]}
          </p>
        )}
        {!review.ok && <Alert kind="error">{review.message}</Alert>}
        <ol className="flex list-none flex-col gap-4 p-0">
          {items.map((item) => (
            <ReviewItem
              key={item.editIndex}
              item={item}
              partial={partial}
              decidable={decidable}
              checked={checked.has(item.editIndex)}
              onToggle={(on) => toggle(item.editIndex, on)}
            />
          ))}
        </ol>
        <div className="modal-action mt-0 flex-wrap">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Close
          </button>
          {stale && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                onAskAgain(askAgainMessage(items));
                onClose();
              }}
            >
              Ask again
            </button>
          )}
          {proposal.status === 'pending' && (
            <button
              type="button"
              className="btn btn-outline btn-error"
              onClick={() => {
                onRejected();
                onClose();
              }}
            >
              Reject
            </button>
          )}
          {decidable && (
            <button type="button" className="btn btn-primary" disabled={!canAccept} onClick={accept}>
              Accept &amp; Apply
            </button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

/** One change: where, what, why, its diff, and (partial edits) whether to apply it. */
function ReviewItem(props: {
  item: ProposalReviewItem;
  partial: boolean;
  decidable: boolean;
  checked: boolean;
  onToggle: (on: boolean) => void;
}): JSX.Element {
  const { item, partial, decidable, checked, onToggle } = props;
  const place = placeLabel(item);
  const number = item.editIndex + 1;
  return (
    <li data-testid="proposal-item" className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {partial && (
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            aria-label={`Apply edit ${number}`}
            checked={checked && item.problem === null}
            disabled={!decidable || item.problem !== null}
            onChange={(event) => onToggle(event.target.checked)}
          />
        )}
        <span className="font-semibold">
          {partial ? `Edit ${number}: ` : ''}
          {kindLabel(item.kind)}
        </span>
        {place !== null && (
          <span className="text-sm text-base-content/70 [overflow-wrap:anywhere]">{place}</span>
        )}
      </div>
      {item.renamedTo !== null && (
        <p className="text-sm [overflow-wrap:anywhere]">New title: {item.renamedTo}</p>
      )}
      {item.reason !== null && item.reason.trim() !== '' && (
        <p className="text-sm italic [overflow-wrap:anywhere]">{item.reason}</p>
      )}
      {decidable && item.problem !== null && (
        <Alert kind="warning">
          {PROPOSAL_TEXTS.noLongerApplies}: {item.problem.message}
        </Alert>
      )}
      <WordDiffView parts={item.diff} />
    </li>
  );
}
