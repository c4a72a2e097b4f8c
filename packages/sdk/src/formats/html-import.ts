import { FormatError } from '../errors/format-error.js';
import { documentFromHtmlDom } from './html-import-document.js';
import type { FormatImportOptions } from './import-options.js';
import { ImportNotes, type ImportResult } from './import-report.js';

/** Parses HTML into a DOM `Document` without running scripts (a browser's `DOMParser`, or linkedom in Node). */
export type HtmlParser = (html: string) => Document;

/** Options of {@link htmlToDocument}. */
export interface HtmlImportOptions extends FormatImportOptions {
  /**
   * How to parse the HTML. Defaults to `new DOMParser().parseFromString(html, 'text/html')` where
   * `DOMParser` exists (browsers); in Node pass `parseHtmlInNode` from `@planwright/sdk/formats/node`.
   */
  parseHtml?: HtmlParser;
}

/**
 * Reads HTML (a whole page or a fragment) into a document: `h1` starts a section, `h2` a subsection,
 * `h3`/`h4` are headings (`h5`/`h6` become level 4), with paragraphs, lists, quotes, code blocks, rules
 * and the six marks. Images and tables are dropped or flattened, scripts and other active content are
 * dropped with their text; the report says what and how often (`src/formats/SPEC.md` F30–F39).
 *
 * @throws {FormatError} `too_large` when the content exceeds the model's limits.
 * @throws {TypeError} when no parser is given and there is no `DOMParser`.
 */
export function htmlToDocument(html: string, options: HtmlImportOptions = {}): ImportResult {
  const parse = options.parseHtml ?? defaultParser();
  let dom: Document;
  try {
    dom = parse(html);
  } catch (error) {
    throw new FormatError({
      reason: 'invalid_document',
      message: 'The HTML could not be parsed.',
      cause: error,
    });
  }
  return documentFromHtmlDom(dom, new ImportNotes(), 'html', options);
}

function defaultParser(): HtmlParser {
  const Parser = (globalThis as { DOMParser?: typeof DOMParser }).DOMParser;
  if (!Parser) {
    throw new TypeError(
      'htmlToDocument needs a DOM parser here: pass `parseHtml` (e.g. parseHtmlInNode from @planwright/sdk/formats/node).',
    );
  }
  return (html) => new Parser().parseFromString(html, 'text/html');
}
