import type { ChatProposal } from '@planwright/sdk';
import type { Suggestion } from '@planwright/sdk/proposals';
import type { JSX } from 'react';
import { PROPOSAL_TEXTS, placeLabel, suggestionCount } from './proposal-texts';

const TOOL_LABELS: Record<ChatProposal['toolName'], string> = {
  propose_full_subsection: 'Proposed subsection rewrite',
  propose_partial_edits: 'Proposed edits',
};

/**
 * The short card a proposal shows as in the chat (R5): what it is, where, and its status. The changes are
 * reviewed in the text (R6): a pending card shows them there; a rejected one opens them there again (it can
 * still be accepted); an accepted one is only a record.
 */
export function ProposalCard(props: {
  proposal: ChatProposal;
  /** Its changes pending in the text. */
  pending: readonly Suggestion[];
  onOpen: () => void;
}): JSX.Element {
  const { proposal, pending, onOpen } = props;
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
  const places = [
    ...new Set(pending.map((suggestion) => placeLabel(suggestion.item)).filter((p) => p !== null)),
  ];
  const stale = pending.filter((suggestion) => suggestion.item.problem !== null).length;
  const body = (
    <span className="card-body gap-1 p-3">
      <span className="font-semibold">{TOOL_LABELS[proposal.toolName] ?? 'Proposed changes'}</span>
      {proposal.status === 'pending' && pending.length > 0 && (
        <span className="text-sm [overflow-wrap:anywhere]" data-testid="proposal-summary">
          {suggestionCount(pending.length)}
          {places.length > 0 && ` · ${places.join(', ')}`}
          {stale > 0 && ` · ${PROPOSAL_TEXTS.staleCount(stale)}`}
        </span>
      )}
      <span className="text-sm text-base-content/70">{status}</span>
    </span>
  );
  const className = `card card-border w-full bg-base-100 text-left ${tone}`;
  if (proposal.status === 'accepted') {
    return (
      <div data-testid="proposal-card" data-status={proposal.status} className={className}>
        {body}
      </div>
    );
  }
  return (
    <button
      type="button"
      data-testid="proposal-card"
      data-status={proposal.status}
      className={`${className} cursor-pointer`}
      onClick={onOpen}
    >
      {body}
    </button>
  );
}
