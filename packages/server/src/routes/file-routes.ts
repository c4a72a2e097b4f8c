import fastifyMultipart from '@fastify/multipart';
import { IMPORT_STREAM_MEDIA_TYPE } from '@planwright/sdk';
import {
  DOCUMENT_IMPORT_FORMATS,
  EXPORT_FORMATS,
  type ExportFormat,
  type ImportResult,
  parseExportFormat,
  requireImportFormat,
} from '@planwright/sdk/formats';
import type { DocumentJson } from '@planwright/sdk/model';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { closingUnreadBody, requireUser, signedInFirst } from '../auth/require-user.js';
import { type ContentWork, mergeImportOffThread } from '../documents/content-off-thread.js';
import { permitted } from '../documents/document-access.js';
import { documentDetailBody } from '../documents/document-view.js';
import { writeDocument } from '../documents/write-document.js';
import type { ConversionPool, PoolTimers } from '../formats/conversion-pool.js';
import { conversionRunOptions } from '../formats/conversion-run-options.js';
import type { ConversionTokens } from '../formats/conversion-tokens.js';
import { conversionFailure, sendFile } from '../formats/file-answers.js';
import { readUpload } from '../formats/file-upload.js';
import { ImportProgressStream, wantsImportStream } from '../formats/import-progress-stream.js';
import { errorAnswer } from '../http/error-handling.js';
import { parseInput } from '../http/http-error.js';
import { sendJson } from '../http/json-body.js';
import { uuidParam } from '../http/uuid-param.js';
import { normalizeContentInput } from '../structure/content-input.js';
import { CONTENT_BODY_LIMIT, notFound } from '../structure/not-found.js';
import { assertRevision, readIfMatch, setRevisionTag } from '../structure/revision.js';
import { retryStaleWrites, StaleWriteError } from '../structure/stale-write.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** What the import, export and conversion routes use beyond the workspace's. */
export interface FileRouteDeps extends WorkspaceRouteDeps {
  conversions: ConversionPool;
  tokens: ConversionTokens;
  /** The timers of the import's progress stream (its heartbeat); tests pass manual ones. */
  timers: PoolTimers;
  /** Where an import is merged into the stored tree, off the event loop. */
  contentWork: ContentWork;
}

type DocumentParams = { uuid: string };

const exportQuery = z.object({
  format: z
    .string()
    .optional()
    .transform((value, ctx): ExportFormat => {
      const format = value === undefined || value === '' ? 'md' : parseExportFormat(value);
      if (format) return format;
      ctx.addIssue({ code: 'custom', message: `Use one of: ${EXPORT_FORMATS.join(', ')}.` });
      return z.NEVER;
    }),
});

const tokenRequest = z
  .object({ scope: z.literal('convert', { error: 'The only scope is "convert".' }).optional() })
  .nullish();

const conversionRequest = z.object({
  content: z.unknown().refine((value) => value !== undefined, { message: 'Content is required.' }),
  format: z.enum(EXPORT_FORMATS, { error: `Use one of: ${EXPORT_FORMATS.join(', ')}.` }),
  title: z.string().max(500).optional(),
});

const importFields = z.object({ mode: z.enum(['merge', 'replace'], { error: 'Use merge or replace.' }) });

function documentIdOf(request: FastifyRequest<{ Params: DocumentParams }>): string {
  const id = uuidParam(request.params.uuid);
  if (id === undefined) throw notFound('document');
  return id;
}

/** @internal {@link convert} for a check that does not wait (a file's type from its name). */
export function convertSync<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw conversionFailure(error);
  }
}

/** @internal Runs a conversion; a refused file answers its reason (shared with chat attachments). */
export async function convert<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw conversionFailure(error);
  }
}

/**
 * Import, export and conversion (`docs/http-api.md` "Import and export"). Every conversion runs in the
 * worker pool with its time limit; a refused file answers its one-line reason and saves nothing.
 */
