import { FormatError } from '../errors/format-error.js';
import { normalizeDocument } from '../model/normalize-document.js';
import { HtmlWalker, type LooseNode } from './html-import-walk.js';
import type { FormatImportOptions } from './import-options.js';
import {
  counted,
  type ImportFormat,
  type ImportNotes,
  type ImportResult,
  UNTITLED_IMPORT_SECTION,
} from './import-report.js';

/**
 * Turns a parsed HTML document into an import result: walks the body into a loose tree (F30–F39) and
 * normalises it. Shared by the HTML and the .docx import, which add notes of their own first.
 */
export function documentFromHtmlDom(
  dom: Document,
  notes: ImportNotes,
  format: ImportFormat,
  options: FormatImportOptions = {},
  fileTitle = '',
): ImportResult {
  const root: Node = dom.body ?? dom.documentElement ?? dom;
  const blocks = new HtmlWalker(notes).walk(root);
  const first = blocks[0];
  // A file with a title of its own and no level-1 heading at all is one section: it takes that title (F52).
  if (first && fileTitle !== '' && !blocks.some((block) => block.type === 'sectionHeading')) {
    blocks.unshift({
      type: 'sectionHeading',
      attrs: { level: 1 },
      content: [{ type: 'text', text: fileTitle }],
    });
  } else if (first && first.type !== 'sectionHeading') {
    notes.add(
      'untitled_section_added',
      () =>
        `Content before the first level-1 heading went into a section titled "${UNTITLED_IMPORT_SECTION}".`,
    );
    blocks.unshift({
      type: 'sectionHeading',
      attrs: { level: 1 },
      content: [{ type: 'text', text: UNTITLED_IMPORT_SECTION }],
    });
  }
  const result = normalizeDocument({ type: 'doc', content: blocks satisfies LooseNode[] }, options);
  if (!result.ok) {
    const tooLarge = /more than|too deep|nested/i.test(result.error.problem);
    throw new FormatError({
      reason: tooLarge ? 'too_large' : 'invalid_document',
      message: tooLarge
        ? 'The file holds more content than one document can: split it into smaller files.'
        : `The file could not be read as a document: ${result.error.problem}`,
      cause: result.error,
    });
  }
  const repaired = result.report.flattenedNodes + result.report.removedLinks;
  notes.add(
    'content_repaired',
    (n) => `${counted(n, 'part')} of the content had to be repaired to fit the document.`,
    repaired,
  );
  return { document: result.doc, report: { format, notes: notes.list() } };
}
