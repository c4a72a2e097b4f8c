import { versionNameSchema } from '@planwright/sdk';
import { diffDocuments, documentDiffToMarkdown } from '@planwright/sdk/formats';
import { diffToDocx } from '@planwright/sdk/formats/node';
import type { DocumentJson } from '@planwright/sdk/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { usernameOf } from '../auth/username.js';
import { type DocumentAction, permitted } from '../documents/document-access.js';
import { documentDetailBody } from '../documents/document-view.js';
import { writeDocument } from '../documents/write-document.js';
import { sendFile } from '../formats/file-answers.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { sendJson } from '../http/json-body.js';
import { listBody, listPageOf, listPageQuery } from '../http/list-page.js';
import { uuidParam } from '../http/uuid-param.js';
import type { DocumentVersionHead } from '../storage/document-version-repository.js';
import { actorLabelOf } from '../structure/activity-entries.js';
import { notFound } from '../structure/not-found.js';
import { setRevisionTag } from '../structure/revision.js';
import { retryStaleWrites, StaleWriteError } from '../structure/stale-write.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

const createInput = z.object({ name: versionNameSchema });

const versionRef = z
  .string({ error: 'Name a version (its id or name) or now' })
  .trim()
  .min(1, 'Name a version (its id or name) or now')
  .max(200, 'Name a version (its id or name) or now');
const diffQuery = z.object({
  from: versionRef,
  to: versionRef.default('now'),
  format: z.enum(['json', 'md', 'docx'], { error: 'format must be json, md or docx' }).default('json'),
});

type DocumentParams = { uuid: string };
type VersionParams = DocumentParams & { version: string };

/** A version as lists show it: who kept it and when, never its content. */
export function versionBody(version: DocumentVersionHead) {
  const author = version.author;
  return {
    id: version.id,
    name: version.name,
    kind: version.kind,
    title: version.title,
    revision: version.revision,
    progress: { finalized: version.finalizedCount, total: version.subsectionCount },
    created_by: author
      ? {
          username: usernameOf(author.email),
          first_name: author.firstName,
          last_name: author.lastName,
        }
      : null,
    created_at: version.createdAt.toISOString(),
  };
}

const versionNotFound = () =>
  new HttpError(
    404,
    'not_found',
    'Version not found: it was never kept, or was removed after its retention.',
  );

/**
 * A document's versions (docs/versions.md): everyone it is shared with lists and reads them; its owner and
 * editors name one and restore one. Restoring keeps the document as it was first, so a restore is undone by
 * restoring that version.
 */
