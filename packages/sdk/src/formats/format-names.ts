import { FormatError } from '../errors/format-error.js';
import type { ImportFormat } from './import-report.js';

/** Formats a document can be exported to. `md` is Markdown. */
export const EXPORT_FORMATS = ['md', 'docx', 'pdf', 'html', 'json'] as const;

/** One of the {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Formats a file can be imported from. The server's import endpoint takes `md` and `docx` only. */
export const IMPORT_FORMATS: readonly ImportFormat[] = ['md', 'docx', 'html', 'json'];

/** What `POST documents/{uuid}/import/` accepts (spec 001 §5: .docx and .md only). */
export const DOCUMENT_IMPORT_FORMATS: readonly ImportFormat[] = ['md', 'docx'];

/** The `Content-Type` each export format is served with. */
export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  md: 'text/markdown; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** Whether the format is text (safe to print to a terminal). */
export function isTextFormat(format: ExportFormat): boolean {
  return format === 'md' || format === 'html' || format === 'json';
}

/** Whether `value` names an export format (`markdown` counts as `md`). */
export function parseExportFormat(value: string): ExportFormat | undefined {
  const name = value.trim().toLowerCase().replace(/^\./, '');
  if (name === 'markdown') return 'md';
  return (EXPORT_FORMATS as readonly string[]).includes(name) ? (name as ExportFormat) : undefined;
}

const EXTENSIONS: Readonly<Record<string, ImportFormat>> = {
  md: 'md',
  markdown: 'md',
  docx: 'docx',
  html: 'html',
  htm: 'html',
  json: 'json',
};

/** The import format a file name's extension names, or `undefined` (`.doc`, no extension…). */
export function importFormatOf(fileName: string): ImportFormat | undefined {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return match?.[1] ? EXTENSIONS[match[1].toLowerCase()] : undefined;
}

/** Like {@link importFormatOf}, but throws a {@link FormatError} naming what is accepted. */
export function requireImportFormat(
  fileName: string,
  accepted: readonly ImportFormat[] = IMPORT_FORMATS,
): ImportFormat {
  const format = importFormatOf(fileName);
  if (format && accepted.includes(format)) return format;
  const list = accepted.map((name) => `.${name}`).join(', ');
  throw new FormatError({
    reason: 'unsupported_format',
    message: `Unsupported file type${format ? ` .${format}` : ''}: only ${list} files can be imported.`,
  });
}

// Characters no file system takes, and the ones shells and URLs trip on.
const UNSAFE_FILE_CHARACTERS = /[<>:"/\\|?*]+/g;
// Control and invisible format characters (C0, C1, bidi overrides, zero-width spaces, tag characters),
// except the zero-width joiner that emoji sequences need.
const INVISIBLE_CHARACTERS = /(?!\u200d)[\p{Cc}\p{Cf}]/gu;
const RESERVED_WINDOWS_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
const EDGE_DOTS_AND_SPACES = /^[.\s]+|[.\s]+$/g;
/** Most file systems allow 255 bytes per name: this leaves room for a ` (12)` and the extension. */
const MAX_BASE_NAME_BYTES = 200;
const utf8 = new TextEncoder();

/** The longest run of whole characters (grapheme clusters: an emoji family stays whole) within `bytes`. */
function cutToBytes(text: string, bytes: number): string {
  let kept = '';
  let size = 0;
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) {
    size += utf8.encode(segment).length;
    if (size > bytes) break;
    kept += segment;
  }
  return kept.replace(EDGE_DOTS_AND_SPACES, '');
}

/**
 * A file name for an export: the title made safe on every file system (no separators, control, bidi or
 * other invisible characters, reserved names, leading or trailing dots; at most 200 UTF-8 bytes, cut
 * between whole characters), plus the extension. "Untitled Document" when nothing is left of the title.
 */
export function exportFileName(title: string, format: ExportFormat): string {
  let base = title
    .normalize('NFC')
    .replace(UNSAFE_FILE_CHARACTERS, ' ')
    .replace(INVISIBLE_CHARACTERS, ' ')
    .replace(/\s+/g, ' ')
    .replace(EDGE_DOTS_AND_SPACES, '');
  if (utf8.encode(base).length > MAX_BASE_NAME_BYTES) base = cutToBytes(base, MAX_BASE_NAME_BYTES);
  if (RESERVED_WINDOWS_NAMES.test(base)) base = `${base} document`;
  return `${base || 'Untitled Document'}.${format}`;
}
