import { parseHTML } from 'linkedom';
import type { HtmlParser } from '../html-import.js';

/** A whole page, so a fragment still gets its `body` (linkedom puts loose fragments under the root). */
function asPage(html: string): string {
  return /<(?:!doctype|html|body)[\s>]/i.test(html.slice(0, 4096))
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
}

/**
 * {@link HtmlParser} for Node: linkedom's `parseHTML`, which builds a DOM and never runs scripts,
 * loads resources or evaluates styles.
 */
export const parseHtmlInNode: HtmlParser = (html) => parseHTML(asPage(html)).document as unknown as Document;
