/*
 * The .docx and PDF converters behind functions that load them on first use. Their libraries are the
 * heaviest part of the SDK (pdfmake, docx, mammoth: about 330 ms to load on a 2-core machine), and a
 * conversion needs at most one reader and one writer: `planwright convert notes.md -o notes.html` and a
 * server's first Markdown import loaded all of them before. The signatures are the modules' own.
 */
import type { DocumentJson } from '../../model/document-json.js';
import type { DiffLabels, DocumentDiff } from '../document-diff.js';
import type { ImportResult } from '../import-report.js';
import type { DiffDocxOptions } from './docx-diff.js';
import type { DocxExportOptions } from './docx-export.js';
import type { DocxImportOptions } from './docx-import.js';
import type { PdfExportOptions } from './pdf-export.js';

/**
 * A document as a Word file (.docx; rules F60–F69 in `src/formats/SPEC.md`): a title page, then every
 * section on a new page under a real "Heading 1", subsections under "Heading 2", headings 3 and 4 under
 * "Heading 3" and "Heading 4" (with outline levels, so Word's navigation pane and a table of contents
 * work), lists through numbering definitions, links, quotes, code and rules.
 * Loads the .docx writer (docx) on first use.
 *
 * @param document - A normalised document.
 * @returns The bytes of the .docx file.
 */
export async function documentToDocx(
  document: DocumentJson,
  options?: DocxExportOptions,
): Promise<Uint8Array> {
  return (await import('./docx-export.js')).documentToDocx(document, options);
}

/**
 * Reads a Word .docx into a document (rules F50–F59). The archive is checked first (`inspectZip`:
 * not a zip, encrypted, too many entries, unsafe names, too large once inflated, XML entities), then
 * mammoth turns it into HTML with an explicit style map and `htmlToDocument`'s walk reads that.
 * Headings come from Word's heading styles by name, id or outline level; footnotes end their section;
 * comments and tracked deletions are left out; images dropped and tables flattened, with notes.
 * Loads the .docx reader (mammoth) on first use.
 *
 * @throws {FormatError} for a refused file (see `FormatErrorReason`), `not_a_docx` when mammoth cannot
 *   read it.
 */
export async function docxToDocument(bytes: Uint8Array, options?: DocxImportOptions): Promise<ImportResult> {
  return (await import('./docx-import.js')).docxToDocument(bytes, options);
}

/**
 * A document as a PDF (rules F70–F79 in `src/formats/SPEC.md`): a title page, a table of contents with
 * page numbers, every section from a new page, subsections, headings, paragraphs with their marks,
 * lists, quotes, code and links, and "Made with Planwright" with the page number on every page. Pure
 * JavaScript (pdfmake) with the standard Helvetica and Courier fonts: characters they cannot draw are
 * replaced (see `standardFontText`), never an error.
 * Loads pdfmake on first use.
 *
 * @param document - A normalised document.
 * @returns The bytes of the PDF file.
 */
export async function documentToPdf(document: DocumentJson, options?: PdfExportOptions): Promise<Uint8Array> {
  return (await import('./pdf-export.js')).documentToPdf(document, options);
}

/**
 * A diff of two versions as a Word file with tracked changes (`w:ins` and `w:del`, docs/versions.md "Comparing"):
 * the changed sections and subsections, what happened to each, and their words as insertions and deletions Word
 * and LibreOffice show and let one accept or reject. Loads the .docx writer (docx) on first use.
 */
export async function diffToDocx(
  diff: DocumentDiff,
  labels: DiffLabels,
  options?: DiffDocxOptions,
): Promise<Uint8Array> {
  return (await import('./docx-diff.js')).diffToDocx(diff, labels, options);
}
