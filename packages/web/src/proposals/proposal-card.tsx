import type { ChatProposal } from '@planwright/sdk';
import type { JSX } from 'react';
import { PROPOSAL_TEXTS } from './proposal-texts';

const TOOL_LABELS: Record<ChatProposal['toolName'], string> = {
  propose_full_subsection: 'Proposed subsection rewrite',
  propose_partial_edits: 'Proposed edits',
};

/** The card a proposal shows as in the chat (R5): a button that opens the review, whatever its status. */
export function ProposalCard(props: { proposal: ChatProposal; onOpen: () => void }): JSX.Element {
  const { proposal, onOpen } = props;
  const status =
    proposal.status === 'pending'
      ? PROPOSAL_TEXTS.pending
      : (proposal.message ?? PROPOSAL_TEXTS[proposal.status]);
  const tone =
    proposal.status === 'accepted'
      ? 'border-success'
      : proposal.status === 'rejected'
        ? 'border-base-300 opacity-80'
        : 'border-primary';
  return (
    <button
      type="button"
      data-testid="proposal-card"
      data-status={proposal.status}
      className={`card card-border w-full cursor-pointer bg-base-100 text-left ${tone}`}
      onClick={onOpen}
    >
      <span className="card-body gap-1 p-3">
        <span className="font-semibold">{TOOL_LABELS[proposal.toolName] ?? 'Proposed changes'}</span>
        <span className="text-sm text-base-content/70">{status}</span>
      </span>
    </button>
  );
}
