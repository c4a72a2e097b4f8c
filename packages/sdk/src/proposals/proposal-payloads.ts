import * as z from 'zod';

/** The two tools an AI model proposes document changes with (spec 001 §3 "Tool proposal"). */
export const PROPOSAL_TOOL_NAMES = ['propose_full_subsection', 'propose_partial_edits'] as const;

/** One of the {@link PROPOSAL_TOOL_NAMES}. */
export type ProposalToolName = (typeof PROPOSAL_TOOL_NAMES)[number];

/** How proposed content is written (P3). */
export const PROPOSAL_FORMATS = ['tiptap_json', 'markdown', 'html'] as const;

/** One of the {@link PROPOSAL_FORMATS}. */
export type ProposalFormat = (typeof PROPOSAL_FORMATS)[number];

/** What a partial edit does to its target block (P20). */
export const EDIT_MODES = ['replace', 'insert_after', 'insert_before', 'delete'] as const;

/** One of the {@link EDIT_MODES}. */
export type EditMode = (typeof EDIT_MODES)[number];

/** Longest Markdown or HTML text one proposal may carry (P4): far past any real answer. */
export const MAX_PROPOSAL_TEXT_LENGTH = 4 * 1024 * 1024;

/** Most edits one partial-edits proposal may carry (P4). */
export const MAX_PROPOSAL_EDITS = 1000;

const id = z.string().trim().min(1).max(200);
const text = z.string().max(MAX_PROPOSAL_TEXT_LENGTH);
const note = z.string().max(100_000).nullish();
const format = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(PROPOSAL_FORMATS));
// Content trees stay `unknown` here: normalisation is their trust boundary (P5).
const nodes = z.array(z.unknown()).max(100_000);

/** A proposed body: text (Markdown, HTML, or JSON written as text) or a tree. */
export interface ProposalContent {
  format: ProposalFormat;
  /** Markdown or HTML (or Tiptap JSON sent as a string). */
  text?: string;
  /** A Tiptap doc, one node, or a list of nodes (format `tiptap_json`). */
  json?: unknown;
}

/** A parsed `propose_full_subsection` payload. */
export interface FullSubsectionProposal {
  tool: 'propose_full_subsection';
  /** The subsection's uuid, or the nodeId of its heading or of a block inside it (P10). */
  target: string;
  content: ProposalContent;
  /** A new title for the subsection, when given and not blank. */
  title?: string;
  notes?: string;
}

/** One edit of a `propose_partial_edits` payload. */
export interface PartialEdit {
  targetNodeId: string;
  mode: EditMode;
  /** Absent for `delete`. */
  content?: ProposalContent;
  reason?: string;
}

/** A parsed `propose_partial_edits` payload. */
export interface PartialEditsProposal {
  tool: 'propose_partial_edits';
  edits: PartialEdit[];
  notes?: string;
}

/** Either proposal. */
export type Proposal = FullSubsectionProposal | PartialEditsProposal;

/** Picks the tree a payload carries: `doc`, `tiptap_json`, `tiptapJson`, `tiptapNodes` or an object `content`. */
function jsonOf(raw: {
  doc?: unknown;
  tiptap_json?: unknown;
  tiptapJson?: unknown;
  tiptapNodes?: unknown;
  content?: unknown;
}): unknown {
  for (const value of [raw.doc, raw.tiptap_json, raw.tiptapJson, raw.tiptapNodes]) {
    if (value !== undefined && value !== null) return value;
  }
  return typeof raw.content === 'object' && raw.content !== null ? raw.content : undefined;
}

/** The format a payload names, or the one its fields imply (a tree: JSON; text: Markdown). */
function formatOf(named: ProposalFormat | undefined, json: unknown): ProposalFormat {
  return named ?? (json === undefined ? 'markdown' : 'tiptap_json');
}

const contentFields = {
  format: format.nullish(),
  doc: z.unknown().optional(),
  tiptap_json: z.unknown().optional(),
  tiptapJson: z.unknown().optional(),
  tiptapNodes: z.union([nodes, z.record(z.string(), z.unknown())]).nullish(),
  content: z.union([text, nodes, z.record(z.string(), z.unknown())]).nullish(),
};

type ContentFields = z.infer<z.ZodObject<typeof contentFields>>;

function contentOf(raw: ContentFields, ctx: z.RefinementCtx): ProposalContent | undefined {
  const json = jsonOf(raw);
  const chosen = formatOf(raw.format ?? undefined, json);
  const textValue = typeof raw.content === 'string' ? raw.content : undefined;
  if (chosen === 'tiptap_json') {
    if (json !== undefined) return { format: chosen, json };
    if (textValue !== undefined) return { format: chosen, text: textValue };
  } else if (textValue !== undefined) {
    return { format: chosen, text: textValue };
  }
  ctx.addIssue({
    code: 'custom',
    message:
      chosen === 'tiptap_json'
        ? 'A tiptap_json proposal needs a doc or nodes.'
        : `A ${chosen} proposal needs text content.`,
    path: ['content'],
  });
  return undefined;
}

