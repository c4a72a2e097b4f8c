import { type AnyExtension, Extension, PasteRule } from '@tiptap/core';
import Blockquote from '@tiptap/extension-blockquote';
import Bold from '@tiptap/extension-bold';
import Code from '@tiptap/extension-code';
import CodeBlock from '@tiptap/extension-code-block';
import Document from '@tiptap/extension-document';
import HardBreak from '@tiptap/extension-hard-break';
import Heading from '@tiptap/extension-heading';
import HorizontalRule from '@tiptap/extension-horizontal-rule';
import Italic from '@tiptap/extension-italic';
import Link from '@tiptap/extension-link';
import { BulletList, ListItem, OrderedList } from '@tiptap/extension-list';
import Paragraph from '@tiptap/extension-paragraph';
import Strike from '@tiptap/extension-strike';
import Text from '@tiptap/extension-text';
import Underline from '@tiptap/extension-underline';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { INDENT_STEP_PX, MAX_PARAGRAPH_INDENT, NODE_ID_TYPES } from './document-json.js';
import { isAllowedLinkHref } from './link-href.js';
import { defaultGenerateId, type GenerateId, IdAllocator, isNodeId } from './model-ids.js';
import { Section, SectionHeading, Subsection, SubsectionHeading } from './structure-nodes.js';

export { Section, SectionHeading, Subsection, SubsectionHeading };

/** A document is one or more sections, nothing else (spec 001 §3). */
export const PlanwrightDocument = Document.extend({ content: 'section+' });

/** Reads an indent level from HTML, clamped to 0–8. */
function parseIndent(element: HTMLElement): number {
  const value = Number.parseInt(element.getAttribute('data-indent') ?? '', 10);
  return Number.isFinite(value) ? Math.min(MAX_PARAGRAPH_INDENT, Math.max(0, value)) : 0;
}

/** Tiptap's paragraph plus `indent` (0–8, rendered as 24 px of left margin per level). */
export const PlanwrightParagraph = Paragraph.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      indent: {
        default: 0,
        parseHTML: parseIndent,
        renderHTML: (attributes) => {
          const indent = Number(attributes.indent) || 0;
          return indent > 0
            ? { 'data-indent': indent, style: `margin-left: ${indent * INDENT_STEP_PX}px` }
            : {};
        },
      },
    };
  },
});

/**
 * Tiptap's heading, restricted to levels 3 and 4: levels 1 and 2 are the section and subsection
 * headings. The default level is 3 rather than Tiptap's 1, which would be out of range.
 */
export const PlanwrightHeading = Heading.extend({
  addAttributes() {
    return { ...this.parent?.(), level: { default: 3, rendered: false } };
  },
}).configure({ levels: [3, 4] });

/**
 * Tiptap's link with Planwright's scheme rule (spec 001 §3, `isAllowedLinkHref`) in place of Tiptap's
 * own, so the editor refuses, on paste, on `setLink` and when rendering, exactly what the server removes.
 */
export const PlanwrightLink = Link.extend({
  // Tiptap links every URL-looking text of a paste, even text already inside a link, so a pasted
  // `<a href="…/#intro">…#introduction</a>` would point elsewhere: pasted links keep the href they came with.
  addPasteRules() {
    return (this.parent?.() ?? []).map(
      (rule) =>
        new PasteRule({
          find: rule.find,
          handler: (props) =>
            props.state.doc.rangeHasMark(props.range.from, props.range.to, this.type)
              ? null
              : rule.handler(props),
        }),
    );
  },
}).configure({
  defaultProtocol: 'https',
  isAllowedUri: (url) => isAllowedLinkHref(url),
});

/** Options of {@link NodeIdAttribute}. */
export interface NodeIdAttributeOptions {
  /** Makes ids for new blocks in the editor. Defaults to `crypto.randomUUID()` (M2). */
  generateId: GenerateId;
}

const nodeIdTypes = new Set<string>(NODE_ID_TYPES);

