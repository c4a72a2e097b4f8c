/**
 * `@planwright/sdk/formats/node`: the conversions that need Node-only libraries — .docx in and out,
 * PDF out, HTML in without a browser — and one entry point per direction for every format. Browser
 * bundles never import this. Rules: `src/formats/SPEC.md`.
 *
 * @module @planwright/sdk/formats/node
 */

export {
  type ExportDocumentOptions,
  exportDocument,
  type ImportDocumentOptions,
  importDocument,
} from './convert.js';
export type { DiffDocxOptions } from './docx-diff.js';
export type { DocxExportOptions } from './docx-export.js';
export type { DocxImportOptions } from './docx-import.js';
export type { FileExportOptions } from './export-blocks.js';
export { parseHtmlInNode } from './html-dom.js';
export { diffToDocx, documentToDocx, documentToPdf, docxToDocument } from './lazy-converters.js';
export type { PdfExportOptions } from './pdf-export.js';
export { DEFAULT_ZIP_LIMITS, inspectZip, type ZipEntryInfo, type ZipLimits } from './zip-guard.js';
