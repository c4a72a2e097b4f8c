import { basename } from 'node:path';
import type { DocumentImportResult, ImportMode, ImportProgress } from '@planwright/sdk';
import type { CliIo } from '../cli-io.js';
import { terminalText } from '../display/terminal-text.js';
import { UsageError } from '../errors/cli-error.js';
import { createOutput } from '../output.js';
import { openSignedInSession } from '../session/signed-in-call.js';
import { withNotFound } from '../workspace/not-found.js';
import { importProgressText } from './import-progress-text.js';
import { createProgressLine } from './progress-line.js';
import { readInputFile } from './transfer-files.js';
import { noteText } from './transfer-text.js';

const LIST_HINT = 'Run `planwright documents list` to see your documents.';

/** What `planwright import` was asked to do. */
export interface ImportInput {
  server?: string | undefined;
  json: boolean;
  uuid: string;
  file: string;
  mode: ImportMode;
}

/** The server's statuses for a refused file (too large, not a .docx/.md, unreadable). */
const REFUSED_FILE_STATUSES = new Set([413, 415, 422]);

/**
 * Imports a .md or .docx file into a document (`POST documents/{uuid}/import/`): the extension is
 * checked before anything is read or sent, the server's phases show as a bar on a terminal (uploading,
 * waiting for a converter, converting with its time and limit, saving), and the import report and
 * the new outline are printed. A file the server refuses ends as the SDK's `FormatError` with the
 * server's one line (exit 1).
 */
export async function importIntoDocument(io: CliIo, input: ImportInput): Promise<void> {
  const [sdk, formats] = await Promise.all([import('@planwright/sdk'), import('@planwright/sdk/formats')]);
  try {
    formats.requireImportFormat(input.file, formats.DOCUMENT_IMPORT_FORMATS);
  } catch (error) {
    if (!formats.FormatError.isInstance(error)) throw error;
    throw new UsageError(`<file>: ${error.message}`, { cause: error });
  }
  const progress = createProgressLine(io.stderr);
  const name = basename(input.file);
  const shownName = terminalText(name);
  progress.show(`Reading ${shownName}…`);
  let bytes: Uint8Array;
  try {
    bytes = await readInputFile(input.file);
  } finally {
    progress.clear();
  }
  const session = await openSignedInSession(io, input.server);
  // The server's progress stream is asked for only when there is a terminal to show it on.
  const onProgress =
    io.stderr.isTTY === true
      ? (phase: ImportProgress) => progress.show(importProgressText(phase, shownName, bytes.length))
      : undefined;
  let result: DocumentImportResult;
  try {
    result = await withNotFound(
      () =>
        session.call((client) =>
          client.documents.importFile(
            input.uuid,
            { name, bytes },
            { mode: input.mode, ...(onProgress ? { onProgress } : {}) },
          ),
        ),
      sdk.DOCUMENT_TEXTS.notFound,
      LIST_HINT,
    );
  } catch (error) {
    if (sdk.ApiError.isInstance(error) && REFUSED_FILE_STATUSES.has(error.status)) {
      const reason = formats.isFormatErrorReason(error.serverCode)
        ? error.serverCode
        : error.status === 413
          ? 'too_large'
          : error.status === 415
            ? 'unsupported_format'
            : 'invalid_document';
      throw new formats.FormatError({ reason, message: error.detail ?? error.message, cause: error });
    }
    throw error;
  } finally {
    progress.clear();
  }
  createOutput(io, input).result(result, () => importLines(result, shownName, input.mode, sdk.documentTitle));
}

/** `import` for people: what happened, the outline's size, then each note of the report. */
export function importLines(
  result: DocumentImportResult,
  fileName: string,
  mode: ImportMode,
  documentTitle: (document: { title: string }) => string,
): string[] {
  const { document, report } = result;
  const sections = document.sections.length;
  const subsections = document.sections.reduce((sum, section) => sum + section.subsections.length, 0);
  const how = mode === 'replace' ? 'replaced the content of' : 'merged into';
  return [
    `Imported ${fileName}: ${how} "${documentTitle({ title: terminalText(document.title) })}".`,
    `Outline: ${plural(sections, 'section')}, ${plural(subsections, 'subsection')}.`,
    ...(report.notes.length === 0
      ? ['Import report: nothing was dropped or changed.']
      : ['Import report:', ...report.notes.map((note) => `  - ${noteText(note)}`)]),
  ];
}

function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
