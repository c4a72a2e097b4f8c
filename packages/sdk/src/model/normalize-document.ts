import {
  type BlockJson,
  type DocumentJson,
  type HardBreakJson,
  type HeadingJson,
  type InlineJson,
  type LinkMarkJson,
  type ListItemJson,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_NODES,
  MAX_PARAGRAPH_INDENT,
  type MarkJson,
  type MarkName,
  type NodeIdAttrs,
  type SectionAttrs,
  type SectionJson,
  type SubsectionAttrs,
  type SubsectionJson,
  type TextJson,
} from './document-json.js';
import { DocumentStructureError } from './document-structure-error.js';
import { jsonEqual } from './json-equal.js';
import { isAllowedLinkHref } from './link-href.js';
import { defaultGenerateId, type GenerateId, IdAllocator, isNodeId, isUuid } from './model-ids.js';
import {
  paragraphNode,
  plainTextContent,
  sectionHeadingNode,
  subsectionHeadingNode,
} from './node-builders.js';
import { ownField } from './node-text.js';

/** Options of {@link normalizeDocument}. */
export interface NormalizeOptions {
  /** Makes ids for sections, subsections and blocks that lack one. Defaults to `crypto.randomUUID()`. */
  generateId?: GenerateId;
}

/** What {@link normalizeDocument} changed, for the server's log. All counts are 0 for a normalised tree. */
export interface NormalizeReport {
  /** Whether the output differs from the input in any way (including attributes filled with defaults). */
  changed: boolean;
  /** Nodes of unknown types replaced by their children (M5). */
  flattenedNodes: number;
  /** Known nodes moved, split, converted or lifted to fit the structure (M6, M7). */
  restructuredNodes: number;
  /** Nodes created to complete the structure: headings, sections, paragraphs, list items (M6, M7). */
  addedNodes: number;
  /** Nodes removed: empty text nodes (M9). */
  removedNodes: number;
  /** Marks of unknown types, repeated marks and marks where none are allowed (M9). */
  droppedMarks: number;
  /** Links removed because their href is missing or not allowed; their text stays (M8). */
  removedLinks: number;
  /** Attribute values clamped or reset (heading level, indent, `finalized`, link target…) (M10). */
  fixedAttributes: number;
  /** Block `nodeId`s assigned because they were missing, malformed or repeated (M11). */
  assignedNodeIds: number;
  /** Section and subsection `uuid`s assigned because they were missing, malformed or repeated (M11). */
  assignedUuids: number;
}

/** The outcome of {@link normalizeDocument}: never thrown, always a value. */
export type NormalizeResult =
  | { ok: true; doc: DocumentJson; report: NormalizeReport }
  | { ok: false; error: DocumentStructureError };

/** @internal Extra knobs for the structure commands. */
export interface NormalizeInternals extends NormalizeOptions {
  /** Ids used elsewhere (another part of the same document): treated as taken. */
  reservedNodeIds?: Iterable<string>;
  reservedUuids?: Iterable<string>;
}

