import type { HtmlParser } from '@planwright/sdk/formats';
import { applyProposal } from '@planwright/sdk/proposals';
import type { ProposalToolName } from '../providers/ai-provider.js';

/** A model's tool call made ready for the client, or why it was refused. */
export type WireProposal = { ok: true; payload: Record<string, unknown> } | { ok: false; detail: string };

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A `tiptap_json` content that a model sent as a JSON string becomes the tree itself. */
function treeOf(content: unknown): unknown {
  if (typeof content !== 'string') return content;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/**
 * Turns a model's tool input into the payload of spec 001 §3 (tiptap_json content as a tree: `doc` for
 * a full subsection, `tiptapNodes` for an edit) and checks it against the document as it is now: the
 * target exists, is not finalized, and the content reads. A proposal the client could not apply is
 * never sent.
 */
export function proposalForClient(
  toolName: ProposalToolName,
  input: unknown,
  documentContent: unknown,
  parseHtml: HtmlParser,
): WireProposal {
  const given = record(input);
  if (!given) return { ok: false, detail: 'The tool input is not an object.' };
  let payload: Record<string, unknown>;
  if (toolName === 'propose_full_subsection') {
    payload = { ...given };
    if (given.format === 'tiptap_json') payload.doc = treeOf(given.content);
  } else {
    const edits = Array.isArray(given.edits) ? given.edits : null;
    if (!edits) return { ok: false, detail: 'edits must be a list.' };
    payload = {
      ...given,
      edits: edits.map((edit) => {
        const fields = record(edit);
        if (!fields) return edit;
        return fields.format === 'tiptap_json' && fields.tiptapNodes === undefined
          ? { ...fields, tiptapNodes: treeOf(fields.content) }
          : fields;
      }),
    };
  }
  const check = applyProposal(documentContent, toolName, payload, { parseHtml });
  return check.ok ? { ok: true, payload } : { ok: false, detail: check.message };
}
