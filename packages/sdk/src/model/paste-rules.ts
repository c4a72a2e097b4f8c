import type {
  BlockJson,
  DocumentJson,
  SectionJson,
  SubsectionHeadingJson,
  SubsectionJson,
} from './document-json.js';
import { defaultGenerateId, type GenerateId, IdAllocator } from './model-ids.js';
import { ownField } from './node-text.js';
import { normalizeDocument } from './normalize-document.js';

/**
 * The paste rules of spec 001 §5 (SPEC.md M40–M46), on node JSON so that the web editor, the server and
 * the CLI apply the same ones. The input is what a clipboard parse gives (ProseMirror's
 * `slice.content.toJSON()`, or any other list of nodes): `unknown`, since pasted content is foreign.
 */

/** Where the pasted content lands. */
export type PasteTarget =
  /** A section or subsection title: only plain text goes in (M40). */
  | { kind: 'title' }
  /**
   * The body of a section or subsection. `sectionUuid` is the section holding it: without one, level-2
   * headings cannot become subsections (spec 001 §5 "needs a parent uuid") and are demoted instead (M42).
   */
  | { kind: 'body'; sectionUuid: string | null };

/** What to insert, by target. */
export type PastePlan =
  /** Text for a title; may be empty (then nothing is inserted). */
  | { kind: 'title'; text: string }
  /**
   * Blocks for the place of the cursor, then subsections made from level-2 headings, to go after the
   * current subsection (or first in the section when the cursor is in the section's own body).
   */
  | { kind: 'body'; blocks: BlockJson[]; subsections: SubsectionJson[] };

/** Options of {@link planPaste}. */
export interface PasteOptions {
  /** Makes the uuids of new subsections and the nodeIds of pasted blocks. Defaults to `crypto.randomUUID()`. */
  generateId?: GenerateId;
}

/** How deep sections, subsections and docs inside a paste are unwrapped; deeper ones are left to normalisation. */
const MAX_UNWRAP_DEPTH = 64;

/**
 * C0 controls other than tab, line feed and carriage return, DEL, and UTF-16 surrogates that are not part
 * of a pair (with the `u` flag a pair reads as one code point, so the range only meets lone halves). The
 * server refuses NUL and unpaired surrogates (docs/http-api.md "Content"), so a paste must never bring
 * them in, or every later autosave would fail.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSTORABLE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]/gu;

/** Pasted text without the characters a document cannot store (M44). */
export function cleanPastedText(text: string): string {
  return text.replace(UNSTORABLE_TEXT, '');
}

/** Whitespace runs (any Unicode space, line breaks, tabs) become one space; the ends are trimmed (M40). */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * The plain text of pasted nodes for a title (M40): the text of every text node in reading order, with a
 * space for each hard break and between blocks, cleaned (M44), whitespace collapsed and trimmed.
 */
export function pastedTitleText(nodes: readonly unknown[]): string {
  const parts: string[] = [];
  try {
    collectText(nodes, parts, 0);
  } catch {
    // A node that throws while being read (a getter, a proxy) ends the reading; what was read stays.
  }
  return collapseWhitespace(cleanPastedText(parts.join('')));
}

function collectText(nodes: readonly unknown[], parts: string[], depth: number): void {
  if (depth > MAX_UNWRAP_DEPTH) return;
  for (const node of nodes) {
    const type = ownField(node, 'type');
    const text = ownField(node, 'text');
    if (type === 'text' && typeof text === 'string') {
      parts.push(text);
      continue;
    }
    // Blocks and hard breaks separate words; text nodes of one paragraph do not.
    parts.push(' ');
    const content = ownField(node, 'content');
    if (Array.isArray(content)) collectText(content, parts, depth + 1);
    parts.push(' ');
  }
}

/** A heading found at the top of a paste (or as the title of a pasted section or subsection). */
interface PastedHeading {
  kind: 'heading';
  /** 1 for a section title, 2 for a subsection title, else the heading's level (any number). */
  level: number;
  /** The heading's inline nodes, copied. */
  content: readonly unknown[];
}

/** A node that is not a heading, copied for normalisation. */
interface PastedNode {
  kind: 'node';
  node: unknown;
}

type PastedItem = PastedHeading | PastedNode;

