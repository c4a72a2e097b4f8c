import { applyFullSubsection } from './apply-full-subsection.js';
import { type ApplyPartialEditsOptions, applyPartialEdits } from './apply-partial-edits.js';
import { parseProposal } from './proposal-payloads.js';
import type { ProposalResult } from './proposal-result.js';

/**
 * Reads a tool proposal straight from the socket and applies it (P1, P10, P20): an unknown tool or a
 * malformed payload is a typed failure like any other.
 */
export function applyProposal(
  document: unknown,
  toolName: unknown,
  payload: unknown,
  options: ApplyPartialEditsOptions = {},
): ProposalResult {
  const parsed = parseProposal(toolName, payload);
  if (!parsed.ok) return { ok: false, reason: parsed.reason, message: parsed.message };
  return parsed.proposal.tool === 'propose_full_subsection'
    ? applyFullSubsection(document, parsed.proposal, options)
    : applyPartialEdits(document, parsed.proposal, options);
}