/** The `propose_full_subsection` payload: tolerant id spellings (P2), content in one of three formats. */
export const fullSubsectionPayloadSchema = z
  .object({
    subsectionNodeId: id.nullish(),
    subsection_node_id: id.nullish(),
    subsection_uuid: id.nullish(),
    subsectionUuid: id.nullish(),
    title: z.string().max(1000).nullish(),
    notes: note,
    ...contentFields,
  })
  .transform((raw, ctx): FullSubsectionProposal => {
    const target =
      raw.subsectionNodeId ?? raw.subsection_node_id ?? raw.subsection_uuid ?? raw.subsectionUuid;
    if (target === undefined || target === null) {
      ctx.addIssue({ code: 'custom', message: 'The subsection id is missing.', path: ['subsectionNodeId'] });
    }
    const content = contentOf(raw, ctx);
    if (target === undefined || target === null || content === undefined) return z.NEVER;
    const proposal: FullSubsectionProposal = { tool: 'propose_full_subsection', target, content };
    if (typeof raw.title === 'string' && raw.title.trim() !== '') proposal.title = raw.title.trim();
    if (typeof raw.notes === 'string') proposal.notes = raw.notes;
    return proposal;
  });

const editSchema = z
  .object({
    targetNodeId: id.nullish(),
    target_node_id: id.nullish(),
    mode: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .pipe(z.enum(EDIT_MODES)),
    reason: note,
    ...contentFields,
  })
  .transform((raw, ctx): PartialEdit => {
    const target = raw.targetNodeId ?? raw.target_node_id;
    if (target === undefined || target === null) {
      ctx.addIssue({ code: 'custom', message: 'The target nodeId is missing.', path: ['targetNodeId'] });
      return z.NEVER;
    }
    const edit: PartialEdit = { targetNodeId: target, mode: raw.mode };
    if (typeof raw.reason === 'string') edit.reason = raw.reason;
    if (raw.mode === 'delete') return edit;
    const content = contentOf(raw, ctx);
    if (content === undefined) return z.NEVER;
    edit.content = content;
    return edit;
  });

/** The `propose_partial_edits` payload: a list of edits, each accepted or rejected on its own. */
export const partialEditsPayloadSchema = z
  .object({ edits: z.array(editSchema).min(1).max(MAX_PROPOSAL_EDITS), notes: note })
  .transform((raw): PartialEditsProposal => {
    const proposal: PartialEditsProposal = { tool: 'propose_partial_edits', edits: raw.edits };
    if (typeof raw.notes === 'string') proposal.notes = raw.notes;
    return proposal;
  });

/** Why a payload could not be read. */
export type ProposalParseFailure =
  | { ok: false; reason: 'unknown_tool'; message: string }
  | { ok: false; reason: 'invalid_payload'; message: string; issues: z.core.$ZodIssue[] };

/**
 * Reads a tool proposal from the chat socket (untrusted, P1): the tool name and its payload, as spec
 * 001 §3 writes them. A payload sent as a JSON string is parsed first.
 */
export function parseProposal(
  toolName: unknown,
  payload: unknown,
): { ok: true; proposal: Proposal } | ProposalParseFailure {
  if (toolName !== 'propose_full_subsection' && toolName !== 'propose_partial_edits') {
    return {
      ok: false,
      reason: 'unknown_tool',
      message: `Unknown proposal tool: ${String(toolName).slice(0, 80)}.`,
    };
  }
  let value = payload;
  if (typeof payload === 'string') {
    try {
      value = JSON.parse(payload) as unknown;
    } catch {
      return invalid([{ code: 'custom', message: 'The payload is not JSON.', path: [], input: undefined }]);
    }
  }
  const schema =
    toolName === 'propose_full_subsection' ? fullSubsectionPayloadSchema : partialEditsPayloadSchema;
  let parsed: ReturnType<typeof schema.safeParse>;
  try {
    parsed = schema.safeParse(value);
  } catch {
    // A getter or proxy that throws while zod reads it.
    return invalid([
      { code: 'custom', message: 'The payload could not be read.', path: [], input: undefined },
    ]);
  }
  if (!parsed.success) return invalid(parsed.error.issues);
  return { ok: true, proposal: parsed.data };
}

function invalid(issues: z.core.$ZodIssue[]): ProposalParseFailure {
  const first = issues[0];
  const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
  return {
    ok: false,
    reason: 'invalid_payload',
    message: `The proposal payload is malformed${where}: ${first?.message ?? 'unreadable'}.`,
    issues,
  };
}