/** Reads a heading level: a number, else 3 (as normalisation reads one, M10). */
function levelOf(node: unknown): number {
  const level = ownField(ownField(node, 'attrs'), 'level');
  return typeof level === 'number' && Number.isFinite(level) ? level : 3;
}

function contentOf(node: unknown): readonly unknown[] {
  const content = ownField(node, 'content');
  return Array.isArray(content) ? content : [];
}

/**
 * Lists the pasted nodes in reading order, with pasted documents, sections and subsections unwrapped
 * (their titles become level-1 and level-2 headings, M43) so nothing pasted can nest one section in
 * another or bring back a uuid that is already in the document.
 */
function flatten(nodes: readonly unknown[], items: PastedItem[], depth: number): void {
  for (const node of nodes) {
    const type = ownField(node, 'type');
    if (type === 'doc' || type === 'section' || type === 'subsection') {
      if (depth < MAX_UNWRAP_DEPTH) flatten(contentOf(node), items, depth + 1);
    } else if (type === 'sectionHeading' || type === 'subsectionHeading' || type === 'heading') {
      const level = type === 'sectionHeading' ? 1 : type === 'subsectionHeading' ? 2 : levelOf(node);
      items.push({ kind: 'heading', level, content: copyNodes(contentOf(node), depth + 1) });
    } else {
      for (const copy of copyNode(node, depth + 1)) items.push({ kind: 'node', node: copy });
    }
  }
}

function copyNodes(nodes: readonly unknown[], depth: number): unknown[] {
  return nodes.flatMap((node) => copyNode(node, depth));
}

/**
 * Copies a pasted node for normalisation, so the plan shares nothing with the input. Structure found
 * inside other nodes (a title in a quote, a section in a list) is unwrapped here too: its titles become
 * level-3 and level-4 headings, never subsections, and its uuids are not copied (M43). Anything that is
 * not an object, or lies deeper than normalisation reads, is left out.
 */
function copyNode(node: unknown, depth: number): unknown[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node) || depth > MAX_UNWRAP_DEPTH) return [];
  const type = ownField(node, 'type');
  const children = copyNodes(contentOf(node), depth + 1);
  if (type === 'doc' || type === 'section' || type === 'subsection') return children;
  if (type === 'sectionHeading' || type === 'subsectionHeading' || type === 'heading') {
    const level = type === 'sectionHeading' ? 1 : type === 'subsectionHeading' ? 2 : levelOf(node);
    return [{ type: 'heading', attrs: { level: demotedLevel(level) }, content: children }];
  }
  const copy: Record<string, unknown> = { type, content: children };
  const attrs = ownField(node, 'attrs');
  if (typeof attrs === 'object' && attrs !== null) copy.attrs = { ...attrs };
  const marks = ownField(node, 'marks');
  if (Array.isArray(marks))
    copy.marks = marks.map((mark) => (typeof mark === 'object' && mark !== null ? copyMark(mark) : mark));
  const text = ownField(node, 'text');
  if (text !== undefined) copy.text = text;
  return [copy];
}

function copyMark(mark: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { type: ownField(mark, 'type') };
  const attrs = ownField(mark, 'attrs');
  if (typeof attrs === 'object' && attrs !== null) copy.attrs = { ...attrs };
  return copy;
}

/** The level a pasted heading gets in a body (M41, M42): 1 → 3, 2 → 4 (when not a subsection), above 4 → 4. */
function demotedLevel(level: number): 3 | 4 {
  if (level === 2 || level >= 4) return 4;
  return 3;
}

function plainTitle(content: readonly unknown[]): string {
  return pastedTitleText(content);
}

/**
 * Decides what a paste inserts (M40–M46). Never throws; the input is never changed and the output shares
 * no object with it. A body plan is always valid under `getPlanwrightSchema()`: `blocks` as content of a
 * section or subsection body, each subsection as a child of a section.
 */
export function planPaste(
  nodes: readonly unknown[],
  target: PasteTarget,
  options: PasteOptions = {},
): PastePlan {
  if (target.kind === 'title') return { kind: 'title', text: pastedTitleText(nodes) };
  const generateId = options.generateId ?? defaultGenerateId;
  try {
    return planBody(nodes, target.sectionUuid !== null, generateId);
  } catch {
    // Unreadable input (a throwing getter) or a broken generateId: fall back to the plain text (M46).
    return plainTextPlan(nodes, generateId);
  }
}

