/**
 * A content tree as Markdown-like plain text (W9 "Copy mine to clipboard"): `#` section titles, `##`
 * subsection titles, `###`/`####` headings, `-` and `1.` list items, `>` quotes, fenced code, paragraphs
 * separated by a blank line. Marks are dropped. A pure walk over JSON that skips whatever it cannot read,
 * so any tree (even a malformed one) gives some text rather than an error.
 */
export function plainTextOf(doc: unknown): string {
  const blocks: string[] = [];
  walkBlocks(children(doc), blocks, '');
  return `${blocks.join('\n\n').trim()}\n`;
}

function field(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null && Object.hasOwn(node, key)
    ? (node as Record<string, unknown>)[key]
    : undefined;
}

function children(node: unknown): readonly unknown[] {
  const content = field(node, 'content');
  return Array.isArray(content) ? content : [];
}

function inlineText(node: unknown): string {
  let text = '';
  for (const child of children(node)) {
    const type = field(child, 'type');
    const value = field(child, 'text');
    if (type === 'text' && typeof value === 'string') text += value;
    else if (type === 'hardBreak') text += '\n';
    else text += inlineText(child);
  }
  return text;
}

function prefixLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

function walkBlocks(nodes: readonly unknown[], out: string[], prefix: string): void {
  for (const node of nodes) {
    const type = field(node, 'type');
    if (type === 'section' || type === 'subsection') walkBlocks(children(node), out, prefix);
    else if (type === 'sectionHeading') out.push(prefixLines(`# ${inlineText(node)}`, prefix));
    else if (type === 'subsectionHeading') out.push(prefixLines(`## ${inlineText(node)}`, prefix));
    else if (type === 'heading') {
      const level = field(field(node, 'attrs'), 'level') === 4 ? '####' : '###';
      out.push(prefixLines(`${level} ${inlineText(node)}`, prefix));
    } else if (type === 'bulletList' || type === 'orderedList') {
      const items = children(node).map((item, index) => {
        const inner: string[] = [];
        walkBlocks(children(item), inner, '');
        const marker = type === 'orderedList' ? `${index + 1}. ` : '- ';
        const [first = '', ...rest] = inner.join('\n').split('\n');
        return [`${marker}${first}`, ...rest.map((line) => `   ${line}`)].join('\n');
      });
      out.push(prefixLines(items.join('\n'), prefix));
    } else if (type === 'blockquote') {
      const inner: string[] = [];
      walkBlocks(children(node), inner, '');
      out.push(prefixLines(inner.join('\n\n'), `${prefix}> `));
    } else if (type === 'codeBlock') out.push(prefixLines(`\`\`\`\n${inlineText(node)}\n\`\`\``, prefix));
    else if (type === 'horizontalRule') out.push(`${prefix}---`);
    else {
      const text = inlineText(node);
      if (text !== '') out.push(prefixLines(text, prefix));
    }
  }
}
