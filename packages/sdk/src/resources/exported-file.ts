import { EXPORT_CONTENT_TYPES, type ExportFormat, exportFileName } from '../formats/format-names.js';

/** A document exported to a file. */
export interface ExportedFile {
  format: ExportFormat;
  /** From the server's `Content-Disposition` when it sent one, else made from the title. */
  fileName: string;
  /** The answer's `Content-Type`, else the format's. */
  contentType: string;
  bytes: Uint8Array;
}

// RFC 6266: `filename*=UTF-8''…` wins over the plain `filename="…"`.
const FILENAME_STAR = /filename\*\s*=\s*UTF-8''([^;]+)/i;
const FILENAME_PLAIN = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/i;

/** The file name a `Content-Disposition` header names, with path separators taken out; `undefined` if none. */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  let name: string | undefined;
  const star = FILENAME_STAR.exec(header);
  if (star?.[1]) {
    try {
      name = decodeURIComponent(star[1].trim());
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const plain = FILENAME_PLAIN.exec(header);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  }
  // A server must not choose where a file lands: only the last path segment is kept.
  const base = name?.split(/[\\/]/).at(-1)?.trim();
  return base && base !== '.' && base !== '..' ? base : undefined;
}

/** Builds an {@link ExportedFile} from an answer's headers and bytes. */
export function exportedFile(
  format: ExportFormat,
  headers: Headers | undefined,
  bytes: Uint8Array,
  title: string,
): ExportedFile {
  return {
    format,
    fileName:
      dispositionFileName(headers?.get('content-disposition') ?? null) ?? exportFileName(title, format),
    contentType: headers?.get('content-type') ?? EXPORT_CONTENT_TYPES[format],
    bytes,
  };
}
