import * as z from 'zod';
import { ERROR_CODES } from '../errors/error-codes.js';
import { PlanwrightError } from '../errors/planwright-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import type { ExportFormat } from '../formats/format-names.js';
import { IMPORT_NOTE_CODES, type ImportFormat, type ImportReport } from '../formats/import-report.js';
import type { HttpClient } from '../http/http-client.js';
import { postForNdjson } from '../http/ndjson-stream.js';
import { isBlob } from './blob.js';
import type { CallOptions } from './call-options.js';
import type { DocumentDetail } from './documents.js';
import { type ExportedFile, exportedFile } from './exported-file.js';
import type { ImportProgress } from './import-progress.js';
import { readImportStream, tellProgress } from './import-stream-reader.js';
import { pathSegment } from './path-segment.js';

/** How an import meets the document (spec 001 §4): `merge` adds what is new, `replace` swaps the content. */
export type ImportMode = 'merge' | 'replace';

/** A file to import: a browser `File`/`Blob` (named), or bytes with a name. */
export type ImportFileInput = Blob | { name: string; bytes: Uint8Array };

/** What `documents.importFile` resolves to. */
export interface DocumentImportResult {
  /** The document as the import left it (already saved). */
  document: DocumentDetail;
  /** What was dropped or changed on the way in. */
  report: ImportReport;
}

/** Options of `documents.importFile`. */
export interface ImportFileOptions extends CallOptions {
  /** `merge` (the default) adds what is new; `replace` swaps the content. */
  mode?: ImportMode;
  /**
   * Called as the import goes through its phases (`uploading`, `queued`, `converting` every second or so
   * with the elapsed time and the limit, `saving`). With it the SDK asks the server for the streamed answer
   * (`Accept: application/x-ndjson`); the call still resolves and rejects exactly as without it. A listener
   * that throws does not stop the import.
   */
  onProgress?: (progress: ImportProgress) => void;
}

const reportWire = z.object({
  format: z.enum(['md', 'docx', 'html', 'json']).catch('md' as ImportFormat),
  notes: z
    .array(
      z.object({
        code: z.enum(IMPORT_NOTE_CODES).catch('content_repaired'),
        message: z.string(),
        count: z.number().int().positive().catch(1),
      }),
    )
    .catch([]),
});

/** Spec 001 §8 texts of the Markdown export. */
export const EXPORT_TEXTS = {
  uuidRequired: 'Document UUID is required for MD export',
  noMarkdown: 'No markdown content returned from server',
} as const;

function failure(message: string): PlanwrightError {
  return new PlanwrightError({ code: ERROR_CODES.INVALID_RESPONSE, message });
}

/** The export and import calls of one document (`docs/http-api.md` "Import and export"). */
export interface DocumentFileCalls {
  /**
   * The document as a file (`GET documents/{uuid}/export`, `?format=` for all but Markdown), converted by
   * the server from what it holds (pending edits are not in it: save first).
   */
  exportFile(uuid: string, format: ExportFormat, options?: CallOptions): Promise<ExportedFile>;
  /**
   * The document as Markdown (spec 001 §7 "Markdown export"): the answer's text, or its `markdown` field.
   * @throws PlanwrightError "Document UUID is required for MD export" / "No markdown content returned from server".
   */
  exportMarkdown(uuid: string, options?: CallOptions): Promise<string>;
  /**
   * Imports a .docx or .md file into the document (`POST documents/{uuid}/import/`, multipart `file` and
   * `mode`, default `merge`). A refused file rejects with an `ApiError` whose message is the server's one
   * line and whose `serverCode` is a `FormatErrorReason`; nothing is saved then. With `onProgress`, the
   * phases are reported as they happen (see the `onProgress` option); an aborted call does
   * not cancel an import the server has started: it may still be saved.
   *
   * @example
   * await client.documents.importFile(uuid, file, {
   *   mode: 'merge',
   *   onProgress: (p) => console.log(p.phase === 'converting' ? `${p.elapsedMs} of ${p.limitMs} ms` : p.phase),
   * });
   */
  importFile(uuid: string, file: ImportFileInput, options?: ImportFileOptions): Promise<DocumentImportResult>;
}

