/**
 * Plain-text reading of content trees, for titles and outlines. Pure JSON walks: nothing here imports
 * Tiptap or ProseMirror, so the SDK's main entry can use them.
 */

/** Own property of a JSON object, or undefined (never an inherited one such as `constructor`). */
export function ownField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The child nodes of a JSON node, or an empty list when it has none (or they are not a list). */
export function childrenOf(node: unknown): readonly unknown[] {
  const content = ownField(node, 'content');
  return Array.isArray(content) ? content : [];
}

/** The concatenated `text` of a heading's text children (marks and other nodes ignored). */
export function headingText(heading: unknown): string {
  let text = '';
  for (const child of childrenOf(heading)) {
    const value = ownField(child, 'text');
    if (ownField(child, 'type') === 'text' && typeof value === 'string') text += value;
  }
  return text;
}

/** The title of a section or subsection node: the text of its first child when that is `headingType`, trimmed. */
export function titleOf(node: unknown, headingType: 'sectionHeading' | 'subsectionHeading'): string {
  const first = childrenOf(node)[0];
  return ownField(first, 'type') === headingType ? headingText(first).trim() : '';
}