function planBody(nodes: readonly unknown[], makeSubsections: boolean, generateId: GenerateId): PastePlan {
  const items: PastedItem[] = [];
  flatten(nodes, items, 0);
  const ids = new IdAllocator(generateId);
  const body: unknown[] = [];
  const subsections: { type: 'subsection'; attrs: { uuid: string }; content: unknown[] }[] = [];
  for (const item of items) {
    const into = subsections.at(-1)?.content ?? body;
    if (item.kind === 'node') {
      into.push(item.node);
      continue;
    }
    // A blank heading is left out, as normalisation leaves out blank converted titles (M6c).
    const title = plainTitle(item.content);
    if (title === '') continue;
    if (item.level === 2 && makeSubsections) {
      const heading: SubsectionHeadingJson = {
        type: 'subsectionHeading',
        attrs: { level: 2 },
        content: [{ type: 'text', text: title }],
      };
      subsections.push({ type: 'subsection', attrs: { uuid: ids.newUuid() }, content: [heading] });
      continue;
    }
    into.push({ type: 'heading', attrs: { level: demotedLevel(item.level) }, content: item.content });
  }
  const section = { type: 'section', content: [{ type: 'sectionHeading' }, ...body, ...subsections] };
  const normalized = normalizeClean({ type: 'doc', content: [section] }, generateId);
  if (normalized === null) return plainTextPlan(nodes, generateId);
  const [, ...children] = (normalized.content[0] as SectionJson).content;
  const blocks: BlockJson[] = [];
  const pastedSubsections: SubsectionJson[] = [];
  for (const child of children) {
    if (child.type === 'subsection') pastedSubsections.push(child);
    else blocks.push(child);
  }
  // New subsections get a line to type on, as new ones do (M32).
  for (const subsection of pastedSubsections) {
    if (subsection.content.length === 1) {
      subsection.content.push({ type: 'paragraph', attrs: { indent: 0, nodeId: null } });
    }
  }
  // Pasted copies never repeat an id: every block gets a new one (M43).
  renewNodeIds(blocks, ids);
  for (const subsection of pastedSubsections) renewNodeIds(subsection.content, ids);
  return { kind: 'body', blocks, subsections: pastedSubsections };
}

/** Normalises, then removes unstorable characters (M44) and normalises again if that changed anything. */
function normalizeClean(input: unknown, generateId: GenerateId): DocumentJson | null {
  const first = normalizeDocument(input, { generateId });
  if (!first.ok) return null;
  if (!cleanTexts(first.doc.content)) return first.doc;
  const second = normalizeDocument(first.doc, { generateId });
  return second.ok ? second.doc : null;
}

/** Cleans every text node in place (the tree is normalisation's fresh output); true when one changed. */
function cleanTexts(nodes: readonly unknown[]): boolean {
  let changed = false;
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null) continue;
    const record = node as { text?: unknown; content?: unknown };
    if (typeof record.text === 'string') {
      const cleaned = cleanPastedText(record.text);
      if (cleaned !== record.text) {
        record.text = cleaned;
        changed = true;
      }
    }
    if (Array.isArray(record.content) && cleanTexts(record.content)) changed = true;
  }
  return changed;
}

function renewNodeIds(nodes: readonly unknown[], ids: IdAllocator): void {
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null) continue;
    const record = node as { attrs?: { nodeId?: unknown }; content?: unknown };
    if (record.attrs !== undefined && 'nodeId' in record.attrs) record.attrs.nodeId = ids.newNodeId();
    if (Array.isArray(record.content)) renewNodeIds(record.content, ids);
  }
}

/** The fallback of M46: the pasted text as one paragraph (or nothing when there is none). */
function plainTextPlan(nodes: readonly unknown[], generateId: GenerateId): PastePlan {
  const text = pastedTitleText(nodes);
  if (text === '') return { kind: 'body', blocks: [], subsections: [] };
  let nodeId: string | null = null;
  try {
    nodeId = new IdAllocator(generateId).newNodeId();
  } catch {
    // A generator that only returns junk leaves the id to the editor or the server.
  }
  return {
    kind: 'body',
    blocks: [{ type: 'paragraph', attrs: { indent: 0, nodeId }, content: [{ type: 'text', text }] }],
    subsections: [],
  };
}
