import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentSummary } from '@planwright/sdk';
import type { ExportFormat } from '@planwright/sdk/formats';
import type { CliIo } from '../cli-io.js';
import { describeApiError } from '../errors/api-error-text.js';
import { CliErrorCode, NotSignedInError, UsageError } from '../errors/cli-error.js';
import { describeFsError } from '../files/private-file.js';
import { createOutput } from '../output.js';
import { openSignedInSession, type SignedInSession } from '../session/signed-in-call.js';
import { withNotFound } from '../workspace/not-found.js';
import { uniqueExportFileNames } from './export-file-names.js';
import { createProgressLine, progressBar } from './progress-line.js';
import { ExportFailedError, TransferFileError } from './transfer-errors.js';
import {
  describeWriteError,
  ensureWritable,
  STDOUT_PATH,
  writeOutputFile,
  writeToStdout,
} from './transfer-files.js';
import { formatSize } from './transfer-text.js';

const LIST_HINT = 'Run `planwright documents list` to see your documents.';

/** The most pages `--all` reads (100 documents each), so a server that miscounts cannot loop forever. */
const MAX_LIST_PAGES = 10_000;

/** Widest a title may be in the progress line. */
const PROGRESS_TITLE_WIDTH = 40;

/** What `planwright export <uuid>` was asked to do. */
export interface ExportOneInput {
  server?: string | undefined;
  json: boolean;
  uuid: string;
  format: ExportFormat;
  /** A file, `-` or nothing for standard output. */
  output?: string | undefined;
  force: boolean;
}

/** What `planwright export <uuid> -o FILE --json` prints. */
export interface ExportOneReport {
  uuid: string;
  format: ExportFormat;
  path: string;
  bytes: number;
}

/**
 * Exports one document: to standard output (text formats, or any format into a pipe) or atomically to a
 * file. Everything that can be refused is refused before the server is asked.
 */
export async function exportOneDocument(io: CliIo, input: ExportOneInput): Promise<void> {
  const { isTextFormat, DOCUMENT_TEXTS } = await loadSdk();
  const text = isTextFormat(input.format);
  const output = input.output === STDOUT_PATH ? undefined : input.output;
  if (output === undefined) {
    if (input.json) {
      throw new UsageError('--json prints a report on standard output, so it needs --output <file>', {
        suggestion: 'For the document itself as JSON, use --format json.',
      });
    }
    if (!text && io.stdout.isTTY === true) {
      throw new UsageError(`refusing to write binary .${input.format} to a terminal`, {
        suggestion: 'Use -o FILE, or redirect standard output to a file.',
      });
    }
  } else {
    await ensureWritable(output, input.force);
  }
  const session = await openSignedInSession(io, input.server);
  const file = await withNotFound(
    () => session.call((client) => client.documents.exportFile(input.uuid, input.format)),
    DOCUMENT_TEXTS.notFound,
    LIST_HINT,
  );
  if (output === undefined) {
    writeToStdout(io.stdout, file.bytes, text);
    return;
  }
  await writeOutputFile(output, file.bytes, input.force);
  const { terminalText } = await import('../display/terminal-text.js');
  const report: ExportOneReport = {
    uuid: input.uuid,
    format: input.format,
    path: output,
    bytes: file.bytes.length,
  };
  createOutput(io, input).result(
    report,
    () => `Exported ${terminalText(input.uuid)} to ${terminalText(output)} (${formatSize(report.bytes)}).`,
  );
}

/** What `planwright export --all` was asked to do. */
export interface ExportAllInput {
  server?: string | undefined;
  json: boolean;
  format: ExportFormat;
  outDir: string;
  force: boolean;
}

/** What `planwright export --all --json` prints. */
export interface ExportAllReport {
  outDir: string;
  format: ExportFormat;
  exported: Array<{ uuid: string; title: string; file: string }>;
  failed: Array<{ uuid: string; title: string; error: string }>;
}

/**
 * Exports every document of the signed-in user into `outDir`, one at a time, under safe and unique
 * file names. A document that fails is named with its reason and the others go on; a dead session or
 * an unreachable server stops the run. Throws {@link ExportFailedError} (exit 1) after the summary
 * when any failed.
 */
