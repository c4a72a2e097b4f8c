import type { DocumentJson } from '@planwright/sdk/model';
import { outlineOf, progressOf } from '@planwright/sdk/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireRecentUser, requireUser, signedInFirst } from '../auth/require-user.js';
import { canReadBlueprint } from '../blueprints/blueprint-access.js';
import { blueprintViewerOf } from '../blueprints/blueprint-viewer.js';
import { type ContentWork, prepareLargePatch } from '../documents/content-off-thread.js';
import type { PreparedDocumentPatch } from '../documents/content-work.js';
import { permitted } from '../documents/document-access.js';
import { documentContentFromBlueprint } from '../documents/document-from-blueprint.js';
import { documentPatchInput, newDocumentInput } from '../documents/document-input.js';
import { documentDetailBody, documentDetailView, documentSummaryView } from '../documents/document-view.js';
import { writeDocument } from '../documents/write-document.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { sendJson } from '../http/json-body.js';
import { RawJsonBody } from '../http/json-body-parser.js';
import { listBody } from '../http/list-page.js';
import { parseListQuery } from '../http/list-query.js';
import { uuidParam } from '../http/uuid-param.js';
import { recordActivity } from '../structure/activity-entries.js';
import { normalizeContentInput } from '../structure/content-input.js';
import { CONTENT_BODY_LIMIT, notFound } from '../structure/not-found.js';
import { reconcileSections } from '../structure/reconcile-sections.js';
import { assertRevision, readIfMatch, setRevisionTag } from '../structure/revision.js';
import { retryStaleWrites, StaleWriteError } from '../structure/stale-write.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

type DocumentParams = { uuid: string };

const documentScopeQuery = z.object({
  scope: z
    .enum(['owned', 'shared', 'all'], { error: 'scope must be one of owned, shared, all' })
    .default('owned'),
});

function documentIdOf(request: FastifyRequest<{ Params: DocumentParams }>): string {
  const id = uuidParam(request.params.uuid);
  if (id === undefined) throw notFound('document');
  return id;
}

const unusableBlueprint = () =>
  new HttpError(400, 'invalid', 'Invalid input: blueprint', [
    { param: 'blueprint', code: 'invalid', message: 'Please select a blueprint you may use.' },
  ]);

/**
 * `documents/` (`docs/http-api.md` "Documents"): a user's own documents only; anyone else's answers 404,
 * exactly like one that never existed. Every read and write answers `revision` and `ETag`; writes honour
 * `If-Match`. Section and subsection calls are in `section-routes.ts`.
 */
