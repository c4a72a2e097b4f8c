import { EDIT_MODES, PROPOSAL_FORMATS } from '@planwright/sdk/proposals';
import { type Tool, tool } from 'ai';
import { z } from 'zod';
import type { ProposalToolName } from './ai-provider.js';

/** The proposal tool names, in the order they are offered. */
export const PROPOSAL_TOOL_NAME_LIST: readonly ProposalToolName[] = [
  'propose_full_subsection',
  'propose_partial_edits',
];

/** True when a model named one of our two tools (a model may invent others). */
export function isProposalToolName(name: string): name is ProposalToolName {
  return (PROPOSAL_TOOL_NAME_LIST as readonly string[]).includes(name);
}

const formatSchema = z
  .enum(PROPOSAL_FORMATS)
  .describe(
    'How `content` is written: "markdown" (preferred), "html", or "tiptap_json" (then `content` is the JSON text ' +
      'of a Tiptap doc: {"type":"doc","content":[...]}).',
  );

/** What the model fills in to replace one subsection's whole body (spec 001 §3 "Tool proposal"). */
export const fullSubsectionInputSchema = z.object({
  subsection_uuid: z
    .string()
    .describe(
      'The uuid of the subsection to rewrite, exactly as the plan outline in the instructions gives it ' +
        '(never invent one).',
    ),
  format: formatSchema,
  content: z
    .string()
    .describe(
      "The subsection's complete new body, without its heading. Keep what the user wrote unless asked to " +
        'change it.',
    ),
  title: z.string().optional().describe('A new title for the subsection, only when the user asked for one.'),
  notes: z.string().optional().describe('One or two sentences for the user: what changed and why.'),
});

/** One edit of a partial-edits proposal. */
export const partialEditSchema = z.object({
  targetNodeId: z
    .string()
    .describe(
      'The id of the block to edit: the [#nodeId] marker in front of that block in the section text, ' +
        'without "[#" and "]".',
    ),
  mode: z
    .enum(EDIT_MODES)
    .describe(
      '"replace" the block, "insert_after" or "insert_before" it new blocks, or "delete" it (no content).',
    ),
  format: formatSchema,
  content: z.string().optional().describe('The new block(s); required for every mode except "delete".'),
  reason: z.string().optional().describe('Why this edit, in a few words for the user.'),
});

/** What the model fills in to change a few blocks of a section (spec 001 §3 "Tool proposal"). */
export const partialEditsInputSchema = z.object({
  edits: z.array(partialEditSchema).min(1).describe('The edits, in document order.'),
  notes: z.string().optional().describe('One or two sentences for the user about the edits as a whole.'),
});

/**
 * The two proposal tools as the AI SDK offers them to a model. They have no `execute`: a call ends the
 * model's turn and the server forwards it to the user for approval; the decision comes back as the tool's
 * result in the next turn.
 */
export function proposalTools(): Record<ProposalToolName, Tool> {
  return {
    propose_full_subsection: tool({
      description:
        'Propose a complete new body for one subsection of the plan. The user reviews it and accepts or rejects it; nothing changes until they accept. Use it to draft an empty subsection or rewrite one entirely. Take the subsection_uuid from the plan outline. Never propose changes to a subsection marked finalized.',
      inputSchema: fullSubsectionInputSchema,
    }),
    propose_partial_edits: tool({
      description:
        'Propose targeted edits to individual blocks (paragraphs, list items, headings) of the section text. Each block in the section text is preceded by a [#nodeId] marker; use that id as targetNodeId. The user reviews each edit and accepts or rejects it. Prefer this over propose_full_subsection for small changes. Never edit blocks of a finalized subsection.',
      inputSchema: partialEditsInputSchema,
    }),
  };
}
