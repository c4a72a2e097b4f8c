import type {
  InlineJson,
  ParagraphJson,
  PlainTextJson,
  SectionHeadingJson,
  SubsectionHeadingJson,
} from './document-json.js';

/** `content` for a plain-text node: left out when empty, as ProseMirror writes it. */
export function plainTextContent(text: string): PlainTextJson[] | undefined {
  return text === '' ? undefined : [{ type: 'text', text }];
}

/** A paragraph in the canonical JSON shape (no `content` key when empty). */
export function paragraphNode(
  content: InlineJson[] = [],
  indent = 0,
  nodeId: string | null = null,
): ParagraphJson {
  const node: ParagraphJson = { type: 'paragraph', attrs: { indent, nodeId } };
  if (content.length > 0) node.content = content;
  return node;
}

/** A section's level-1 title. */
export function sectionHeadingNode(text: string): SectionHeadingJson {
  const content = plainTextContent(text);
  return content === undefined
    ? { type: 'sectionHeading', attrs: { level: 1 } }
    : { type: 'sectionHeading', attrs: { level: 1 }, content };
}

/** A subsection's level-2 title. */
export function subsectionHeadingNode(text: string): SubsectionHeadingJson {
  const content = plainTextContent(text);
  return content === undefined
    ? { type: 'subsectionHeading', attrs: { level: 2 } }
    : { type: 'subsectionHeading', attrs: { level: 2 }, content };
}
