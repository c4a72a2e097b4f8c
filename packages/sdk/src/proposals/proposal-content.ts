import type Token from 'markdown-it/lib/token.mjs';
import { FormatError } from '../errors/format-error.js';
import { type HtmlParser, htmlToDocument } from '../formats/html-import.js';
import type { ImportResult } from '../formats/import-report.js';
import { markdownToDocument } from '../formats/markdown-import.js';
import { markdownParser } from '../formats/markdown-syntax.js';
import {
  type BlockJson,
  type DocumentJson,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_NODES,
} from '../model/document-json.js';
import type { GenerateId } from '../model/model-ids.js';
import { normalizeDocument } from '../model/normalize-document.js';
import type { ProposalContent } from './proposal-payloads.js';
import { type ProposalFailure, proposalFailure } from './proposal-result.js';

/** Options for reading proposed content. */
export interface ProposalContentOptions {
  /** Ids for blocks that lack one. Defaults to `crypto.randomUUID()`. */
  generateId?: GenerateId;
  /** Parses HTML (format `html`); defaults to the browser's `DOMParser`, in Node pass `parseHtmlInNode`. */
  parseHtml?: HtmlParser;
}

/** Proposed content read into body blocks, or why it could not be. */
export type ProposalBlocksResult = { ok: true; blocks: BlockJson[] } | ProposalFailure;

/** Placeholder uuids of the scratch section that content is normalised inside (never leave this module). */
const SCRATCH_SECTION = '00000000-0000-4000-8000-00000000a001';
const SCRATCH_SUBSECTION = '00000000-0000-4000-8000-00000000a002';

interface LooseNode {
  [key: string]: unknown;
}

/** Thrown inside the structured walk only; turned into a typed failure at its edge. */
class ContentProblem extends Error {}

/**
 * Reads proposed content into blocks for a subsection body, with the AI-insert rules of spec 001 §5
 * (P5–P9): Markdown headings of level 3 or more are demoted by two (minimum 1) and the level-1/2 results
 * land as headings 3/4; tiptap_json and HTML are "structured": levels clamped to 3–4, section and
 * subsection titles become level-3 headings. Never throws.
 */
export function proposalContentToBlocks(
  content: ProposalContent,
  options: ProposalContentOptions = {},
): ProposalBlocksResult {
  try {
    if (content.format === 'markdown') return fromMarkdown(content.text ?? '', options);
    if (content.format === 'html') return fromHtml(content.text ?? '', options);
    let json = content.json;
    if (json === undefined) {
      try {
        json = JSON.parse(content.text ?? '') as unknown;
      } catch {
        return proposalFailure('invalid_content', 'The tiptap_json content is not JSON.');
      }
    }
    return fromStructuredNodes(json, options);
  } catch (error) {
    if (error instanceof FormatError) return proposalFailure('invalid_content', error.message);
    if (error instanceof ContentProblem) return proposalFailure('invalid_content', error.message);
    if (error instanceof TypeError && /generateId/.test(error.message)) throw error;
    return proposalFailure('invalid_content', 'The content could not be read.');
  }
}

// ── tiptap_json ─────────────────────────────────────────────────────────────────────────────────

function fromStructuredNodes(json: unknown, options: ProposalContentOptions): ProposalBlocksResult {
  const roots = Array.isArray(json) ? json : [json];
  const budget = { nodes: 0 };
  const nodes: unknown[] = [];
  for (const root of roots) structured(root, 1, budget, nodes);
  return normalisedBlocks(nodes, options);
}

