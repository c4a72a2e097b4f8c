/**
 * The JSON of a Planwright content tree (spec 001 §3), exactly as Tiptap's `editor.getJSON()` and
 * ProseMirror's `node.toJSON()` write it: every node of a type with attributes carries all of them,
 * `content` and `marks` are left out when empty. These are type aliases rather than interfaces so they
 * stay assignable to Tiptap's `JSONContent`.
 *
 * A tree from outside (a request body, a file, an AI answer) is `unknown` until
 * `normalizeDocument` has turned it into a {@link DocumentJson}.
 */

/** Bold, italic, underline, strike and inline code carry no attributes. */
export type SimpleMarkJson = { type: 'bold' | 'italic' | 'underline' | 'strike' | 'code' };

/** Where a link may point is checked by `isAllowedLinkHref`; `class` is always null (M8). */
export type LinkAttrs = {
  href: string;
  target: string | null;
  rel: string | null;
  class: null;
  title: string | null;
};

/** A link mark; its attributes are all always present. */
export type LinkMarkJson = { type: 'link'; attrs: LinkAttrs };

/** Any mark on a text node. */
export type MarkJson = SimpleMarkJson | LinkMarkJson;

/** The names of the marks, in the order the schema ranks them (and `normalizeDocument` sorts them). */
export type MarkName = MarkJson['type'];

/** Text inside a paragraph or heading; never empty. */
export type TextJson = { type: 'text'; text: string; marks?: MarkJson[] };

/** Text inside a section heading, subsection heading or code block: no marks allowed there. */
export type PlainTextJson = { type: 'text'; text: string };

/** A line break inside a paragraph or heading. */
export type HardBreakJson = { type: 'hardBreak'; marks?: MarkJson[] };

/** What paragraphs and headings hold. */
export type InlineJson = TextJson | HardBreakJson;

/** Every block but the horizontal rule carries an optional unique `nodeId` (normalised: always set). */
export type NodeIdAttrs = { nodeId: string | null };

/** A paragraph, indented 0–8 levels. */
export type ParagraphJson = {
  type: 'paragraph';
  /** `indent` 0–8, 24 px per level. */
  attrs: { indent: number } & NodeIdAttrs;
  content?: InlineJson[];
};

/** Only levels 3 and 4 inside content; levels 1 and 2 are the section and subsection headings. */
export type HeadingJson = {
  type: 'heading';
  attrs: { level: 3 | 4 } & NodeIdAttrs;
  content?: InlineJson[];
};

/** An item of a bullet or ordered list: a paragraph first, then any blocks. */
export type ListItemJson = {
  type: 'listItem';
  attrs: NodeIdAttrs;
  content: [ParagraphJson, ...BlockJson[]];
};

/** A bulleted list. */
export type BulletListJson = { type: 'bulletList'; attrs: NodeIdAttrs; content: ListItemJson[] };

/** A numbered list, starting at `attrs.start`. */
export type OrderedListJson = {
  type: 'orderedList';
  /** `type` is the HTML list type (`1`, `a`, `A`, `i`, `I`) or null. */
  attrs: { start: number; type: string | null } & NodeIdAttrs;
  content: ListItemJson[];
};

/** A quote holding blocks. */
export type BlockquoteJson = { type: 'blockquote'; attrs: NodeIdAttrs; content: BlockJson[] };

/** Preformatted code: plain text only, with an optional language. */
export type CodeBlockJson = {
  type: 'codeBlock';
  attrs: { language: string | null } & NodeIdAttrs;
  content?: PlainTextJson[];
};

/** A horizontal rule (no attributes, no content). */
export type HorizontalRuleJson = { type: 'horizontalRule' };

/** The nodes of the `block` group: what sections, subsections, quotes and list items hold. */
export type BlockJson =
  | ParagraphJson
  | HeadingJson
  | BulletListJson
  | OrderedListJson
  | BlockquoteJson
  | CodeBlockJson
  | HorizontalRuleJson;

/** The level-1 title of a section: plain text only. */
export type SectionHeadingJson = { type: 'sectionHeading'; attrs: { level: 1 }; content?: PlainTextJson[] };

/** The level-2 title of a subsection: plain text only. */
export type SubsectionHeadingJson = {
  type: 'subsectionHeading';
  attrs: { level: 2 };
  content?: PlainTextJson[];
};

/** The attributes of a section node. */
export type SectionAttrs = {
  /** Unique in the document (together with the subsection uuids); lowercase. */
  uuid: string;
  /** The blueprint section this one was made from, when there is one. */
  blueprint_uuid: string | null;
  /** Kept from older clients; not used by Planwright. */
  id: string | number | null;
  /** Kept from older clients; not used by Planwright. */
  model: string | null;
};

/** The attributes of a subsection node. */
export type SubsectionAttrs = {
  uuid: string;
  blueprint_uuid: string | null;
  finalized: boolean;
};

/** A subsection: its level-2 heading, then blocks. */
export type SubsectionJson = {
  type: 'subsection';
  attrs: SubsectionAttrs;
  /** The heading, then blocks. */
  content: [SubsectionHeadingJson, ...BlockJson[]];
};

/** A section: its level-1 heading, then blocks, then subsections. */
export type SectionJson = {
  type: 'section';
  attrs: SectionAttrs;
  /** The heading, then blocks, then subsections (`sectionHeading block* subsection*`). */
  content: [SectionHeadingJson, ...(BlockJson | SubsectionJson)[]];
};

/** A whole content tree: one or more sections. */
export type DocumentJson = { type: 'doc'; content: SectionJson[] };

/** Any node of the tree. */
export type NodeJson =
  | DocumentJson
  | SectionJson
  | SubsectionJson
  | SectionHeadingJson
  | SubsectionHeadingJson
  | BlockJson
  | ListItemJson
  | InlineJson;

/** The names of every node type of the schema. */
export type NodeName = NodeJson['type'];

/** The block types that carry a `nodeId` attribute. */
export const NODE_ID_TYPES = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'listItem',
  'blockquote',
  'codeBlock',
] as const satisfies readonly NodeName[];

/** Deepest nesting `normalizeDocument` accepts (the doc is depth 0). */
export const MAX_DOCUMENT_DEPTH = 64;

/** Most nodes (of any type, text included) `normalizeDocument` accepts in one tree. */
export const MAX_DOCUMENT_NODES = 100_000;

/** The deepest paragraph indent level. */
export const MAX_PARAGRAPH_INDENT = 8;
/** The width of one indent level when rendered, in CSS pixels. */
export const INDENT_STEP_PX = 24;

/** Shown for a section whose heading is blank (spec 001 §2 "Sections sidebar"). */
export const UNTITLED_SECTION = 'Untitled Section';
/** Shown for a subsection whose heading is blank. */
export const UNTITLED_SUBSECTION = 'Untitled Subsection';

/** The title of a new section when none is given (spec 001 §9, docs/http-api.md). */
export const NEW_SECTION_TITLE = 'New Section';
/** The title of a new subsection when none is given. */
export const NEW_SUBSECTION_TITLE = 'New Subsection';