export function documentRoutes(
  app: FastifyInstance,
  deps: WorkspaceRouteDeps & { contentWork: ContentWork },
): void {
  const { storage, sessions, now, contentWork, live } = deps;
  /** A live document's pending changes are derived before a call reads or writes it (src/live/SPEC.md). */
  const liveBase = async (id: string, userId: string, options: { base?: boolean } = {}) =>
    live && (await storage.documents.findHeadFor(id, userId))
      ? live.beforeRest({ kind: 'document', id }, options)
      : undefined;

  /**
   * `GET documents/[?scope=owned|shared|all]`: one page of the caller's documents (`owned`, the default),
   * those shared with them, or both, without content or settings.
   */
  app.get('/api/v1/documents/', async (request) => {
    const user = await requireUser(request, sessions);
    const query = parseListQuery(request);
    const { scope } = parseInput(documentScopeQuery, request.query ?? {});
    let { items, total } = await storage.documents.listFor(user.id, query, scope);
    // Plans someone is typing in here: their progress as typed, not as of the last derive (live SPEC LV8).
    if (live && (await live.deriveLoaded(items.map((doc) => ({ kind: 'document', id: doc.id }))))) {
      ({ items, total } = await storage.documents.listFor(user.id, query, scope));
    }
    const outlines = await storage.documents.outlinesOfMany(items.map((doc) => doc.id));
    return listBody(
      items.map((doc) => documentSummaryView(doc, outlines.get(doc.id) ?? [])),
      total,
      query,
    );
  });

  /**
   * `POST documents/` `{blueprint?, title?}`: a copy of a blueprint the caller may use (its tree, sections,
   * subsections and their settings), titled like it unless `title` says otherwise; without a blueprint,
   * of the seeded default (spec 000 §4 "Using default template"). 201.
   */
  app.post('/api/v1/documents/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const input = parseInput(newDocumentInput, request.body);
    const viewer = await blueprintViewerOf(storage, user);
    // A blueprint someone is editing live is copied as typed, not as of its last derive (src/live/SPEC.md).
    if (live && input.blueprint) {
      const source = await storage.blueprints.findById(input.blueprint);
      if (source && canReadBlueprint(source, viewer))
        await live.beforeRest({ kind: 'blueprint', id: source.id });
    }
    const created = await storage.transaction(async (tx) => {
      // Kept from being deleted until the new document (which references it) is in. The default needs
      // no lock: nobody can delete it.
      const blueprint =
        input.blueprint === null || input.blueprint === undefined
          ? await tx.blueprints.findDefault()
          : await tx.blueprints.findById(input.blueprint, { lock: 'key share' });
      if (!blueprint || !canReadBlueprint(blueprint, viewer)) throw unusableBlueprint();
      const content = documentContentFromBlueprint(blueprint.content);
      const sections = reconcileSections(
        outlineOf(content).sections,
        [],
        await tx.blueprints.sectionsOf(blueprint.id),
      );
      const progress = progressOf(content);
      const title = input.title ?? blueprint.title;
      const at = now();
      const document = await tx.documents.create(
        {
          ownerId: user.id,
          blueprintId: blueprint.id,
          blueprintVersion: blueprint.version,
          title,
          description: '',
          content,
          finalizedCount: progress.finalized,
          subsectionCount: progress.total,
          createdAt: at,
        },
        sections,
      );
      await recordActivity(
        tx,
        { ownerId: user.id, actor: user, target: 'document', objectId: document.id, targetLabel: title, at },
        [{ verb: 'created', message: `created the document ${JSON.stringify(title)}`, level: 1 }],
      );
      return { document, sections };
    });
    setRevisionTag(reply, created.document.revision);
    return reply
      .status(201)
      .send(documentDetailView({ ...created.document, role: 'owner' }, created.sections));
  });

  /** `GET documents/{uuid}/`: the document with its content (passed on as stored, unparsed) and rows. */
  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const id = documentIdOf(request);
    await liveBase(id, user.id);
    const doc = permitted(await storage.documents.findWithContentJsonFor(id, user.id), 'read');
    setRevisionTag(reply, doc.revision);
    const sections = await storage.documents.sectionsOf(doc.id);
    return sendJson(reply, documentDetailBody(doc, doc.contentJson, sections));
  });

  /**
   * `PATCH`/`PUT documents/{uuid}/`: any of `{title, description, content}` (both verbs update only what
   * is sent). Content is normalised, and the rows are rebuilt from it in the same transaction. The
   * stored tree is not read (see {@link writeDocument}); a write without one answers the stored tree
   * as JSON text, read after the write.
   */
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route<{ Params: DocumentParams }>({
      method,
      url: '/api/v1/documents/:uuid/',
      bodyLimit: CONTENT_BODY_LIMIT,
      // A large body is parsed, validated and normalised in a worker thread; a small one here.
      config: { rawLargeJson: true },
      onRequest: signedInFirst(sessions),
      handler: async (request, reply) => {
        const user = await requireUser(request, sessions);
        let body = request.body;
        let large: Awaited<ReturnType<typeof prepareLargePatch>> | undefined;
        if (body instanceof RawJsonBody) {
          large = await prepareLargePatch(contentWork, body, user.id);
          if ('parsed' in large) body = large.parsed;
        }
        const id = documentIdOf(request);
        // Validation errors come here, after the uuid's 404, whichever thread found them.
        if (large && 'refused' in large) throw large.refused;
        const input: PreparedDocumentPatch | ReturnType<typeof inlinePatch> =
          large && 'prepared' in large ? large.prepared : inlinePatch(body);
        const content =
          input.content === undefined
            ? undefined
            : 'skeleton' in input.content
              ? { content: input.content.skeleton, contentJson: input.content.json }
              : { content: input.content };
        const precondition = readIfMatch(request);
        const base = await liveBase(id, user.id, { base: true });
        const written = await retryStaleWrites(() =>
          storage.transaction(async (tx) => {
            const doc = permitted(await tx.documents.findHeadFor(id, user.id, { forUpdate: true }), 'edit');
            assertRevision(precondition, doc.revision, 'document');
            const result = await writeDocument(
              tx,
              doc,
              {
                ...(input.title !== undefined ? { title: input.title } : {}),
                ...(input.description !== undefined ? { description: input.description } : {}),
                ...content,
              },
              { actor: user, now: now() },
            );
            // Without a new tree the answer carries the stored one, read while the row is still locked.
            const contentJson = result.contentJson ?? (await tx.documents.contentJsonOf(doc.id));
            if (contentJson === undefined) throw new StaleWriteError();
            return { ...result, contentJson, role: doc.role };
          }),
        );
        // People with the plan open get the new tree as a change merged with what they type.
        // (A large tree was normalised in a worker; only a live document needs it parsed here.)
        if (live && content !== undefined) {
          const tree =
            content.contentJson !== undefined
              ? (JSON.parse(content.contentJson) as DocumentJson)
              : (content.content as DocumentJson);
          await live.applyRestWrite({ kind: 'document', id }, tree, base);
        }
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
    });
  }

  /** `DELETE documents/{uuid}/`: 204; honours `If-Match`. */
  app.delete<{ Params: DocumentParams }>('/api/v1/documents/:uuid/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const id = documentIdOf(request);
    // Deleting a plan others work in is a sensitive action: a recent sign-in, or the password again.
    if (
      (await storage.documentMembers.members(id)).length > 0 ||
      (await storage.documentMembers.grants(id)).length > 0
    ) {
      const head = await storage.documents.findHeadFor(id, user.id);
      if (head?.role === 'owner') {
        await requireRecentUser(
          request,
          sessions,
          'Deleting a plan shared with others needs your password again: confirm it, then delete.',
        );
      }
    }
    const precondition = readIfMatch(request);
    await liveBase(id, user.id);
    await retryStaleWrites(() =>
      storage.transaction(async (tx) => {
        const doc = permitted(await tx.documents.findHeadFor(id, user.id, { forUpdate: true }), 'own');
        assertRevision(precondition, doc.revision, 'document');
        if (!(await tx.documents.deleteAt(doc.id, doc.revision))) throw new StaleWriteError();
        // Everyone with it open, on every instance, is told (live SPEC LB3).
        await tx.liveStates.announce({ kind: 'document', id }, 'deleted');
        await recordActivity(
          tx,
          {
            ownerId: doc.ownerId,
            actor: user,
            target: 'document',
            objectId: doc.id,
            targetLabel: doc.title,
            at: now(),
          },
          [{ verb: 'deleted', message: `deleted the document ${JSON.stringify(doc.title)}`, level: 1 }],
        );
      }),
    );
    return reply.status(204).send();
  });
}

/** A small `PATCH documents/{uuid}/` body, validated and its content normalised on the event loop. */
function inlinePatch(body: unknown) {
  const input = parseInput(documentPatchInput, body);
  return {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.content !== undefined ? { content: normalizeContentInput(input.content) } : {}),
  };
}