export async function exportAllDocuments(io: CliIo, input: ExportAllInput): Promise<void> {
  const [sdk, { exportFileName }, { terminalText }] = await Promise.all([
    loadSdk(),
    import('@planwright/sdk/formats'),
    import('../display/terminal-text.js'),
  ]);
  const session = await openSignedInSession(io, input.server);
  const documents = await listAllDocuments(session);
  const files = uniqueExportFileNames(documents, input.format, exportFileName).map(({ document, name }) => ({
    document,
    path: join(input.outDir, name),
  }));
  try {
    await mkdir(input.outDir, { recursive: true });
  } catch (error) {
    throw new TransferFileError(
      CliErrorCode.fileUnwritable,
      input.outDir,
      `cannot create the folder ${input.outDir}: ${describeFsError(error)}`,
      { cause: error },
    );
  }
  if (!input.force)
    await refuseExistingFiles(
      input.outDir,
      files.map(({ path }) => path),
    );

  const shown = (title: string) => sdk.documentTitle({ title: terminalText(title) });
  const report: ExportAllReport = { outDir: input.outDir, format: input.format, exported: [], failed: [] };
  const progress = createProgressLine(io.stderr);
  const label = io.stderr.isTTY === true ? await progressLabel() : () => '';
  for (const [index, { document, path }] of files.entries()) {
    progress.show(`${progressBar(index, documents.length)} ${label(document.title)}`);
    try {
      const file = await session.call((client) => client.documents.exportFile(document.uuid, input.format));
      await writeOutputFile(path, file.bytes, input.force);
      report.exported.push({ uuid: document.uuid, title: document.title, file: path });
    } catch (error) {
      if (isFatal(error, sdk)) {
        progress.clear();
        throw error;
      }
      const failure = { uuid: document.uuid, title: document.title, error: failureReason(error, sdk) };
      report.failed.push(failure);
      // Named at once, above the progress line, so a long run shows its failures as they happen.
      if (!input.json) {
        progress.clear();
        io.stderr.write(
          `failed: "${shown(failure.title)}" (${terminalText(failure.uuid)}): ${terminalText(failure.error)}\n`,
        );
      }
    }
  }
  progress.show(progressBar(documents.length, documents.length));
  progress.clear();

  createOutput(io, input).result(report, () => {
    if (documents.length === 0) return 'No documents to export.';
    const failed = report.failed.length > 0 ? ` (${report.failed.length} failed)` : '';
    const noun = report.exported.length === 1 ? 'document' : 'documents';
    return `Exported ${report.exported.length} ${noun} to ${terminalText(input.outDir)}${failed}.`;
  });
  if (report.failed.length > 0) {
    throw new ExportFailedError(report.failed.length, documents.length, {
      suggestion:
        report.failed.length === documents.length
          ? undefined
          : 'The other files were written. Run again with --force to export everything anew.',
    });
  }
}

async function loadSdk() {
  return import('@planwright/sdk');
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** Every document of the user, all pages, each once (a document edited meanwhile may move between pages). */
async function listAllDocuments(session: SignedInSession): Promise<DocumentSummary[]> {
  const documents = new Map<string, DocumentSummary>();
  for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
    const answer = await session.call((client) => client.documents.list({ page, pageSize: 100 }));
    for (const document of answer.items) documents.set(document.uuid, document);
    if (answer.items.length === 0 || page * 100 >= answer.total) break;
  }
  return [...documents.values()];
}

/** Refuses before any export when files of this run exist already (`--force` replaces them). */
async function refuseExistingFiles(outDir: string, paths: readonly string[]): Promise<void> {
  const taken: string[] = [];
  for (const path of paths) {
    try {
      await ensureWritable(path, false);
    } catch (error) {
      if (error instanceof TransferFileError && error.code === CliErrorCode.fileExists) taken.push(path);
      else throw error;
    }
  }
  if (taken.length === 0) return;
  const { terminalText } = await import('../display/terminal-text.js');
  const examples = taken
    .slice(0, 3)
    .map((path) => `"${terminalText(path)}"`)
    .join(', ');
  throw new TransferFileError(
    CliErrorCode.fileExists,
    outDir,
    `${taken.length} ${taken.length === 1 ? 'file exists' : 'files exist'} already in ${outDir}: ${examples}${taken.length > 3 ? ', …' : ''}`,
    { suggestion: 'Pass --force to replace them, or choose another --out-dir.' },
  );
}

/** A dead session or an unreachable server fails every other document too: stop at once. */
function isFatal(error: unknown, sdk: Sdk): boolean {
  if (error instanceof NotSignedInError) return true;
  if (sdk.NetworkError.isInstance(error)) return true;
  return sdk.AbortedError.isInstance(error) && error.isTimeout;
}

/** Why one document failed, in one line. */
function failureReason(error: unknown, sdk: Sdk): string {
  if (sdk.ApiError.isInstance(error)) {
    return error.status === 404 ? sdk.DOCUMENT_TEXTS.notFound : describeApiError(error);
  }
  if (error instanceof TransferFileError) return error.message;
  if (error instanceof Error && !sdk.PlanwrightError.isInstance(error)) return describeWriteError(error);
  return error instanceof Error ? error.message : String(error);
}

/** The title for the progress line: terminal-safe and cut to fit (loads `string-width`, so only on a terminal). */
async function progressLabel(): Promise<(title: string) => string> {
  const [{ terminalText }, { truncateToWidth }, { documentTitle }] = await Promise.all([
    import('../display/terminal-text.js'),
    import('../display/display-width.js'),
    import('@planwright/sdk'),
  ]);
  return (title) => truncateToWidth(documentTitle({ title: terminalText(title) }), PROGRESS_TITLE_WIDTH);
}
