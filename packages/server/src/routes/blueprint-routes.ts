import { randomUUID } from 'node:crypto';
import {
  createDocumentContent,
  type DocumentJson,
  NEW_SECTION_TITLE,
  NEW_SUBSECTION_TITLE,
  outlineOf,
} from '@planwright/sdk/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { optionalUser } from '../auth/optional-user.js';
import { requireUser, signedInFirst } from '../auth/require-user.js';
import {
  canChangeBlueprint,
  canReadBlueprint,
  listedBlueprintsCondition,
} from '../blueprints/blueprint-access.js';
import {
  blueprintPatchInput,
  blueprintPublishInput,
  emptyBody,
  MAX_VERSION,
  newBlueprintInput,
  UNTITLED_BLUEPRINT,
} from '../blueprints/blueprint-input.js';
import { blueprintListItemView, blueprintView } from '../blueprints/blueprint-view.js';
import { blueprintViewerOf, ownsBlueprint } from '../blueprints/blueprint-viewer.js';
import { type BlueprintEdit, writeBlueprint } from '../blueprints/write-blueprint.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { listBody } from '../http/list-page.js';
import { type ListQuery, parseListQuery } from '../http/list-query.js';
import { uuidParam } from '../http/uuid-param.js';
import type { BlueprintHead, BlueprintRecord } from '../storage/blueprint-repository.js';
import type { LivePlan } from '../storage/live-state-repository.js';
import { recordActivity } from '../structure/activity-entries.js';
import { normalizeContentInput } from '../structure/content-input.js';
import { CONTENT_BODY_LIMIT, notFound } from '../structure/not-found.js';
import { reconcileSections } from '../structure/reconcile-sections.js';
import { assertRevision, readIfMatch, setRevisionTag } from '../structure/revision.js';
import { retryStaleWrites, StaleWriteError } from '../structure/stale-write.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

type BlueprintParams = { uuid: string };

function versionError(code: string, message: string): HttpError {
  return new HttpError(400, 'invalid', 'Invalid input: version', [{ param: 'version', code, message }]);
}

function blueprintIdOf(request: FastifyRequest<{ Params: BlueprintParams }>): string {
  const id = uuidParam(request.params.uuid);
  if (id === undefined) throw notFound('blueprint');
  return id;
}

/**
 * `blueprints/` (`docs/http-api.md` "Blueprints"): visibility (spec 000 §6) is enforced on every read
 * path, anonymous visitors may read `available/` and single published public or unlisted blueprints,
 * and only the owner may change or delete one; whatever the caller may not see or change answers 404.
 */