/** Schema rank of the marks: ProseMirror keeps a node's marks sorted this way (link has priority). */
const MARK_ORDER: readonly MarkName[] = ['link', 'bold', 'italic', 'underline', 'strike', 'code'];
const MARK_NAMES = new Set<string>(MARK_ORDER);
const LINK_TARGETS = new Set(['_blank', '_self', '_parent', '_top']);
const DEFAULT_LINK_TARGET = '_blank';
const DEFAULT_LINK_REL = 'noopener noreferrer nofollow';
const ORDERED_LIST_TYPES = new Set(['1', 'a', 'A', 'i', 'I']);
const CODE_LANGUAGE = /^[A-Za-z0-9_+#.-]{1,64}$/;
const MAX_LIST_START = 1_000_000_000;

/** A section or subsection whose `uuid` may still be missing (assigned at the end, M11). */
type DraftSectionAttrs = Omit<SectionAttrs, 'uuid'> & { uuid: string | null };
type DraftSubsectionAttrs = Omit<SubsectionAttrs, 'uuid'> & { uuid: string | null };

/**
 * What reading one raw node yields: normalised blocks and inline nodes, and the structural parts
 * (headings, sections, subsections, list items) still unfitted, because where they end up depends
 * on their container.
 */
type Piece =
  | { kind: 'block'; node: BlockJson }
  | { kind: 'inline'; node: InlineJson }
  | { kind: 'listItem'; nodeId: string | null; children: Piece[] }
  | { kind: 'sectionHeading'; text: string }
  | { kind: 'subsectionHeading'; text: string }
  | { kind: 'section'; attrs: DraftSectionAttrs; children: Piece[] }
  | { kind: 'subsection'; attrs: DraftSubsectionAttrs; children: Piece[] };

interface SectionDraft {
  attrs: DraftSectionAttrs;
  heading: string;
  blocks: Piece[];
  subsections: SubsectionDraft[];
}

interface SubsectionDraft {
  attrs: DraftSubsectionAttrs;
  heading: string;
  blocks: Piece[];
}

/** Thrown inside the reader to stop at the first thing that cannot be repaired. */
class Refusal {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {}
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childPath(path: string, index: number): string {
  return path === '' ? `content[${index}]` : `${path}.content[${index}]`;
}

function emptyReport(): NormalizeReport {
  return {
    changed: false,
    flattenedNodes: 0,
    restructuredNodes: 0,
    addedNodes: 0,
    removedNodes: 0,
    droppedMarks: 0,
    removedLinks: 0,
    fixedAttributes: 0,
    assignedNodeIds: 0,
    assignedUuids: 0,
  };
}

function newSectionAttrs(): DraftSectionAttrs {
  return { uuid: null, blueprint_uuid: null, id: null, model: null };
}

function newSubsectionAttrs(): DraftSubsectionAttrs {
  return { uuid: null, blueprint_uuid: null, finalized: false };
}

function marksKey(marks: readonly MarkJson[] | undefined): string {
  return marks === undefined ? '' : JSON.stringify(marks);
}

/** Appends an inline node, joining it to a previous text with the same marks as ProseMirror would. */
function pushInline(run: InlineJson[], node: InlineJson): void {
  const last = run[run.length - 1];
  if (node.type === 'text' && last?.type === 'text' && marksKey(last.marks) === marksKey(node.marks)) {
    run[run.length - 1] = { ...last, text: last.text + node.text };
  } else {
    run.push(node);
  }
}

/** The plain text of a normalised node, blocks joined by `separator`. */
function nodeText(node: BlockJson | InlineJson | ListItemJson, separator: string): string {
  if (node.type === 'text') return node.text;
  if (node.type === 'hardBreak') return separator;
  if (node.type === 'horizontalRule') return '';
  const children: readonly (BlockJson | InlineJson | ListItemJson)[] = node.content ?? [];
  const textblock = node.type === 'paragraph' || node.type === 'heading' || node.type === 'codeBlock';
  const parts = children.map((child) => nodeText(child, separator));
  return textblock ? parts.join('') : parts.filter((part) => part !== '').join(separator);
}

class Normalizer {
  readonly report = emptyReport();
  private nodes = 0;

  // ── Reading: shape checks, limits, attributes, marks ──────────────────────────────────────────

  readDocument(input: unknown): SectionJson[] {
    if (!isObject(input)) throw new Refusal('', 'a document must be a JSON object');
    if (ownField(input, 'type') !== 'doc') throw new Refusal('', 'the root node must have type "doc"');
    this.countNode('');
    const pieces = this.readChildren(input, '', 0);
    return this.buildSections(pieces);
  }

  private countNode(path: string): void {
    this.nodes += 1;
    if (this.nodes > MAX_DOCUMENT_NODES) {
      throw new Refusal(path, `the document has more than ${MAX_DOCUMENT_NODES} nodes and marks`);
    }
  }

  private readChildren(node: Record<string, unknown>, path: string, depth: number): Piece[] {
    const content = ownField(node, 'content');
    if (content === undefined || content === null) return [];
    if (!Array.isArray(content)) throw new Refusal(path, 'content must be a list of nodes');
    const pieces: Piece[] = [];
    for (let index = 0; index < content.length; index += 1) {
      for (const piece of this.readNode(content[index], childPath(path, index), depth + 1))
        pieces.push(piece);
    }
    return pieces;
  }

  private readAttrs(node: Record<string, unknown>, path: string): Record<string, unknown> {
    const attrs = ownField(node, 'attrs');
    if (attrs === undefined || attrs === null) return {};
    if (!isObject(attrs)) throw new Refusal(path, 'attrs must be an object');
    return attrs;
  }

  private readNode(raw: unknown, path: string, depth: number): Piece[] {
    if (!isObject(raw)) throw new Refusal(path, 'a node must be a JSON object');
    if (depth > MAX_DOCUMENT_DEPTH) {
      throw new Refusal(path, `nodes are nested more than ${MAX_DOCUMENT_DEPTH} levels deep`);
    }
    this.countNode(path);
    const type = ownField(raw, 'type');
    if (typeof type !== 'string') throw new Refusal(path, 'type must be a string');
    const attrs = this.readAttrs(raw, path);

    switch (type) {
      case 'text': {
        const text = ownField(raw, 'text');
        if (typeof text !== 'string') throw new Refusal(path, 'text must be a string');
        const marks = this.readMarks(raw, path);
        if (text === '') {
          this.report.removedNodes += 1;
          return [];
        }
        const node: TextJson = { type: 'text', text };
        if (marks.length > 0) node.marks = marks;
        return [{ kind: 'inline', node }];
      }
      case 'hardBreak': {
        const marks = this.readMarks(raw, path);
        const node: HardBreakJson = { type: 'hardBreak' };
        if (marks.length > 0) node.marks = marks;
        return [{ kind: 'inline', node }, ...this.readChildren(raw, path, depth)];
      }
      case 'horizontalRule':
        return [{ kind: 'block', node: { type: 'horizontalRule' } }, ...this.readChildren(raw, path, depth)];
      case 'paragraph': {
        const indent = this.readIndent(ownField(attrs, 'indent'));
        const nodeId = readNodeId(attrs);
        return this.fitTextblock(this.readChildren(raw, path, depth), (content, first) =>
          paragraphNode(content, indent, first ? nodeId : null),
        );
      }
      case 'heading': {
        const level = this.readHeadingLevel(ownField(attrs, 'level'));
        const nodeId = readNodeId(attrs);
        return this.fitTextblock(this.readChildren(raw, path, depth), (content, first) => {
          const node: HeadingJson = { type: 'heading', attrs: { level, nodeId: first ? nodeId : null } };
          if (content.length > 0) node.content = content;
          return node;
        });
      }
      case 'codeBlock': {
        const language = this.readLanguage(ownField(attrs, 'language'));
        const text = this.textOf(this.readChildren(raw, path, depth), '\n');
        const content = plainTextContent(text);
        return [
          {
            kind: 'block',
            node: {
              type: 'codeBlock',
              attrs: { language, nodeId: readNodeId(attrs) },
              ...(content === undefined ? {} : { content }),
            },
          },
        ];
      }
      case 'sectionHeading':
      case 'subsectionHeading': {
        const expected = type === 'sectionHeading' ? 1 : 2;
        const level = ownField(attrs, 'level');
        if (level !== undefined && level !== expected) this.report.fixedAttributes += 1;
        return [{ kind: type, text: this.textOf(this.readChildren(raw, path, depth), ' ') }];
      }
      case 'blockquote': {
        const content = this.fitBlocks(this.readChildren(raw, path, depth));
        if (content.length === 0) {
          this.report.addedNodes += 1;
          content.push(paragraphNode());
        }
        return [
          { kind: 'block', node: { type: 'blockquote', attrs: { nodeId: readNodeId(attrs) }, content } },
        ];
      }
      case 'bulletList':
        return [
          {
            kind: 'block',
            node: {
              type: 'bulletList',
              attrs: { nodeId: readNodeId(attrs) },
              content: this.fitList(this.readChildren(raw, path, depth)),
            },
          },
        ];
      case 'orderedList':
        return [
          {
            kind: 'block',
            node: {
              type: 'orderedList',
              attrs: {
                start: this.readListStart(ownField(attrs, 'start')),
                type: this.readListType(ownField(attrs, 'type')),
                nodeId: readNodeId(attrs),
              },
              content: this.fitList(this.readChildren(raw, path, depth)),
            },
          },
        ];
      case 'listItem':
        return [
          { kind: 'listItem', nodeId: readNodeId(attrs), children: this.readChildren(raw, path, depth) },
        ];
      case 'section':
        return [
          {
            kind: 'section',
            attrs: {
              uuid: this.readUuid(ownField(attrs, 'uuid')),
              blueprint_uuid: this.readOptionalUuid(ownField(attrs, 'blueprint_uuid')),
              id: this.readLegacyId(ownField(attrs, 'id')),
              model: this.readNullableString(ownField(attrs, 'model'), null),
            },
            children: this.readChildren(raw, path, depth),
          },
        ];
      case 'subsection':
        return [
          {
            kind: 'subsection',
            attrs: {
              uuid: this.readUuid(ownField(attrs, 'uuid')),
              blueprint_uuid: this.readOptionalUuid(ownField(attrs, 'blueprint_uuid')),
              finalized: this.readFinalized(ownField(attrs, 'finalized')),
            },
            children: this.readChildren(raw, path, depth),
          },
        ];
      default:
        // Unknown types (and a nested `doc`) give way to their children, so their text is kept (M5).
        this.report.flattenedNodes += 1;
        return this.readChildren(raw, path, depth);
    }
  }

  private readMarks(node: Record<string, unknown>, path: string): MarkJson[] {
    const raw = ownField(node, 'marks');
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw new Refusal(path, 'marks must be a list');
    const found = new Map<MarkName, MarkJson>();
    for (let index = 0; index < raw.length; index += 1) {
      const markPath = `${path}.marks[${index}]`;
      const mark: unknown = raw[index];
      if (!isObject(mark)) throw new Refusal(markPath, 'a mark must be a JSON object');
      this.countNode(markPath);
      const type = ownField(mark, 'type');
      if (typeof type !== 'string') throw new Refusal(markPath, 'type must be a string');
      const attrs = this.readAttrs(mark, markPath);
      if (!MARK_NAMES.has(type) || found.has(type as MarkName)) {
        this.report.droppedMarks += 1;
        continue;
      }
      if (type === 'link') {
        const link = this.readLink(attrs);
        if (link === null) this.report.removedLinks += 1;
        else found.set('link', link);
        continue;
      }
      found.set(type as MarkName, { type } as MarkJson);
    }
    // Tiptap's code mark excludes every other mark; the others (a link's href above all) are worth more.
    if (found.has('code') && found.size > 1) {
      found.delete('code');
      this.report.droppedMarks += 1;
    }
    return MARK_ORDER.flatMap((name) => {
      const mark = found.get(name);
      return mark === undefined ? [] : [mark];
    });
  }

  private readLink(attrs: Record<string, unknown>): LinkMarkJson | null {
    const href = ownField(attrs, 'href');
    if (!isAllowedLinkHref(href)) return null;
    let target = this.readNullableString(ownField(attrs, 'target'), DEFAULT_LINK_TARGET);
    if (target !== null && !LINK_TARGETS.has(target)) {
      this.report.fixedAttributes += 1;
      target = DEFAULT_LINK_TARGET;
    }
    const linkClass = ownField(attrs, 'class');
    if (linkClass !== undefined && linkClass !== null) this.report.fixedAttributes += 1;
    return {
      type: 'link',
      attrs: {
        href,
        target,
        rel: this.readNullableString(ownField(attrs, 'rel'), DEFAULT_LINK_REL),
        class: null,
        title: this.readNullableString(ownField(attrs, 'title'), null),
      },
    };
  }

  private fix<T>(value: T): T {
    this.report.fixedAttributes += 1;
    return value;
  }

  private readNullableString(value: unknown, fallback: string | null): string | null {
    if (value === undefined) return fallback;
    if (value === null || typeof value === 'string') return value;
    return this.fix(fallback);
  }

  private readIndent(value: unknown): number {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fix(0);
    const indent = Math.min(MAX_PARAGRAPH_INDENT, Math.max(0, Math.round(value)));
    return indent === value ? indent : this.fix(indent);
  }

  private readHeadingLevel(value: unknown): 3 | 4 {
    if (value === 3 || value === 4) return value;
    if (value === undefined) return 3;
    return this.fix(typeof value === 'number' && value > 4 ? 4 : 3);
  }

  private readLanguage(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    return typeof value === 'string' && CODE_LANGUAGE.test(value) ? value : this.fix(null);
  }

  private readListStart(value: unknown): number {
    if (value === undefined) return 1;
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fix(1);
    const start = Math.min(MAX_LIST_START, Math.max(-MAX_LIST_START, Math.trunc(value)));
    return start === value ? start : this.fix(start);
  }

  private readListType(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    return typeof value === 'string' && ORDERED_LIST_TYPES.has(value) ? value : this.fix(null);
  }

  private readUuid(value: unknown): string | null {
    if (!isUuid(value)) return null;
    const uuid = value.toLowerCase();
    return uuid === value ? uuid : this.fix(uuid);
  }

  private readOptionalUuid(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    return isUuid(value) ? this.readUuid(value) : this.fix(null);
  }

  private readLegacyId(value: unknown): string | number | null {
    if (value === undefined || value === null || typeof value === 'string') return value ?? null;
    return typeof value === 'number' && Number.isFinite(value) ? value : this.fix(null);
  }

  private readFinalized(value: unknown): boolean {
    if (value === undefined) return false;
    return typeof value === 'boolean' ? value : this.fix(false);
  }

  // ── Fitting: arranging pieces into what each container allows ───────────────────────────────

  /** Plain text of pieces (for titles and code): marks dropped, hard breaks and blocks become `separator`. */
  private textOf(pieces: Piece[], separator: string): string {
    const parts: string[] = [];
    let run: string | null = null;
    for (const piece of pieces) {
      if (piece.kind === 'inline') {
        this.report.droppedMarks += piece.node.marks?.length ?? 0;
        if (piece.node.type === 'hardBreak') this.report.restructuredNodes += 1;
        run = (run ?? '') + nodeText(piece.node, separator);
        continue;
      }
      if (run !== null) parts.push(run);
      run = null;
      this.report.restructuredNodes += 1;
      parts.push(this.pieceText(piece, separator));
    }
    if (run !== null) parts.push(run);
    return parts.filter((part) => part !== '').join(separator);
  }

  private pieceText(piece: Piece, separator: string): string {
    switch (piece.kind) {
      case 'block':
      case 'inline':
        return nodeText(piece.node, separator);
      case 'sectionHeading':
      case 'subsectionHeading':
        return piece.text;
      default:
        return piece.children
          .map((child) => this.pieceText(child, separator))
          .filter((part) => part !== '')
          .join(separator);
    }
  }

  /**
   * A paragraph or heading holds inline nodes only: anything else inside is lifted out after it,
   * splitting it in two (M6a). The first part keeps the `nodeId`; empty parts around lifted nodes go.
   */
  private fitTextblock(pieces: Piece[], make: (content: InlineJson[], first: boolean) => BlockJson): Piece[] {
    const result: Piece[] = [];
    let run: InlineJson[] = [];
    let lifted = 0;
    let first = true;
    for (const piece of pieces) {
      if (piece.kind === 'inline') {
        pushInline(run, piece.node);
        continue;
      }
      if (run.length > 0) {
        result.push({ kind: 'block', node: make(run, first) });
        first = false;
        run = [];
      }
      lifted += 1;
      result.push(piece);
    }
    if (run.length > 0 || lifted === 0) result.push({ kind: 'block', node: make(run, first) });
    this.report.restructuredNodes += lifted;
    return result;
  }

  /** Sections and subsections inside blocks give way to their content; their headings become headings 3 and 4 (M6c). */
  private expandStructure(pieces: Piece[]): Piece[] {
    return pieces.flatMap((piece) => {
      if (piece.kind !== 'section' && piece.kind !== 'subsection') return [piece];
      this.report.restructuredNodes += 1;
      return this.expandStructure(piece.children);
    });
  }

  /** Content for `block*`: inline runs wrapped in paragraphs, loose list items in a bullet list (M6c). */
  private fitBlocks(pieces: Piece[]): BlockJson[] {
    const blocks: BlockJson[] = [];
    let inline: InlineJson[] | null = null;
    let items: ListItemJson[] | null = null;
    const flush = () => {
      if (inline !== null) blocks.push(paragraphNode(inline));
      if (items !== null) blocks.push({ type: 'bulletList', attrs: { nodeId: null }, content: items });
      inline = null;
      items = null;
    };
    for (const piece of this.expandStructure(pieces)) {
      switch (piece.kind) {
        case 'inline':
          if (inline === null) {
            flush();
            this.report.addedNodes += 1;
            inline = [];
          }
          pushInline(inline, piece.node);
          break;
        case 'listItem':
          if (items === null) {
            flush();
            this.report.addedNodes += 1;
            items = [];
          }
          items.push(this.fitListItem(piece.nodeId, piece.children));
          break;
        case 'block':
          flush();
          blocks.push(piece.node);
          break;
        case 'sectionHeading':
        case 'subsectionHeading': {
          flush();
          this.report.restructuredNodes += 1;
          if (piece.text === '') break;
          const level = piece.kind === 'sectionHeading' ? 3 : 4;
          blocks.push({
            type: 'heading',
            attrs: { level, nodeId: null },
            content: [{ type: 'text', text: piece.text }],
          });
          break;
        }
        default:
          break;
      }
    }
    flush();
    return blocks;
  }

  /** `paragraph block*`: an empty paragraph goes first when the item does not start with one. */
  private fitListItem(nodeId: string | null, children: Piece[]): ListItemJson {
    const blocks = this.fitBlocks(children);
    const [first, ...rest] = blocks;
    if (first?.type === 'paragraph')
      return { type: 'listItem', attrs: { nodeId }, content: [first, ...rest] };
    this.report.addedNodes += 1;
    return { type: 'listItem', attrs: { nodeId }, content: [paragraphNode(), ...blocks] };
  }

  /** `listItem+`: anything else joins the item before it (a list nested without its item), or starts one. */
  private fitList(pieces: Piece[]): ListItemJson[] {
    const items: { nodeId: string | null; children: Piece[] }[] = [];
    for (const piece of pieces) {
      if (piece.kind === 'listItem') {
        items.push({ nodeId: piece.nodeId, children: [...piece.children] });
        continue;
      }
      this.report.restructuredNodes += 1;
      const last = items[items.length - 1];
      if (last === undefined) {
        this.report.addedNodes += 1;
        items.push({ nodeId: null, children: [piece] });
      } else {
        last.children.push(piece);
      }
    }
    if (items.length === 0) {
      this.report.addedNodes += 1;
      items.push({ nodeId: null, children: [] });
    }
    return items.map((item) => this.fitListItem(item.nodeId, item.children));
  }

  /**
   * The document level, read in order: a section (or a stray section heading) starts a section, a
   * subsection (or a stray subsection heading) starts a subsection of the current section, and
   * anything else goes to the end of the current subsection, else of the current section (M7).
   */
  private buildSections(pieces: Piece[]): SectionJson[] {
    const sections: SectionDraft[] = [];
    let section: SectionDraft | undefined;
    let subsection: SubsectionDraft | undefined;

    const startSection = (attrs: DraftSectionAttrs, heading: string): SectionDraft => {
      section = { attrs, heading, blocks: [], subsections: [] };
      subsection = undefined;
      sections.push(section);
      return section;
    };
    const currentSection = (): SectionDraft => {
      if (section !== undefined) return section;
      this.report.addedNodes += 1;
      return startSection(newSectionAttrs(), '');
    };
    const startSubsection = (attrs: DraftSubsectionAttrs, heading: string): void => {
      // The section first: opening one (for a subsection before any section) resets `subsection`.
      const parent = currentSection();
      subsection = { attrs, heading, blocks: [] };
      parent.subsections.push(subsection);
    };

    const visit = (piece: Piece): void => {
      switch (piece.kind) {
        case 'section': {
          const [first, ...rest] = piece.children;
          if (first?.kind === 'sectionHeading') {
            startSection(piece.attrs, first.text);
            for (const child of rest) visit(child);
          } else {
            this.report.addedNodes += 1;
            startSection(piece.attrs, '');
            for (const child of piece.children) visit(child);
          }
          break;
        }
        case 'subsection': {
          const [first, ...rest] = piece.children;
          if (first?.kind === 'subsectionHeading') {
            startSubsection(piece.attrs, first.text);
            for (const child of rest) visit(child);
          } else {
            this.report.addedNodes += 1;
            startSubsection(piece.attrs, '');
            for (const child of piece.children) visit(child);
          }
          break;
        }
        case 'sectionHeading':
          this.report.restructuredNodes += 1;
          startSection(newSectionAttrs(), piece.text);
          break;
        case 'subsectionHeading':
          this.report.restructuredNodes += 1;
          startSubsection(newSubsectionAttrs(), piece.text);
          break;
        default:
          (subsection ?? currentSection()).blocks.push(piece);
      }
    };
    for (const piece of pieces) visit(piece);
    if (sections.length === 0) currentSection();

    return sections.map((draft) => ({
      type: 'section',
      attrs: draft.attrs as SectionAttrs,
      content: [
        sectionHeadingNode(draft.heading),
        ...this.fitBlocks(draft.blocks),
        ...draft.subsections.map(
          (sub): SubsectionJson => ({
            type: 'subsection',
            attrs: sub.attrs as SubsectionAttrs,
            content: [subsectionHeadingNode(sub.heading), ...this.fitBlocks(sub.blocks)],
          }),
        ),
      ],
    }));
  }
}

function readNodeId(attrs: Record<string, unknown>): string | null {
  const value = ownField(attrs, 'nodeId');
  return isNodeId(value) ? value : null;
}

/** The blocks of a tree in document order, with their containers' blocks before their children's. */
function* blocksOf(blocks: readonly (BlockJson | ListItemJson)[]): Generator<{ attrs: NodeIdAttrs }> {
  for (const block of blocks) {
    if (block.type === 'horizontalRule') continue;
    yield block;
    if (block.type === 'bulletList' || block.type === 'orderedList' || block.type === 'blockquote') {
      yield* blocksOf(block.content);
    } else if (block.type === 'listItem') {
      yield* blocksOf(block.content);
    }
  }
}

/**
 * Ids last, over the finished tree (M11): first every well-formed id keeps its place in document order
 * (the first holder of a repeated id keeps it), then the rest get new ones, so a generated id can never
 * take the place of one that was already in the document.
 */
function assignIds(sections: SectionJson[], report: NormalizeReport, internals: NormalizeInternals): void {
  const generateId = internals.generateId ?? defaultGenerateId;
  const uuids = new IdAllocator(generateId);
  const nodeIds = new IdAllocator(generateId);
  for (const id of internals.reservedUuids ?? []) uuids.claim(id);
  for (const id of internals.reservedNodeIds ?? []) nodeIds.claim(id);

  const structural: { uuid: string | null }[] = [];
  const blocks: { attrs: NodeIdAttrs }[] = [];
  for (const section of sections) {
    structural.push(section.attrs);
    for (const child of section.content) {
      if (child.type === 'subsection') {
        structural.push(child.attrs);
        blocks.push(...blocksOf(child.content.slice(1) as BlockJson[]));
      } else if (child.type !== 'sectionHeading') {
        blocks.push(...blocksOf([child]));
      }
    }
  }

  const missingUuids = structural.filter((attrs) => attrs.uuid === null || !uuids.claim(attrs.uuid));
  const missingNodeIds = blocks.filter(({ attrs }) => attrs.nodeId === null || !nodeIds.claim(attrs.nodeId));
  for (const attrs of missingUuids) attrs.uuid = uuids.newUuid();
  for (const { attrs } of missingNodeIds) attrs.nodeId = nodeIds.newNodeId();
  report.assignedUuids += missingUuids.length;
  report.assignedNodeIds += missingNodeIds.length;
}

/** @internal {@link normalizeDocument} with the extra knobs the structure commands need. */
export function normalizeWith(input: unknown, internals: NormalizeInternals): NormalizeResult {
  const normalizer = new Normalizer();
  let content: SectionJson[];
  try {
    content = normalizer.readDocument(input);
  } catch (error) {
    if (error instanceof Refusal) {
      return { ok: false, error: new DocumentStructureError({ path: error.path, problem: error.problem }) };
    }
    // Not JSON after all: a getter or proxy that throws while being read.
    return {
      ok: false,
      error: new DocumentStructureError({
        path: '',
        problem: 'the document could not be read',
        cause: error,
      }),
    };
  }
  // Outside the try: a generator that fails is a programming error and is thrown as it is.
  assignIds(content, normalizer.report, internals);
  const doc: DocumentJson = { type: 'doc', content };
  normalizer.report.changed = !jsonEqual(input, doc);
  return { ok: true, doc, report: normalizer.report };
}

/**
 * Turns any value into a valid Planwright content tree, repairing what can be repaired and refusing
 * the rest (model/SPEC.md M3–M12). Never throws for bad input: the result says `ok: false` with a
 * {@link DocumentStructureError} that names the path. The output always loads in the schema
 * (`schema.nodeFromJSON(doc).check()` passes) and normalising it again changes nothing.
 *
 * Only a `generateId` that keeps returning malformed or repeated ids throws (a programming error).
 */
export function normalizeDocument(input: unknown, options: NormalizeOptions = {}): NormalizeResult {
  return normalizeWith(input, { generateId: options.generateId });
}

/** Like {@link normalizeDocument}, but returns the document and throws the `DocumentStructureError`. */
export function parseDocument(input: unknown, options: NormalizeOptions = {}): DocumentJson {
  const result = normalizeDocument(input, options);
  if (!result.ok) throw result.error;
  return result.doc;
}
