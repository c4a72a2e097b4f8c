import { basename } from 'node:path';
import type { ExportFormat } from '@planwright/sdk/formats';

/** A document to be written into a folder by `export --all`. */
export interface NamedExport {
  uuid: string;
  title: string;
}

/**
 * A file name for each document (in the same order), inside one folder: `exportName` (the SDK's
 * `exportFileName`: no separators, invisible characters, reserved names or edge dots; at most 200 bytes)
 * made unique with ` (2)`, ` (3)`… in list order. Names are compared case-insensitively and
 * NFC-normalised, since macOS and Windows file systems treat `Plan.md` and `plan.md` as one file.
 */
export function uniqueExportFileNames<Document extends NamedExport>(
  documents: readonly Document[],
  format: ExportFormat,
  exportName: (title: string, format: ExportFormat) => string,
): Array<{ document: Document; name: string }> {
  const taken = new Set<string>();
  const names: Array<{ document: Document; name: string }> = [];
  const extension = `.${format}`;
  for (const document of documents) {
    const safe = safeBaseName(exportName(document.title, format), extension);
    const base = safe.slice(0, -extension.length);
    let name = safe;
    for (let copy = 2; taken.has(fold(name)); copy += 1) name = `${base} (${copy})${extension}`;
    taken.add(fold(name));
    names.push({ document, name });
  }
  return names;
}

/**
 * `name` when it is one plain file name, else "Untitled Document": the SDK's `exportFileName` already
 * removes separators, invisible characters and reserved names and caps the length; this makes sure
 * nothing can ever leave the folder, whatever `exportName` is given.
 */
function safeBaseName(name: string, extension: string): string {
  const plain = name.length > extension.length && basename(name) === name && !name.includes('\\');
  return plain && name.endsWith(extension) ? name : `Untitled Document${extension}`;
}

function fold(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
