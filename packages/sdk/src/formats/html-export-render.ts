import type { DOMOutputSpec, Mark, Node as ProseMirrorNode } from '@tiptap/pm/model';
import { isExportableLinkHref } from '../model/link-href.js';

/**
 * ProseMirror's `DOMSerializer` without a DOM: the schema's own `toDOM` specs written out as an HTML
 * string, every text and attribute value escaped. Private to `src/formats` (F27–F29).
 */

/** What every exported link carries, whatever `rel` the document holds (F28). */
export const EXPORTED_LINK_REL = 'noopener noreferrer nofollow';

const VOID_ELEMENTS = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'col', 'area', 'base', 'wbr']);
const TAG_NAME = /^[a-z][a-z0-9]*$/i;
const ATTRIBUTE_NAME = /^[a-z_:][-a-z0-9_:.]*$/i;

/** Escapes text for an element's content. */
export function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for a double-quoted attribute value. */
export function escapeHtmlAttribute(value: string): string {
  return escapeHtmlText(value).replace(/"/g, '&quot;');
}

function isAttributes(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Attributes as ` name="value"`; null and undefined are left out, as the DOM serializer does. */
function attributesHtml(tag: string, attrs: Record<string, unknown>): string {
  const entries = Object.entries(attrs).filter(([, value]) => value !== null && value !== undefined);
  if (tag === 'a') {
    // A link's href is checked again here, so a tree that bypassed normalisation still gets no script URL;
    // the editor's attribute order is kept, so the HTML stays the editor's.
    const href = entries.find(([name]) => name === 'href')?.[1];
    const allowed = typeof href === 'string' && isExportableLinkHref(href);
    const kept = entries.filter(([name]) => (name !== 'href' || allowed) && name !== 'rel');
    const at = entries.findIndex(([name]) => name === 'rel');
    kept.splice(at === -1 ? kept.length : Math.min(at, kept.length), 0, ['rel', EXPORTED_LINK_REL]);
    entries.splice(0, entries.length, ...kept);
  }
  let html = '';
  for (const [name, value] of entries) {
    // Event handlers never come from our schema; refusing them here keeps it that way.
    if (!ATTRIBUTE_NAME.test(name) || /^on/i.test(name)) continue;
    html += ` ${name}="${escapeHtmlAttribute(String(value))}"`;
  }
  return html;
}

/** Writes one `DOMOutputSpec`; `hole` gives the HTML of the content where the spec has its `0`. */
export function renderSpec(spec: DOMOutputSpec, hole: () => string): string {
  if (typeof spec === 'string') return escapeHtmlText(spec);
  if (!Array.isArray(spec))
    throw new TypeError('A toDOM spec that builds DOM nodes cannot be written without a DOM.');
  const [rawTag, ...rest] = spec as readonly unknown[];
  const tag = String(rawTag);
  if (!TAG_NAME.test(tag)) throw new TypeError(`A toDOM spec names an unexpected tag: ${tag}`);
  let html = `<${tag}`;
  let children = rest;
  if (isAttributes(rest[0])) {
    html += attributesHtml(tag.toLowerCase(), rest[0]);
    children = rest.slice(1);
  }
  html += '>';
  if (VOID_ELEMENTS.has(tag.toLowerCase())) return html;
  for (const child of children) {
    html += child === 0 ? hole() : renderSpec(child as DOMOutputSpec, hole);
  }
  return `${html}</${tag}>`;
}

function markSpec(mark: Mark): DOMOutputSpec {
  const toDOM = mark.type.spec.toDOM;
  if (toDOM === undefined) throw new TypeError(`The mark "${mark.type.name}" has no toDOM.`);
  return toDOM(mark, true);
}

/** The opening and closing HTML of a mark's spec (marks wrap their content in one hole). */
function markParts(mark: Mark): [string, string] {
  // A link an export may not carry (M14) is written as its plain text, not as an `<a>` without href.
  if (mark.type.name === 'link' && !isExportableLinkHref(mark.attrs.href)) return ['', ''];
  const marker = '\u0000hole\u0000';
  const html = renderSpec(markSpec(mark), () => marker);
  const at = html.indexOf(marker);
  return at === -1 ? [html, ''] : [html.slice(0, at), html.slice(at + marker.length)];
}

/** Inline content, keeping a mark open across neighbouring nodes that share it (as `DOMSerializer` does). */
function inlineHtml(node: ProseMirrorNode): string {
  let html = '';
  const open: { mark: Mark; close: string }[] = [];
  node.forEach((child) => {
    let keep = 0;
    while (
      keep < open.length &&
      keep < child.marks.length &&
      child.marks[keep]?.eq(open[keep]?.mark as Mark)
    ) {
      keep += 1;
    }
    while (open.length > keep) html += open.pop()?.close ?? '';
    for (const mark of child.marks.slice(keep)) {
      const [start, close] = markParts(mark);
      html += start;
      open.push({ mark, close });
    }
    html += child.isText ? escapeHtmlText(child.text ?? '') : nodeHtml(child);
  });
  while (open.length > 0) html += open.pop()?.close ?? '';
  return html;
}

/** A node and its content, as its `toDOM` spec says. */
export function nodeHtml(node: ProseMirrorNode): string {
  const toDOM = node.type.spec.toDOM;
  if (toDOM === undefined) throw new TypeError(`The node "${node.type.name}" has no toDOM.`);
  const content = () => {
    if (node.inlineContent) return inlineHtml(node);
    let html = '';
    node.forEach((child) => {
      html += nodeHtml(child);
    });
    return html;
  };
  return renderSpec(toDOM(node), content);
}