/**
 * Gives every block that lacks a well-formed `nodeId`, or repeats one found earlier in the document,
 * a new one. ProseMirror copies a block's attributes when it splits it in the middle (Tiptap's
 * `keepOnSplit` only covers a split at the end), so without this Enter would duplicate ids.
 */
function uniqueNodeIds(generateId: GenerateId): Plugin {
  return new Plugin({
    key: new PluginKey('planwrightNodeIds'),
    appendTransaction(transactions, _oldState, newState) {
      if (!transactions.some((transaction) => transaction.docChanged)) return null;
      // As in normalisation (M11): every well-formed id is claimed first, by its first holder, then the
      // rest get new ones, so a new id can never be one that is already further down.
      const ids = new IdAllocator(generateId);
      const needIds: number[] = [];
      newState.doc.descendants((node, pos) => {
        if (nodeIdTypes.has(node.type.name)) {
          const id: unknown = node.attrs.nodeId;
          if (!isNodeId(id) || !ids.claim(id)) needIds.push(pos);
        }
        // Text and hard breaks hold no blocks: no need to walk into paragraphs, headings, code.
        return !node.isTextblock;
      });
      if (needIds.length === 0) return null;
      const { tr } = newState;
      for (const pos of needIds) tr.setNodeAttribute(pos, 'nodeId', ids.newNodeId());
      return tr;
    },
  });
}

/**
 * The optional unique `nodeId` on every block but the horizontal rule (spec 001 §3, M2). It is not read
 * back from pasted HTML and not copied when a block is split at its end; a plugin gives new or repeated
 * blocks a fresh id, so the editor never sends a duplicate and the server never has to invent one.
 */
export const NodeIdAttribute = Extension.create<NodeIdAttributeOptions>({
  name: 'nodeId',

  addOptions() {
    return { generateId: defaultGenerateId };
  },

  addGlobalAttributes() {
    return [
      {
        types: [...NODE_ID_TYPES],
        attributes: {
          nodeId: {
            default: null,
            keepOnSplit: false,
            parseHTML: () => null,
            renderHTML: (attributes) => (attributes.nodeId ? { 'data-node-id': attributes.nodeId } : {}),
          },
        },
      },
    ];
  },

  addProseMirrorPlugins() {
    return [uniqueNodeIds(this.options.generateId)];
  },
});

/** Every extension of the Planwright schema, by name. */
export const PLANWRIGHT_EXTENSIONS = {
  doc: PlanwrightDocument,
  section: Section,
  sectionHeading: SectionHeading,
  subsection: Subsection,
  subsectionHeading: SubsectionHeading,
  paragraph: PlanwrightParagraph,
  text: Text,
  heading: PlanwrightHeading,
  bulletList: BulletList,
  orderedList: OrderedList,
  listItem: ListItem,
  blockquote: Blockquote,
  codeBlock: CodeBlock,
  horizontalRule: HorizontalRule,
  hardBreak: HardBreak,
  bold: Bold,
  italic: Italic,
  underline: Underline,
  strike: Strike,
  code: Code,
  link: PlanwrightLink,
  nodeId: NodeIdAttribute,
} as const;

/** The name of one of the {@link PLANWRIGHT_EXTENSIONS}. */
export type PlanwrightExtensionName = keyof typeof PLANWRIGHT_EXTENSIONS;

/**
 * The extension list of the Planwright schema, optionally with some replaced by extended versions
 * (the web editor swaps in `Section.extend({ addNodeView … })` and friends). A replacement must keep
 * its name, or the schema would change under the same JSON.
 *
 * @example createPlanwrightExtensions({ section: Section.extend({ addNodeView: () => … }) })
 */
export function createPlanwrightExtensions(
  replacements: Partial<Record<PlanwrightExtensionName, AnyExtension>> = {},
): AnyExtension[] {
  return Object.entries(PLANWRIGHT_EXTENSIONS).map(([name, extension]) => {
    const replacement = replacements[name as PlanwrightExtensionName];
    if (replacement === undefined) return extension;
    if (replacement.name !== name) {
      throw new TypeError(`The replacement for the "${name}" extension is named "${replacement.name}".`);
    }
    return replacement;
  });
}
