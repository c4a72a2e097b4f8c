import { FormatError } from '../../errors/format-error.js';
import type { DocumentJson } from '../../model/document-json.js';
import type { ExportFormat } from '../format-names.js';
import { documentToHtml } from '../html-export.js';
import { htmlToDocument } from '../html-import.js';
import type { FormatImportOptions } from '../import-options.js';
import type { ImportFormat, ImportResult } from '../import-report.js';
import { documentToJson, jsonToDocument } from '../json-format.js';
import { documentToMarkdown } from '../markdown-export.js';
import { markdownToDocument } from '../markdown-import.js';
import type { FileExportOptions } from './export-blocks.js';
import { parseHtmlInNode } from './html-dom.js';
import { documentToDocx, documentToPdf, docxToDocument } from './lazy-converters.js';
import type { ZipLimits } from './zip-guard.js';

/** Options of {@link importDocument}. */
export interface ImportDocumentOptions extends FormatImportOptions {
  /** Limits for .docx archives (defaults: 10,000 entries, 50 MB unpacked). */
  limits?: Partial<ZipLimits>;
}

/** Options of {@link exportDocument}. */
export type ExportDocumentOptions = FileExportOptions;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The bytes as UTF-8 text (a byte-order mark is dropped); invalid UTF-8 is refused. */
function decodeText(input: Uint8Array): string {
  try {
    return utf8.decode(input);
  } catch (error) {
    throw new FormatError({
      reason: 'invalid_text',
      message: 'The file is not valid UTF-8 text.',
      cause: error,
    });
  }
}

/**
 * Reads a file of any import format into a document and its report. Throws only {@link FormatError}:
 * nothing half-read is ever returned.
 */
export async function importDocument(
  input: Uint8Array,
  format: ImportFormat,
  options: ImportDocumentOptions = {},
): Promise<ImportResult> {
  const { limits, ...importOptions } = options;
  switch (format) {
    case 'docx':
      return docxToDocument(input, { ...importOptions, limits });
    case 'md':
      return markdownToDocument(decodeText(input), importOptions);
    case 'html':
      return htmlToDocument(decodeText(input), { ...importOptions, parseHtml: parseHtmlInNode });
    case 'json':
      return jsonToDocument(decodeText(input), importOptions);
    default:
      throw new FormatError({
        reason: 'unsupported_format',
        message: `Unsupported import format: ${String(format)}.`,
      });
  }
}

const utf8Encoder = new TextEncoder();

/** Writes a document in any export format; text formats come back UTF-8 encoded. */
export async function exportDocument(
  document: DocumentJson,
  format: ExportFormat,
  options: ExportDocumentOptions = {},
): Promise<Uint8Array> {
  switch (format) {
    case 'md':
      return utf8Encoder.encode(documentToMarkdown(document));
    case 'html':
      return utf8Encoder.encode(documentToHtml(document, { title: options.title, standalone: true }));
    case 'json':
      return utf8Encoder.encode(documentToJson(document));
    case 'docx':
      return documentToDocx(document, options);
    case 'pdf':
      return documentToPdf(document, options);
    default:
      throw new FormatError({
        reason: 'unsupported_format',
        message: `Unsupported export format: ${String(format)}.`,
      });
  }
}