export function blueprintRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { storage, sessions, now, live } = deps;
  const livePlan = (id: string): LivePlan => ({ kind: 'blueprint', id });

  const listed = async (
    page: { items: BlueprintHead[]; total: number },
    query: ListQuery,
    viewerId: string | undefined,
  ) => {
    const outlines = await storage.blueprints.outlinesOfMany(page.items.map((bp) => bp.id));
    return listBody(
      page.items.map((bp) => blueprintListItemView(bp, outlines.get(bp.id) ?? [], viewerId)),
      page.total,
      query,
    );
  };

  /** `GET blueprints/`: one page of the caller's own blueprints, without content. */
  app.get('/api/v1/blueprints/', async (request) => {
    const user = await requireUser(request, sessions);
    const query = parseListQuery(request);
    let page = await storage.blueprints.listOwned(user.id, query);
    // Blueprints being edited here: their outline as typed, not as of the last derive (live SPEC LV8).
    if (live && (await live.deriveLoaded(page.items.map((bp) => livePlan(bp.id))))) {
      page = await storage.blueprints.listOwned(user.id, query);
    }
    return listed(page, query, user.id);
  });

  /**
   * `GET blueprints/available/`: what the caller may make a document from (their own, and the listed
   * ones of others); anonymous visitors get the published public ones.
   */
  app.get('/api/v1/blueprints/available/', async (request) => {
    const user = await optionalUser(request, sessions);
    const query = parseListQuery(request);
    const viewer = await blueprintViewerOf(storage, user);
    return listed(await storage.blueprints.list(listedBlueprintsCondition(viewer), query), query, user?.id);
  });

  /**
   * `POST blueprints/` (empty or `{title?}`): a private draft, version 1, with one section "New Section"
   * holding one subsection "New Subsection". 201.
   */
  app.post('/api/v1/blueprints/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const input = parseInput(newBlueprintInput, request.body);
    const content = createDocumentContent(
      [
        {
          uuid: randomUUID(),
          title: NEW_SECTION_TITLE,
          subsections: [{ uuid: randomUUID(), title: NEW_SUBSECTION_TITLE }],
        },
      ],
      { generateId: randomUUID },
    );
    const sections = reconcileSections(outlineOf(content).sections, []);
    const title = input.title ?? UNTITLED_BLUEPRINT;
    const created = await storage.transaction(async (tx) => {
      const at = now();
      const blueprint = await tx.blueprints.create(
        {
          ownerId: user.id,
          title,
          description: '',
          status: 'draft',
          version: 1,
          visibility: 'private',
          publishedAt: null,
          systemPrompt: '',
          publisher: null,
          content,
          createdAt: at,
        },
        sections,
      );
      await recordActivity(
        tx,
        {
          ownerId: user.id,
          actor: user,
          target: 'blueprint',
          objectId: blueprint.id,
          targetLabel: title,
          at,
        },
        [{ verb: 'created', message: `created the blueprint ${JSON.stringify(title)}`, level: 1 }],
      );
      return blueprint;
    });
    setRevisionTag(reply, created.revision);
    return reply.status(201).send(blueprintView(created, sections, user.id));
  });

  /** `GET blueprints/{uuid}/`: the blueprint, if the caller (perhaps anonymous) may see it. */
  app.get<{ Params: BlueprintParams }>('/api/v1/blueprints/:uuid/', async (request, reply) => {
    const user = await optionalUser(request, sessions);
    const id = blueprintIdOf(request);
    let bp = await storage.blueprints.findById(id);
    const viewer = await blueprintViewerOf(storage, user);
    if (!bp || !canReadBlueprint(bp, viewer)) throw notFound('blueprint');
    // A live blueprint's pending changes are derived first (src/live/SPEC.md), once the caller may see it.
    if (live) {
      await live.beforeRest(livePlan(id));
      bp = await storage.blueprints.findById(id);
      if (!bp) throw notFound('blueprint');
    }
    setRevisionTag(reply, bp.revision);
    return blueprintView(bp, await storage.blueprints.sectionsOf(bp.id), user?.id, viewer?.organizationIds);
  });

  /**
   * Every owner's write of a blueprint takes this path: read it locked, 404 unless the caller owns it, check
   * `If-Match`, then `writeBlueprint` with the edit made from what is stored; retried on a concurrent write.
   * `allowed_orgs` sent non-empty are checked against the caller's organisations.
   */
  const changeBlueprint = async (
    request: FastifyRequest<{ Params: BlueprintParams }>,
    reply: FastifyReply,
    input: { allowed_orgs?: string[] | undefined },
    editOf: (bp: BlueprintRecord) => BlueprintEdit,
  ) => {
    const user = await requireUser(request, sessions);
    const id = blueprintIdOf(request);
    const precondition = readIfMatch(request);
    const ownerOrganizationIds =
      input.allowed_orgs && input.allowed_orgs.length > 0
        ? await storage.organizations.organizationIdsOf(user.id)
        : [];
    // The live state the write is based on, derived first (the owner's only: nobody else may write).
    const base =
      live && (await ownsBlueprint(storage, user.id, id))
        ? await live.beforeRest(livePlan(id), { base: true })
        : undefined;
    let edit: BlueprintEdit = {};
    const written = await retryStaleWrites(() =>
      storage.transaction(async (tx) => {
        const bp = await tx.blueprints.findById(id, { lock: 'update' });
        if (!bp || !canChangeBlueprint(bp, { userId: user.id, organizationIds: [] }))
          throw notFound('blueprint');
        assertRevision(precondition, bp.revision, 'blueprint');
        edit = editOf(bp);
        const result = await writeBlueprint(tx, bp, edit, { actor: user, now: now(), ownerOrganizationIds });
        // Readers who may no longer see it lose their live view, on every instance (live SPEC LB3).
        const shared = (of: BlueprintRecord) => [of.status, of.visibility, ...of.allowedOrgIds].join();
        if (shared(bp) !== shared(result.blueprint)) await tx.liveStates.announce(livePlan(id), 'access');
        return result;
      }),
    );
    // People with it open get the new tree as a change merged with what they type.
    if (live && edit.content !== undefined) {
      await live.applyRestWrite(livePlan(id), written.blueprint.content as DocumentJson, base);
    }
    setRevisionTag(reply, written.blueprint.revision);
    return blueprintView(written.blueprint, written.sections, user.id);
  };

  /**
   * `PUT`/`PATCH blueprints/{uuid}/`: any of title, description, system_prompt, content, status, version,
   * visibility, allowed_orgs and published_at; owner only. `published_at` is when the current version was
   * published; a version never goes down; `allowed_orgs` is kept only while restricted and must name the
   * owner's organisations.
   */
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route<{ Params: BlueprintParams }>({
      method,
      url: '/api/v1/blueprints/:uuid/',
      bodyLimit: CONTENT_BODY_LIMIT,
      onRequest: signedInFirst(sessions),
      handler: async (request, reply) => {
        const input = parseInput(blueprintPatchInput, request.body);
        const content = input.content === undefined ? undefined : normalizeContentInput(input.content);
        return changeBlueprint(request, reply, input, () => ({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.system_prompt !== undefined ? { systemPrompt: input.system_prompt } : {}),
          ...(content !== undefined ? { content } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.version !== undefined ? { version: input.version } : {}),
          ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
          ...(input.allowed_orgs !== undefined ? { allowedOrgs: input.allowed_orgs } : {}),
          ...(input.published_at !== undefined ? { publishedAt: input.published_at } : {}),
        }));
      },
    });
  }

  /**
   * `POST blueprints/{uuid}/publish/` (empty, or any of `{visibility, allowed_orgs, version}`): a draft is
   * published at its version (or the one sent, never lower); a published blueprint is published as a new
   * version, its version + 1 unless a higher one is sent. `published_at` is now.
   */
  app.post<{ Params: BlueprintParams }>('/api/v1/blueprints/:uuid/publish/', async (request, reply) => {
    const input = parseInput(blueprintPublishInput, request.body);
    return changeBlueprint(request, reply, input, (bp) => {
      const version = input.version ?? (bp.status === 'published' ? bp.version + 1 : bp.version);
      if (bp.status === 'published' && version <= bp.version) {
        throw versionError('version_not_newer', `Publish a version above ${bp.version}.`);
      }
      if (version > MAX_VERSION) throw versionError('too_big', 'Version is too large');
      return {
        status: 'published',
        version,
        ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
        ...(input.allowed_orgs !== undefined ? { allowedOrgs: input.allowed_orgs } : {}),
      };
    });
  });

  /** `POST blueprints/{uuid}/unpublish/` (empty): back to a draft, `published_at` null, the version kept. */
  app.post<{ Params: BlueprintParams }>('/api/v1/blueprints/:uuid/unpublish/', async (request, reply) => {
    parseInput(emptyBody, request.body);
    return changeBlueprint(request, reply, {}, () => ({ status: 'draft' }));
  });

  /**
   * `DELETE blueprints/{uuid}/`: 204; owner only, never the seeded default. Documents made from it keep
   * their copied structure (their `blueprint` becomes null).
   */
  app.delete<{ Params: BlueprintParams }>('/api/v1/blueprints/:uuid/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const id = blueprintIdOf(request);
    const precondition = readIfMatch(request);
    await retryStaleWrites(() =>
      storage.transaction(async (tx) => {
        const bp = await tx.blueprints.findById(id, { lock: 'update' });
        if (!bp || bp.isDefault || !canChangeBlueprint(bp, { userId: user.id, organizationIds: [] })) {
          throw notFound('blueprint');
        }
        assertRevision(precondition, bp.revision, 'blueprint');
        if (!(await tx.blueprints.deleteAt(bp.id, bp.revision))) throw new StaleWriteError();
        await tx.liveStates.announce(livePlan(id), 'deleted');
        await recordActivity(
          tx,
          {
            ownerId: user.id,
            actor: user,
            target: 'blueprint',
            objectId: bp.id,
            targetLabel: bp.title,
            at: now(),
          },
          [{ verb: 'deleted', message: `deleted the blueprint ${JSON.stringify(bp.title)}`, level: 1 }],
        );
      }),
    );
    return reply.status(204).send();
  });
}
