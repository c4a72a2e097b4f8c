import { isAllowedLinkHref } from '../model/link-href.js';
import { counted, type ImportNotes } from './import-report.js';

/** A node of the loose tree `normalizeDocument` turns into a document (plain JSON, not yet valid). */
export interface LooseNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: LooseNode[];
  text?: string;
  marks?: LooseMark[];
}

/** A mark of the loose tree. */
export interface LooseMark {
  type: 'link' | 'bold' | 'italic' | 'underline' | 'strike' | 'code';
  attrs?: Record<string, unknown>;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Elements whose content is never shown to a reader (or is active content): dropped with all their text. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'frame',
  'frameset',
  'svg',
  'math',
  'canvas',
  'video',
  'audio',
  'picture',
  'source',
  'track',
  'param',
  'input',
  'button',
  'select',
  'textarea',
  'option',
  'datalist',
  'dialog',
  'map',
]);

/** Document metadata: dropped silently (it is not content). */
const METADATA_ELEMENTS = new Set(['head', 'title', 'meta', 'link', 'base']);

/** Elements that start a block of their own; in inline context they are separated by a space. */
const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'caption',
]);

const SIMPLE_MARKS: Readonly<Record<string, LooseMark['type']>> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strike',
  del: 'strike',
  strike: 'strike',
  code: 'code',
  kbd: 'code',
  samp: 'code',
  tt: 'code',
};

/** Inline elements that carry formatting the model has no mark for. */
const FORMATTING_ELEMENTS = new Set(['sup', 'sub', 'small', 'big', 'mark', 'font']);

/** Lists and quotes nested deeper than this give way to their children (the model allows 64 levels in all). */
const MAX_CONTAINER_DEPTH = 20;
/** Elements nested deeper than this are read as their plain text (no recursion on hostile nesting). */
const MAX_ELEMENT_DEPTH = 200;

const ORDERED_LIST_TYPES = new Set(['1', 'a', 'A', 'i', 'I']);
const WHITESPACE_RUN = /[ \t\n\r\f]+/g;

/**
 * Walks a DOM into the loose tree (rules F30–F39). Reads nodes and attributes only: no `innerHTML`,
 * no script runs, no URL is fetched.
 */
export class HtmlWalker {
  readonly #notes: ImportNotes;

  constructor(notes: ImportNotes) {
    this.#notes = notes;
  }

  /** The top-level blocks of `root` (usually `document.body`). */
  walk(root: Node): LooseNode[] {
    const out: LooseNode[] = [];
    this.#blocks(root, out, 0, 0);
    return out;
  }