export function documentVersionRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { storage, sessions, now, live } = deps;

  async function documentFor(request: FastifyRequest<{ Params: DocumentParams }>, action: DocumentAction) {
    const user = await requireUser(request, sessions);
    const id = uuidParam(request.params.uuid);
    if (id === undefined) throw notFound('document');
    return { user, doc: permitted(await storage.documents.findHeadFor(id, user.id), action) };
  }

  /** `GET documents/{uuid}/versions/`: newest first, paged. */
  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/versions/', async (request) => {
    const { doc } = await documentFor(request, 'read');
    const page = listPageOf(parseInput(listPageQuery, request.query));
    const { rows, total } = await storage.documentVersions.list(doc.id, page);
    return listBody(rows.map(versionBody), total, page);
  });

  /** `POST documents/{uuid}/versions/` `{name}`: keeps the document as it is now under a name (201). */
  app.post<{ Params: DocumentParams }>('/api/v1/documents/:uuid/versions/', async (request, reply) => {
    const { user, doc } = await documentFor(request, 'edit');
    const { name } = parseInput(createInput, request.body ?? {});
    // What people typed until now is in the version (derived first).
    if (live) await live.beforeRest({ kind: 'document', id: doc.id });
    const kept = await storage.documentVersions.keep({
      documentId: doc.id,
      kind: 'named',
      name,
      createdBy: user.id,
      at: now(),
    });
    if (!kept) {
      throw new HttpError(409, 'version_name_taken', `This document already has a version named “${name}”.`);
    }
    return reply.status(201).send(versionBody(kept));
  });

  /** `GET documents/{uuid}/versions/{version}/`: one version with its content; `{version}` is its id or name. */
  app.get<{ Params: VersionParams }>('/api/v1/documents/:uuid/versions/:version/', async (request) => {
    const { doc } = await documentFor(request, 'read');
    const version = await storage.documentVersions.find(doc.id, request.params.version);
    if (!version) throw versionNotFound();
    return { ...versionBody(version), content: version.content };
  });

  /**
   * `GET documents/{uuid}/diff/?from=&to=&format=`: what changed from one version to another, or to the plan as it
   * is now (`now`, the default `to`), section by section (docs/versions.md "Comparing"): JSON, Markdown with
   * `format=md`, or a Word file with tracked changes with `format=docx`.
   */
  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/diff/', async (request, reply) => {
    const { user, doc } = await documentFor(request, 'read');
    const query = parseInput(diffQuery, request.query ?? {});
    if (live && (query.from === 'now' || query.to === 'now'))
      await live.beforeRest({ kind: 'document', id: doc.id });
    const side = async (ref: string) => {
      if (ref.toLowerCase() === 'now') {
        const current = await storage.documents.findFor(doc.id, user.id);
        if (!current) throw notFound('document');
        return { label: 'now', ref: { now: true as const }, content: current.content as DocumentJson };
      }
      const version = await storage.documentVersions.find(doc.id, ref);
      if (!version) throw versionNotFound();
      const label =
        version.name !== null
          ? `“${version.name}”`
          : `the ${version.kind} version of ${version.createdAt.toISOString()}`;
      return { label, ref: versionBody(version), content: version.content as DocumentJson };
    };
    const [from, to] = await Promise.all([side(query.from), side(query.to)]);
    const diff = diffDocuments(from.content, to.content);
    if (query.format === 'docx') {
      const bytes = await diffToDocx(
        diff,
        { from: from.label, to: to.label },
        { author: actorLabelOf(user), date: now() },
      );
      return sendFile(reply, 'docx', `${doc.title} - changes`, bytes);
    }
    if (query.format === 'md') {
      return reply
        .type('text/markdown; charset=utf-8')
        .send(documentDiffToMarkdown(diff, { from: from.label, to: to.label }));
    }
    return { from: from.ref, to: to.ref, ...diff };
  });

  /**
   * `POST documents/{uuid}/versions/{version}/restore/`: the document becomes the version again (its title and
   * content), as a new change on top: the document as it was is kept first (`before_restore`), everyone with it
   * open gets the change merged with what they type, and nothing of the history is rewritten.
   */
  app.post<{ Params: VersionParams }>(
    '/api/v1/documents/:uuid/versions/:version/restore/',
    async (request, reply) => {
      const { user, doc } = await documentFor(request, 'edit');
      const version = await storage.documentVersions.find(doc.id, request.params.version);
      if (!version) throw versionNotFound();
      const base = live ? await live.beforeRest({ kind: 'document', id: doc.id }, { base: true }) : undefined;
      // The version was copied from the document's own row: a tree the document already held.
      const content = version.content as DocumentJson;
      const written = await retryStaleWrites(() =>
        storage.transaction(async (tx) => {
          const locked = permitted(
            await tx.documents.findHeadFor(doc.id, user.id, { forUpdate: true }),
            'edit',
          );
          const at = now();
          await tx.documentVersions.keep({
            documentId: locked.id,
            kind: 'before_restore',
            name: null,
            createdBy: user.id,
            at,
          });
          const result = await writeDocument(
            tx,
            locked,
            { title: version.title, content },
            {
              actor: user,
              now: at,
              event: {
                verb: 'restored a version',
                message: `restored the version ${JSON.stringify(version.name ?? version.createdAt.toISOString())}`,
                level: 1,
              },
            },
          );
          const contentJson = result.contentJson ?? (await tx.documents.contentJsonOf(locked.id));
          if (contentJson === undefined) throw new StaleWriteError();
          return { ...result, contentJson, role: locked.role };
        }),
      );
      if (live) await live.applyRestWrite({ kind: 'document', id: doc.id }, content, base);
      setRevisionTag(reply, written.document.revision);
      return sendJson(
        reply,
        documentDetailBody(
          { ...written.document, role: written.role },
          written.contentJson,
          written.sections,
        ),
      );
    },
  );
}