export function fileRoutes(app: FastifyInstance, deps: FileRouteDeps): void {
  const { storage, sessions, now, conversions, tokens, config, timers, live, contentWork } = deps;
  const budgeted = (owner: string, kind: 'import' | 'export', bytes: number) =>
    conversionRunOptions(config.conversion, owner, kind, bytes);

  /** `GET documents/{uuid}/export[?format=md|docx|pdf|html|json]`: the stored document as a file. */
  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/export', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const id = documentIdOf(request);
    const { format } = parseInput(exportQuery, request.query);
    if (live && (await storage.documents.findHeadFor(id, user.id)))
      await live.beforeRest({ kind: 'document', id });
    // Viewers export too (docs/teams.md "Roles").
    const doc = permitted(await storage.documents.findWithContentJsonFor(id, user.id), 'read');
    const bytes = await convert(() =>
      conversions.run(
        { kind: 'export', format, contentJson: doc.contentJson, title: doc.title },
        budgeted(user.id, 'export', doc.contentJson.length),
      ),
    );
    return sendFile(reply, format, doc.title, bytes);
  });

  /** `POST apps/tiptap/convert/jwt/` `{scope?: "convert"}`: a short-lived token for the conversion service. */
  app.post('/api/v1/apps/tiptap/convert/jwt/', async (request) => {
    const user = await requireUser(request, sessions);
    parseInput(tokenRequest, request.body);
    const issued = await tokens.issue(user.id);
    return {
      token: issued.token,
      expires_at: issued.expiresAt.toISOString(),
      expires_in: Math.round((issued.expiresAt.getTime() - now().getTime()) / 1000),
    };
  });

  /**
   * `POST apps/tiptap/convert/export/` `{content, format, title?}` with `Authorization: Bearer <token>`:
   * a content tree (what an editor holds, saved or not) as a file. 401 `token_expired`/`token_invalid`.
   */
  app.post(
    '/api/v1/apps/tiptap/convert/export/',
    {
      bodyLimit: CONTENT_BODY_LIMIT,
      // The token is checked before the body is read: an anonymous 5 MB body is not parsed.
      onRequest: async (request) => {
        try {
          await tokens.verify(request.headers.authorization);
        } catch (error) {
          throw closingUnreadBody(error);
        }
      },
    },
    async (request, reply) => {
      const userId = await tokens.verify(request.headers.authorization);
      const input = parseInput(conversionRequest, request.body);
      const content = normalizeContentInput(input.content);
      const title = input.title?.trim() ?? '';
      const contentJson = JSON.stringify(content);
      const bytes = await convert(() =>
        conversions.run(
          { kind: 'export', format: input.format, contentJson, title },
          budgeted(userId, 'export', contentJson.length),
        ),
      );
      return sendFile(reply, input.format, title, bytes);
    },
  );

  // Multipart is parsed only in this scope (and the chat attachments route's): no other route takes files.
  app.register(async (scope) => {
    await scope.register(fastifyMultipart);

    /**
     * `POST documents/{uuid}/import/` multipart `file` (.docx or .md) and `mode` (`merge`, the default, or
     * `replace`); honours `If-Match`. Answers the updated document plus `import_report`; with `Accept:
     * application/x-ndjson`, once the upload is read and checked, a stream of progress events ending in
     * that answer or its error (`docs/http-api.md` "Import progress").
     */
    scope.post<{ Params: DocumentParams }>(
      '/api/v1/documents/:uuid/import/',
      { onRequest: signedInFirst(sessions) },
      async (request, reply) => {
        const user = await requireUser(request, sessions);
        const id = documentIdOf(request);
        const precondition = readIfMatch(request);
        const head = permitted(await storage.documents.findHeadFor(id, user.id), 'edit');
        // A stale If-Match is refused before the file is read or converted (checked again when saving).
        assertRevision(precondition, head.revision, 'document');
        // The file's type is judged by its name before a byte of it is read (415 for an .exe).
        const upload = await readUpload(request, config.conversion.importMaxBytes, (fileName) => {
          try {
            requireImportFormat(fileName, DOCUMENT_IMPORT_FORMATS);
          } catch (error) {
            throw closingUnreadBody(conversionFailure(error));
          }
        });
        const { mode } = parseInput(importFields, { mode: upload.mode ?? 'merge' });
        const format = convertSync(() => requireImportFormat(upload.fileName, DOCUMENT_IMPORT_FORMATS));
        const job = {
          kind: 'import' as const,
          format,
          bytes: upload.bytes,
          maxUnpackedBytes: config.conversion.maxUnpackedBytes,
        };
        const options = budgeted(user.id, 'import', upload.bytes.length);
        const save = (imported: ImportResult) =>
          saveImport(
            { storage, now, user, id, precondition, mode, fileName: upload.fileName, live, contentWork },
            imported,
          );

        if (!wantsImportStream(request.headers)) {
          const imported = await convert(() => conversions.run(job, options));
          const written = await save(imported);
          setRevisionTag(reply, written.revision);
          return sendJson(reply, written.body);
        }

        const progress = new ImportProgressStream({ now, timers });
        let accepted = false;
        const converted = conversions.run(job, {
          ...options,
          onQueued: (place) => {
            accepted = true;
            progress.queued(place);
          },
          onStart: ({ timeoutMs }) => progress.converting(timeoutMs),
        });
        // Refused at once (429 too many of the user's own, 503 full): answered with its status, like JSON.
        if (!accepted) await convert(() => converted);
        void streamImport(request.log, progress, async () => {
          const imported = await convert(() => converted);
          progress.saving();
          return save(imported);
        });
        return (
          reply
            .type(`${IMPORT_STREAM_MEDIA_TYPE}; charset=utf-8`)
            .header('cache-control', 'no-store')
            // nginx and its kin pass each line on at once instead of buffering the answer.
            .header('x-accel-buffering', 'no')
            .send(progress.body)
        );
      },
    );
  });
}