/** Structured rule (P7): copies a node, unwrapping docs, sections and subsections, clamping headings to 3–4. */
function structured(value: unknown, depth: number, budget: { nodes: number }, out: unknown[]): void {
  if (depth > MAX_DOCUMENT_DEPTH)
    throw new ContentProblem(`Nodes are nested more than ${MAX_DOCUMENT_DEPTH} levels deep.`);
  budget.nodes += 1;
  if (budget.nodes > MAX_DOCUMENT_NODES) throw new ContentProblem(`More than ${MAX_DOCUMENT_NODES} nodes.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // Normalisation refuses non-objects (M4); bare strings read as text, the likeliest intent.
    if (typeof value === 'string' && value !== '') out.push({ type: 'text', text: value });
    return;
  }
  const node = value as LooseNode;
  const type = node.type;
  const children = Array.isArray(node.content) ? (node.content as unknown[]) : undefined;
  const copyChildren = (): unknown[] | undefined => {
    if (children === undefined) return undefined;
    const copied: unknown[] = [];
    for (const child of children) structured(child, depth + 1, budget, copied);
    return copied;
  };
  if (type === 'doc' || type === 'section' || type === 'subsection') {
    for (const child of children ?? []) structured(child, depth, budget, out);
    return;
  }
  if (type === 'sectionHeading' || type === 'subsectionHeading' || type === 'heading') {
    const attrs = typeof node.attrs === 'object' && node.attrs !== null ? (node.attrs as LooseNode) : {};
    const level = type === 'heading' ? clampedLevel(attrs.level) : 3;
    const nodeId = type === 'heading' ? attrs.nodeId : undefined;
    out.push({ type: 'heading', attrs: { level, nodeId: nodeId ?? null }, content: copyChildren() });
    return;
  }
  const copy: LooseNode = { ...node };
  const copied = copyChildren();
  if (copied !== undefined) copy.content = copied;
  out.push(copy);
}

/** Structured AI results: headings clamped to 3–4 (spec 001 §5); not a number reads as 3 (M10). */
function clampedLevel(level: unknown): 3 | 4 {
  return typeof level === 'number' && Number.isFinite(level) && level >= 4 ? 4 : 3;
}

// ── Markdown ────────────────────────────────────────────────────────────────────────────────────

/**
 * Markdown rule (P6): levels ≥ 3 lose two (min 1), so 3→1, 4→2, 5→3, 6→4; levels 1 and 2 (written or
 * demoted) then land as headings 3 and 4, the model's body levels. The reader already gives 1→section
 * title, 2→subsection title, 3, 4; only 5 and 6 (which it would make 4) are rewritten in the source.
 */
function fromMarkdown(markdown: string, options: ProposalContentOptions): ProposalBlocksResult {
  const source = demoteDeepAtxHeadings(markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  const imported = markdownToDocument(source, { generateId: options.generateId });
  return normalisedBlocks(flattenImported(imported, 4), options);
}

function demoteDeepAtxHeadings(markdown: string): string {
  if (!markdown.includes('#####')) return markdown;
  const tokens: Token[] = markdownParser().parse(markdown, {});
  const lines = markdown.split('\n');
  let changed = false;
  for (const token of tokens) {
    if (token.type !== 'heading_open' || token.map === null || !token.markup.startsWith('#')) continue;
    const rank = token.markup.length;
    if (rank < 5) continue;
    const line = lines[token.map[0]];
    if (line === undefined) continue;
    const at = line.indexOf('#');
    if (at < 0 || line.slice(at, at + rank) !== token.markup) continue;
    lines[token.map[0]] = line.slice(0, at) + '#'.repeat(rank - 2) + line.slice(at + rank);
    changed = true;
  }
  return changed ? lines.join('\n') : markdown;
}

// ── HTML ────────────────────────────────────────────────────────────────────────────────────────

/** Structured rule (P7) for HTML: `h1` and `h2` become level 3, `h5`/`h6` level 4 (the reader's F31). */
function fromHtml(html: string, options: ProposalContentOptions): ProposalBlocksResult {
  const imported = htmlToDocument(html, { generateId: options.generateId, parseHtml: options.parseHtml });
  return normalisedBlocks(flattenImported(imported, 3), options);
}

/**
 * An imported document as one run of blocks: section titles become level-3 headings, subsection titles
 * `subsectionLevel` headings, blank titles are left out, and the "Untitled" section the reader adds
 * for leading content gives no heading (it was never written).
 */
function flattenImported(imported: ImportResult, subsectionLevel: 3 | 4): unknown[] {
  const synthetic = imported.report.notes.some((note) => note.code === 'untitled_section_added');
  const out: unknown[] = [];
  imported.document.content.forEach((section, index) => {
    const [heading, ...rest] = section.content;
    if (!(synthetic && index === 0) && heading.content !== undefined) {
      out.push({ type: 'heading', attrs: { level: 3, nodeId: null }, content: heading.content });
    }
    for (const child of rest) {
      if (child.type !== 'subsection') {
        out.push(child);
        continue;
      }
      const [subHeading, ...blocks] = child.content;
      if (subHeading.content !== undefined) {
        out.push({
          type: 'heading',
          attrs: { level: subsectionLevel, nodeId: null },
          content: subHeading.content,
        });
      }
      out.push(...blocks);
    }
  });
  return out;
}

// ── Shared ──────────────────────────────────────────────────────────────────────────────────────

/** Normalises loose nodes as the body of a scratch subsection (P5): links, marks, attributes, ids. */
function normalisedBlocks(nodes: unknown[], options: ProposalContentOptions): ProposalBlocksResult {
  const scratch = {
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: SCRATCH_SECTION },
        content: [
          { type: 'sectionHeading' },
          {
            type: 'subsection',
            attrs: { uuid: SCRATCH_SUBSECTION },
            content: [{ type: 'subsectionHeading' }, ...nodes],
          },
        ],
      },
    ],
  };
  const result = normalizeDocument(scratch, { generateId: options.generateId });
  if (!result.ok) return proposalFailure('invalid_content', result.error.message);
  const blocks = scratchBlocks(result.doc);
  if (blocks === undefined)
    return proposalFailure('invalid_content', 'The content does not fit in one subsection.');
  return { ok: true, blocks };
}

function scratchBlocks(doc: DocumentJson): BlockJson[] | undefined {
  if (doc.content.length !== 1) return undefined;
  const section = doc.content[0];
  if (section === undefined || section.content.length !== 2) return undefined;
  const subsection = section.content[1];
  if (subsection?.type !== 'subsection') return undefined;
  const [, ...blocks] = subsection.content;
  return blocks;
}