  /** Children of `parent` in block context: inline runs become paragraphs. */
  #blocks(parent: Node, out: LooseNode[], depth: number, containers: number): void {
    this.#blockNodes(Array.from(parent.childNodes), out, depth, containers);
  }

  #blockNodes(nodes: readonly Node[], out: LooseNode[], depth: number, containers: number): void {
    let run: LooseNode[] = [];
    const flush = (): void => {
      const content = tidyInline(run);
      run = [];
      if (!isBlankContent(content)) out.push({ type: 'paragraph', content });
    };
    for (const child of nodes) {
      if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) {
        run.push({ type: 'text', text: child.nodeValue ?? '' });
        continue;
      }
      if (child.nodeType !== ELEMENT_NODE) continue;
      const element = child as Element;
      const name = element.localName.toLowerCase();
      if (!BLOCK_ELEMENTS.has(name) && !DROPPED_ELEMENTS.has(name) && !METADATA_ELEMENTS.has(name)) {
        this.#inline(element, [], run, depth + 1);
        continue;
      }
      flush();
      this.#block(element, name, out, depth + 1, containers);
    }
    flush();
  }

  #block(element: Element, name: string, out: LooseNode[], depth: number, containers: number): void {
    if (this.#dropped(name)) return;
    if (depth > MAX_ELEMENT_DEPTH) {
      const text = plainText(element);
      if (text.trim() !== '') out.push({ type: 'paragraph', content: [{ type: 'text', text }] });
      return;
    }
    switch (name) {
      case 'h1':
        out.push({ type: 'sectionHeading', attrs: { level: 1 }, content: this.#inlineOf(element, depth) });
        return;
      case 'h2':
        out.push({ type: 'subsectionHeading', attrs: { level: 2 }, content: this.#inlineOf(element, depth) });
        return;
      case 'h3':
      case 'h4':
        out.push({
          type: 'heading',
          attrs: { level: name === 'h3' ? 3 : 4 },
          content: this.#inlineOf(element, depth),
        });
        return;
      case 'h5':
      case 'h6':
        this.#notes.add(
          'heading_demoted',
          (n) => `${counted(n, 'heading')} deeper than level 4 became level 4.`,
        );
        out.push({ type: 'heading', attrs: { level: 4 }, content: this.#inlineOf(element, depth) });
        return;
      case 'p':
      case 'dt':
      case 'summary':
      case 'figcaption':
      case 'caption': {
        const content = this.#inlineOf(element, depth);
        if (!isBlankContent(content)) out.push({ type: 'paragraph', content });
        return;
      }
      case 'hr':
        out.push({ type: 'horizontalRule' });
        return;
      case 'pre':
        out.push({
          type: 'codeBlock',
          attrs: { language: codeLanguage(element) },
          content: codeText(element),
        });
        return;
      case 'blockquote':
        if (containers >= MAX_CONTAINER_DEPTH) break;
        out.push({ type: 'blockquote', content: this.#blocksOf(element, depth, containers + 1) });
        return;
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        if (containers >= MAX_CONTAINER_DEPTH) break;
        out.push(this.#list(element, name === 'ol', depth, containers + 1));
        return;
      case 'table':
        this.#table(element, out, depth);
        return;
      default:
        break;
    }
    // Unknown and container elements (div, section, li out of a list, tr out of a table) give way to their children.
    this.#blocks(element, out, depth, containers);
  }

  #blocksOf(element: Element, depth: number, containers: number): LooseNode[] {
    const out: LooseNode[] = [];
    this.#blocks(element, out, depth, containers);
    return out;
  }

  #list(element: Element, ordered: boolean, depth: number, containers: number): LooseNode {
    const items: LooseNode[] = [];
    let loose: LooseNode[] = [];
    const flushLoose = (): void => {
      if (loose.length === 0) return;
      const previous = items.at(-1);
      if (previous) previous.content?.push(...loose);
      else items.push({ type: 'listItem', content: loose });
      loose = [];
    };
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === ELEMENT_NODE && (child as Element).localName.toLowerCase() === 'li') {
        flushLoose();
        items.push({ type: 'listItem', content: this.#blocksOf(child as Element, depth + 1, containers) });
        continue;
      }
      // Text or elements directly inside a list belong to the item before them (a list nested without its item).
      this.#blockNodes([child], loose, depth + 1, containers);
    }
    flushLoose();
    if (!ordered) return { type: 'bulletList', content: items };
    const start = Number.parseInt(element.getAttribute('start') ?? '', 10);
    const type = element.getAttribute('type');
    return {
      type: 'orderedList',
      attrs: {
        start: Number.isFinite(start) ? start : 1,
        type: type && ORDERED_LIST_TYPES.has(type) ? type : null,
      },
      content: items,
    };
  }

  #table(table: Element, out: LooseNode[], depth: number): void {
    this.#notes.add(
      'table_flattened',
      (n) =>
        `${counted(n, 'table was', 'tables were')} flattened: one paragraph per row, cells separated by " | ".`,
    );
    for (const row of tableRows(table)) {
      const content: LooseNode[] = [];
      let first = true;
      for (const cell of Array.from(row.children)) {
        const name = cell.localName.toLowerCase();
        if (name !== 'td' && name !== 'th') continue;
        if (!first) content.push({ type: 'text', text: ' | ' });
        first = false;
        content.push(...this.#inlineOf(cell, depth + 1));
      }
      if (
        content.some((node) => node.type !== 'text' || (node.text ?? '').replaceAll('|', '').trim() !== '')
      ) {
        out.push({ type: 'paragraph', content });
      }
    }
  }

  /** The inline content of a block element, tidied. */
  #inlineOf(element: Element, depth: number): LooseNode[] {
    const run: LooseNode[] = [];
    this.#inlineChildren(element, [], run, depth);
    return tidyInline(run);
  }

  #inlineChildren(element: Element, marks: readonly LooseMark[], out: LooseNode[], depth: number): void {
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) {
        out.push(textNode(child.nodeValue ?? '', marks));
      } else if (child.nodeType === ELEMENT_NODE) {
        this.#inline(child as Element, marks, out, depth + 1);
      }
    }
  }

  #inline(element: Element, marks: readonly LooseMark[], out: LooseNode[], depth: number): void {
    const name = element.localName.toLowerCase();
    if (this.#dropped(name)) return;
    if (depth > MAX_ELEMENT_DEPTH) {
      out.push(textNode(plainText(element), marks));
      return;
    }
    if (name === 'br') {
      out.push({ type: 'hardBreak' });
      return;
    }
    if (name === 'img') {
      this.#notes.add(
        'image_dropped',
        (n) => `${counted(n, 'image was', 'images were')} dropped: documents hold text only.`,
      );
      return;
    }
    if (name === 'a') {
      const href = element.getAttribute('href');
      if (href === null) {
        this.#inlineChildren(element, marks, out, depth);
        return;
      }
      if (!isAllowedLinkHref(href)) {
        this.#notes.add(
          'link_removed',
          (n) =>
            `${counted(n, 'link')} to an address that is not allowed kept ${n === 1 ? 'its' : 'their'} text only.`,
        );
        this.#inlineChildren(element, marks, out, depth);
        return;
      }
      const title = element.getAttribute('title');
      const link: LooseMark = { type: 'link', attrs: title ? { href, title } : { href } };
      this.#inlineChildren(element, [...marks.filter((mark) => mark.type !== 'link'), link], out, depth);
      return;
    }
    const mark = SIMPLE_MARKS[name];
    if (mark) {
      this.#inlineChildren(
        element,
        marks.some((m) => m.type === mark) ? marks : [...marks, { type: mark }],
        out,
        depth,
      );
      return;
    }
    if (FORMATTING_ELEMENTS.has(name)) {
      this.#notes.add(
        'formatting_dropped',
        (n) => `${counted(n, 'piece')} of formatting the model has no place for dropped.`,
      );
    }
    if (BLOCK_ELEMENTS.has(name)) {
      // A block inside inline content (a table cell's paragraphs, a div in a span): a space keeps words apart.
      out.push(textNode(' ', marks));
      this.#inlineChildren(element, marks, out, depth);
      out.push(textNode(' ', marks));
      return;
    }
    this.#inlineChildren(element, marks, out, depth);
  }

  #dropped(name: string): boolean {
    if (METADATA_ELEMENTS.has(name)) return true;
    if (!DROPPED_ELEMENTS.has(name)) return false;
    this.#notes.add(
      'markup_dropped',
      (n) =>
        `${counted(n, 'embedded element')} (scripts, styles, frames, media, forms) dropped with ${n === 1 ? 'its' : 'their'} content.`,
    );
    return true;
  }
}

