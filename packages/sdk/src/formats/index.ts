/**
 * `@planwright/sdk/formats`: documents to and from Markdown, HTML and Tiptap JSON, with import reports
 * and typed refusals. Runs in browsers and Node alike. The .docx and PDF conversions need Node-only
 * libraries and live in `@planwright/sdk/formats/node`. Rules: `src/formats/SPEC.md`.
 *
 * @module @planwright/sdk/formats
 */

export {
  FORMAT_ERROR_REASONS,
  FormatError,
  type FormatErrorOptions,
  type FormatErrorReason,
  isFormatErrorReason,
} from '../errors/format-error.js';
export {
  CONVERSION_MEMORY_MB_PER_MIB,
  CONVERSION_MS_PER_MIB,
  type ConversionBudget,
  type ConversionBudgetRules,
  conversionBudget,
  DEFAULT_CONVERSION_BUDGET,
} from './conversion-budget.js';
export {
  type DiffLabels,
  type DocumentDiff,
  diffDocuments,
  documentDiffToMarkdown,
  type PartStatus,
  type SectionDiff,
  type SubsectionDiff,
  type TextDiff,
  type WordChange,
} from './document-diff.js';
export {
  DOCUMENT_IMPORT_FORMATS,
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  type ExportFormat,
  exportFileName,
  IMPORT_FORMATS,
  importFormatOf,
  isTextFormat,
  parseExportFormat,
  requireImportFormat,
} from './format-names.js';
export { documentToHtml, type HtmlExportOptions } from './html-export.js';
export { type HtmlImportOptions, type HtmlParser, htmlToDocument } from './html-import.js';
export { IMPORTED_TITLE_PREFIX, type ImportMergeMode, mergeImportedDocument } from './import-merge.js';
export type { FormatImportOptions } from './import-options.js';
export {
  counted,
  IMPORT_NOTE_CODES,
  type ImportFormat,
  type ImportNote,
  type ImportNoteCode,
  ImportNotes,
  type ImportReport,
  type ImportResult,
} from './import-report.js';
export { documentToJson, jsonToDocument } from './json-format.js';
export { documentToMarkdown } from './markdown-export.js';
export { markdownToDocument } from './markdown-import.js';
