import { FormatError } from '../errors/format-error.js';
import type { DocumentJson } from '../model/document-json.js';
import { normalizeDocument } from '../model/normalize-document.js';
import { getPlanwrightSchema } from '../model/schema.js';
import { escapeHtmlText, nodeHtml } from './html-export-render.js';

/** Options of {@link documentToHtml}. */
export interface HtmlExportOptions {
  /** The page title of a standalone page; defaults to the first section's title, else "Untitled Document". */
  title?: string;
  /** A whole `<!doctype html>` page (meta charset, title, a small print style) instead of the body fragment. */
  standalone?: boolean;
}

/** Readable on screen and on paper; headings stay with what follows them when printed. */
const PAGE_STYLE = [
  'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#111}',
  'pre{background:#f5f5f5;padding:.75rem;overflow-x:auto;white-space:pre-wrap}',
  'blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#444}',
  'section[data-type="section"]+section[data-type="section"]{margin-top:2rem}',
  '@media print{body{margin:0;max-width:none}h1,h2,h3,h4{break-after:avoid}pre,blockquote{break-inside:avoid}a{color:inherit}}',
].join('');

function firstTitle(document: DocumentJson): string {
  const heading = document.content[0]?.content[0];
  return (heading?.content ?? [])
    .map((node) => node.text)
    .join('')
    .trim();
}

/**
 * The document as HTML, written from the schema's own `toDOM` specs, so it is the HTML the editor
 * renders (`formats/SPEC.md` F27–F29): sections and subsections as `<section data-type=…>` with
 * their uuids, titles as `<h1>`/`<h2>`, every text and attribute escaped, links only with allowed
 * hrefs and always `rel="noopener noreferrer nofollow"`. The tree is normalised first, so a tree that
 * never went through the model cannot smuggle markup in.
 *
 * @throws FormatError `invalid_document` when the tree cannot be a document.
 */
export function documentToHtml(document: DocumentJson, options: HtmlExportOptions = {}): string {
  const result = normalizeDocument(document);
  if (!result.ok) {
    throw new FormatError({
      reason: 'invalid_document',
      message: `The document cannot be exported: ${result.error.message}`,
      cause: result.error,
    });
  }
  const root = getPlanwrightSchema().nodeFromJSON(result.doc);
  let body = '';
  root.forEach((section) => {
    body += nodeHtml(section);
  });
  if (options.standalone !== true) return body;
  const title = options.title?.trim() || firstTitle(result.doc) || 'Untitled Document';
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtmlText(title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    `<body>${body}</body>`,
    '</html>',
    '',
  ].join('\n');
}