/** What saving an import needs to know. */
interface ImportTarget {
  storage: FileRouteDeps['storage'];
  now: () => Date;
  user: Parameters<typeof writeDocument>[3]['actor'];
  id: string;
  precondition: ReturnType<typeof readIfMatch>;
  mode: 'merge' | 'replace';
  fileName: string;
  live: FileRouteDeps['live'];
  contentWork: ContentWork;
}

/** Merges the converted file into the document and saves it: the answer's body and the new revision. */
async function saveImport(
  target: ImportTarget,
  imported: ImportResult,
): Promise<{ revision: number; body: Buffer }> {
  const { storage, now, user, id, precondition, mode, fileName, live, contentWork } = target;
  // A live document's pending changes are derived first; the import then reaches it as a change.
  const base = await live?.beforeRest({ kind: 'document', id }, { base: true });
  // The merge runs in a worker thread on the tree as read here; the write then checks that nobody
  // changed the document meanwhile (else it merges again), so no transaction waits for a thread.
  const written = await retryStaleWrites(async () => {
    const stored = permitted(await storage.documents.findWithContentJsonFor(id, user.id), 'edit');
    assertRevision(precondition, stored.revision, 'document');
    const merged = await mergeImportOffThread(
      contentWork,
      user.id,
      stored.contentJson,
      imported.document,
      mode,
    );
    return storage.transaction(async (tx) => {
      const doc = permitted(await tx.documents.findHeadFor(id, user.id, { forUpdate: true }), 'edit');
      assertRevision(precondition, doc.revision, 'document');
      if (doc.revision !== stored.revision) throw new StaleWriteError();
      // The document as it was before the file came in is a version to go back to (docs/versions.md).
      await tx.documentVersions.keep({
        documentId: doc.id,
        kind: 'before_import',
        name: null,
        createdBy: user.id,
        at: now(),
      });
      const result = await writeDocument(
        tx,
        doc,
        { content: merged.skeleton, contentJson: merged.json },
        {
          actor: user,
          now: now(),
          event: {
            verb: 'imported',
            message: `imported ${JSON.stringify(fileName)} into the document (${mode})`,
            level: 1,
          },
        },
      );
      return { ...result, contentJson: result.contentJson ?? merged.json };
    });
  });
  // (The merged tree was built in a worker; only a live document needs it parsed here.)
  if (live)
    await live.applyRestWrite(
      { kind: 'document', id },
      JSON.parse(written.contentJson) as DocumentJson,
      base,
    );
  return {
    revision: written.document.revision,
    body: documentDetailBody(written.document, written.contentJson, written.sections, {
      import_report: imported.report,
    }),
  };
}

/**
 * Runs the rest of a streamed import and writes its last line: the result, or the error the JSON answer
 * would have carried (logged as the error handler logs it). Never rejects: the reply is already sent.
 */
async function streamImport(
  log: FastifyBaseLogger,
  progress: ImportProgressStream,
  finish: () => Promise<{ revision: number; body: Buffer }>,
): Promise<void> {
  try {
    const written = await finish();
    progress.result(`"${written.revision}"`, written.body);
  } catch (error) {
    const answer = errorAnswer(error as FastifyError, log);
    const retryAfter = Number(answer.headers?.['retry-after']);
    progress.error({
      status: answer.status,
      body: { ...answer.body },
      ...(Number.isInteger(retryAfter) && retryAfter > 0 ? { retry_after: retryAfter } : {}),
    });
  }
}