/** The export and import calls over a request helper; `detail` reads a document answer. */
export function createDocumentFileCalls(
  http: HttpClient,
  detail: z.ZodType<DocumentDetail>,
): DocumentFileCalls {
  const exportPath = (uuid: string) => `documents/${pathSegment(uuid, 'uuid')}/export`;
  const importAnswer = importAnswerSchema(detail);

  const exportMarkdown = async (uuid: string, options: CallOptions = {}): Promise<string> => {
    if (typeof uuid !== 'string' || uuid.trim() === '') throw failure(EXPORT_TEXTS.uuidRequired);
    const body = await http.get(exportPath(uuid), { signal: options.signal });
    const markdown =
      typeof body === 'string'
        ? body
        : typeof body === 'object' &&
            body !== null &&
            typeof (body as { markdown?: unknown }).markdown === 'string'
          ? (body as { markdown: string }).markdown
          : undefined;
    if (markdown === undefined) throw failure(EXPORT_TEXTS.noMarkdown);
    return markdown;
  };

  return {
    exportMarkdown,
    exportFile: async (uuid, format, options = {}) => {
      let headers: Headers | undefined;
      const bytes = await http.get(exportPath(uuid), {
        params: format === 'md' ? undefined : { format },
        responseType: 'bytes',
        signal: options.signal,
        onHeaders: (answer) => {
          headers = answer;
        },
      });
      return exportedFile(format, headers, bytes as Uint8Array, '');
    },
    importFile: async (uuid, file, options = {}) => {
      const form = new FormData();
      if (isBlob(file)) {
        form.set('file', file, 'name' in file && typeof file.name === 'string' ? file.name : 'upload');
      } else {
        form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
      }
      form.set('mode', options.mode ?? 'merge');
      const path = `documents/${pathSegment(uuid, 'uuid')}/import/`;
      if (!options.onProgress) return http.post(path, form, { signal: options.signal, schema: importAnswer });
      return importWithProgress(http, path, form, options.signal, options.onProgress, importAnswer);
    },
  };
}

/**
 * The import with its progress stream. The stream is preferred, JSON still taken (`q=0.5`): a server
 * that does not stream answers the plain JSON, which resolves the same way with fewer phases told.
 */
async function importWithProgress(
  http: HttpClient,
  path: string,
  form: FormData,
  signal: AbortSignal | undefined,
  onProgress: (progress: ImportProgress) => void,
  importAnswer: z.ZodType<DocumentImportResult>,
): Promise<DocumentImportResult> {
  tellProgress(onProgress, { phase: 'uploading' });
  const answer = await postForNdjson(http, path, form, signal);
  const body = answer.streamed
    ? await readImportStream(answer.response, answer.target, onProgress)
    : answer.body;
  const result = await importAnswer.safeParseAsync(body);
  if (!result.success) {
    throw new ResponseValidationError({
      issues: result.error.issues,
      data: body,
      status: answer.response.status,
      method: 'POST',
      url: answer.target.url,
      cause: result.error,
    });
  }
  return result.data;
}

/** The import answer: the document, plus `import_report` (an empty report when the server sent none). */
function importAnswerSchema(detail: z.ZodType<DocumentDetail>): z.ZodType<DocumentImportResult> {
  return z.unknown().transform(async (body, ctx): Promise<DocumentImportResult> => {
    const document = await detail.safeParseAsync(body);
    if (!document.success) {
      for (const issue of document.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: body });
      return z.NEVER;
    }
    const wire =
      typeof body === 'object' && body !== null
        ? (body as { import_report?: unknown }).import_report
        : undefined;
    const report = reportWire.safeParse(wire);
    return { document: document.data, report: report.success ? report.data : { format: 'md', notes: [] } };
  });
}
