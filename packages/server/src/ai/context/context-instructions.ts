import type { ProviderInfo } from '../providers/ai-provider.js';

/** The fixed instructions on proposing edits (spec 001 §3 tool payloads), sent with every chat turn. */
export const PROPOSAL_INSTRUCTIONS = `## How to change the plan
You never edit the plan directly. You propose changes with one of two tools, and the user accepts or rejects each proposal:
- propose_full_subsection: replaces the whole body of one subsection. Give subsection_uuid (the uuid shown at the subsection's heading below), format ("markdown" is preferred; "html" and "tiptap_json" are also accepted), content (the new body, without the subsection's own title), an optional title, and notes explaining the change.
- propose_partial_edits: changes single blocks. Give edits, each with targetNodeId (the id of a block marker such as [#abc123] below, without the brackets and #), mode ("replace", "insert_after", "insert_before" or "delete"), format ("markdown", "html" or "tiptap_json"), content (not needed for delete) and a short reason; plus notes for the whole proposal.
Rules:
- Use only uuids and block ids that appear in this prompt; never invent one.
- Never propose changes to a subsection marked finalized. If the user asks for one, say that the subsection is finalized and must be reopened first.
- The markers ([#…]) and the bracketed lines about uuids and progress are annotations, not text of the plan: never copy them into a proposal.
- In Markdown content, use level-3 and level-4 headings (### and ####) at most; # and ## are the plan's own section and subsection titles.
- Answer in the language the user writes in, and keep explanations short; put the proposed text in the tool call, not in the chat answer.`;

/** Said instead of the tool instructions when the provider cannot call tools. */
export const NO_TOOLS_INSTRUCTIONS = `## How to change the plan
Proposal tools are not available with this provider. Write suggested text in your answer as Markdown, say which subsection it is for, and never suggest changes to a subsection marked finalized. Answer in the language the user writes in.`;

/**
 * The instructions part: the tool rules, and a note for each option the user turned on that the
 * provider cannot honour (issue 8: "honoured when the provider supports them, otherwise said so").
 */
export function instructionsText(
  provider: ProviderInfo,
  options: { webAccess: boolean; research: boolean },
): string {
  const lines = [provider.supports.tools ? PROPOSAL_INSTRUCTIONS : NO_TOOLS_INSTRUCTIONS];
  const missing: string[] = [];
  if (options.webAccess && !provider.supports.webAccess) missing.push('web access');
  if (options.research && !provider.supports.research) missing.push('research');
  if (missing.length > 0) {
    lines.push(
      `Note: the user turned on ${missing.join(' and ')}, but ${provider.label} cannot do that. ` +
        'Say so briefly at the start of your answer, then answer from the plan and what you already know, ' +
        'and mark facts that should be checked.',
    );
  }
  const granted: string[] = [];
  if (options.webAccess && provider.supports.webAccess) granted.push('web access');
  if (options.research && provider.supports.research) granted.push('research');
  if (granted.length > 0) {
    lines.push(`The user turned on ${granted.join(' and ')}: you may use it, and name your sources.`);
  }
  return lines.join('\n\n');
}