function textNode(text: string, marks: readonly LooseMark[]): LooseNode {
  return marks.length > 0 ? { type: 'text', text, marks: [...marks] } : { type: 'text', text };
}

/**
 * Whether tidied inline content shows nothing: empty, or line breaks only (what is left of a paragraph of
 * images, F35). The editor writes an empty paragraph as `<p></p>`, which is left out too.
 */
function isBlankContent(content: readonly LooseNode[]): boolean {
  return content.every((node) => node.type === 'hardBreak');
}

/**
 * Collapses HTML whitespace the way a browser renders it: runs become one space (kept in the node where
 * it starts), none at the start, the end or around hard breaks. No-break spaces stay.
 */
function tidyInline(run: readonly LooseNode[]): LooseNode[] {
  const out: LooseNode[] = [];
  let afterSpace = true;
  const trimEnd = (): void => {
    const last = out.at(-1);
    if (last?.type !== 'text' || !last.text?.endsWith(' ')) return;
    last.text = last.text.slice(0, -1);
    if (last.text === '') out.pop();
  };
  for (const node of run) {
    if (node.type === 'hardBreak') {
      trimEnd();
      out.push(node);
      afterSpace = true;
      continue;
    }
    let text = (node.text ?? '').replace(WHITESPACE_RUN, ' ');
    if (afterSpace && text.startsWith(' ')) text = text.slice(1);
    if (text === '') continue;
    out.push({ ...node, text });
    afterSpace = text.endsWith(' ');
  }
  trimEnd();
  return out;
}

/** The rows of a table, not those of tables nested in its cells. */
function tableRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of Array.from(table.children)) {
    const name = child.localName.toLowerCase();
    if (name === 'tr') rows.push(child);
    else if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      for (const row of Array.from(child.children)) if (row.localName.toLowerCase() === 'tr') rows.push(row);
    }
  }
  return rows;
}

/** `language-x` (or `lang-x`) from the class of a `pre` or of its only `code` child. */
function codeLanguage(pre: Element): string | null {
  const code =
    pre.children.length === 1 && pre.children[0]?.localName.toLowerCase() === 'code' ? pre.children[0] : null;
  for (const element of [pre, code]) {
    const match = /(?:^|\s)lang(?:uage)?-(\S+)/.exec(element?.getAttribute('class') ?? '');
    if (match?.[1]) return match[1];
  }
  return null;
}

/** The text of a code block: line breaks as "\n", dropped elements left out. */
function codeText(pre: Element): LooseNode[] {
  const text = plainText(pre, '\n').replace(/\n$/, '');
  return text === '' ? [] : [{ type: 'text', text }];
}

/** The text under `root` without recursion, skipping dropped elements; `br` gives `lineBreak`. */
function plainText(root: Element, lineBreak = ' '): string {
  const parts: string[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      parts.push(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const name = (node as Element).localName.toLowerCase();
    if (DROPPED_ELEMENTS.has(name) || METADATA_ELEMENTS.has(name)) continue;
    if (name === 'br') {
      parts.push(lineBreak);
      continue;
    }
    const children = Array.from(node.childNodes);
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Node);
  }
  return parts.join('');
}
