import { randomUUID } from 'node:crypto';
import {
  type DocumentJson,
  deleteSection,
  deleteSubsection,
  insertSectionAfter,
  insertSubsection,
  moveSectionTo,
  moveSubsectionTo,
  renameSection,
  renameSubsection,
  replaceSectionContent,
  type StructureResult,
  setSubsectionFinalized,
} from '@planwright/sdk/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { signedInFirst } from '../auth/require-user.js';
import type { SessionService } from '../auth/session-service.js';
import { blueprintSectionHost } from '../blueprints/blueprint-section-host.js';
import { documentSectionHost } from '../documents/document-section-host.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { uuidParam } from '../http/uuid-param.js';
import { assertStorableContent, invalidContentAt } from '../structure/content-input.js';
import { CONTENT_BODY_LIMIT, notFound } from '../structure/not-found.js';
import type { SettingsOverrides } from '../structure/reconcile-sections.js';
import { setRevisionTag } from '../structure/revision.js';
import type { SectionEdit, SectionHost, SectionParent } from '../structure/section-host.js';
import {
  applySettingsPatch,
  newSectionInput,
  newSubsectionInput,
  type SettingsPatch,
  sectionPatchInput,
  subsectionPatchInput,
  touchesSettings,
} from '../structure/section-input.js';
import { type SectionRow, type SubsectionRow, settingsOf } from '../structure/section-rows.js';
import { type ParentKind, sectionView, subsectionView } from '../structure/section-view.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

type SectionParams = { uuid: string; sid: string };
type SubsectionParams = SectionParams & { sub: string };

const sectionContentInput = z.object({
  content: z.custom<unknown>((value) => value !== undefined, 'content is required'),
});

function fieldError(param: string, code: string, message: string): HttpError {
  return new HttpError(400, 'invalid', `Invalid input: ${param}`, [{ param, code, message }]);
}

/** The tree a structure command answered, or the HTTP refusal for why it could not. */
function applied(result: StructureResult, part: 'section' | 'subsection', kind: ParentKind): DocumentJson {
  if (result.ok) return result.doc;
  switch (result.reason) {
    case 'not_found':
      throw notFound(part);
    case 'last_section':
      throw new HttpError(409, 'last_section', `A ${kind} keeps at least one section.`);
    case 'uuid_mismatch':
      throw fieldError(
        'content.attrs.uuid',
        'uuid_mismatch',
        "The section node's uuid names another section.",
      );
    case 'duplicate_uuid':
      throw fieldError(
        'content',
        'duplicate_uuid',
        'A subsection uuid in this section is used elsewhere in the tree.',
      );
    case 'invalid_content':
      // The model's path starts at the one-section tree it normalised (`content[0]…`): the body's `content`.
      throw invalidContentAt(
        'content',
        (result.error?.path ?? '').replace(/^content\[0\]\.?/, ''),
        result.error?.problem ?? result.message,
      );
    default:
      throw fieldError('order', result.reason, result.message);
  }
}

function sectionIn(parent: SectionParent, sid: string): SectionRow {
  const section = parent.sections.find((row) => row.uuid === sid);
  if (!section) throw notFound('section');
  return section;
}

function subsectionIn(
  parent: SectionParent,
  sid: string,
  sub: string,
): { section: SectionRow; subsection: SubsectionRow } {
  const section = sectionIn(parent, sid);
  const subsection = section.subsections.find((row) => row.uuid === sub);
  if (!subsection) throw notFound('subsection');
  return { section, subsection };
}

function settingsEdit(
  uuid: string,
  row: SectionRow | SubsectionRow,
  patch: SettingsPatch,
): SettingsOverrides | undefined {
  return touchesSettings(patch) ? new Map([[uuid, applySettingsPatch(settingsOf(row), patch)]]) : undefined;
}

/**
 * The section and subsection calls of `docs/http-api.md` under one parent kind. Every write applies a
 * model command to the stored tree and hands it to the parent's one write path (`host.write`), which
 * rebuilds the rows from the tree in the same transaction and answers the parent's new `ETag`.
 */
function registerSectionRoutes(app: FastifyInstance, host: SectionHost, sessions: SessionService): void {
  const base = `/api/v1/${host.kind}s/:uuid/sections`;
  const parentIdOf = (request: FastifyRequest<{ Params: { uuid: string } }>) => {
    const id = uuidParam(request.params.uuid);
    if (id === undefined) throw notFound(host.kind);
    return id;
  };
  const sectionIdOf = (request: FastifyRequest<{ Params: SectionParams }>) => {
    const sid = uuidParam(request.params.sid);
    if (sid === undefined) throw notFound('section');
    return sid;
  };
  const subsectionIdOf = (request: FastifyRequest<{ Params: SubsectionParams }>) => {
    const sub = uuidParam(request.params.sub);
    if (sub === undefined) throw notFound('subsection');
    return sub;
  };
  const answer = (reply: FastifyReply, revision: number, status: number, body: unknown) => {
    setRevisionTag(reply, revision);
    return reply.status(status).send(body);
  };

  /** `POST {res}/{uuid}/sections/`: a new section at `order`, else after `after`, else last. */
  app.post<{ Params: { uuid: string } }>(`${base}/`, async (request, reply) => {
    const id = parentIdOf(request);
    const input = parseInput(newSectionInput, request.body);
    const written = await host.write(request, id, (parent) => {
      const inserted = insertSectionAfter(
        parent.content,
        input.order == null ? (input.after ?? null) : null,
        {
          title: input.title ?? null,
          generateId: randomUUID,
        },
      );
      if (!inserted.ok && inserted.reason === 'not_found') {
        throw fieldError('after', 'not_found', `after must name a section of this ${host.kind}`);
      }
      let content = applied(inserted, 'section', host.kind);
      if (inserted.ok && input.order != null)
        content = applied(moveSectionTo(content, inserted.uuid, input.order), 'section', host.kind);
      return { edit: { content }, result: inserted.ok ? inserted.uuid : '' };
    });
    const section = sectionIn(written.parent, written.result);
    return answer(reply, written.parent.revision, 201, {
      ...sectionView(section, host.kind),
      [host.kind]: written.detail,
    });
  });

  /** `GET {res}/{uuid}/sections/{sid}/`: the section with its settings and subsections. */
  app.get<{ Params: SectionParams }>(`${base}/:sid/`, async (request, reply) => {
    const id = parentIdOf(request);
    const sid = sectionIdOf(request);
    const parent = await host.read(request, id);
    return answer(reply, parent.revision, 200, sectionView(sectionIn(parent, sid), host.kind));
  });

  /** `PATCH`/`PUT {res}/{uuid}/sections/{sid}/`: title (renames the heading), order (moves it), settings. */
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route<{ Params: SectionParams }>({
      method,
      url: `${base}/:sid/`,
      handler: async (request, reply) => {
        const id = parentIdOf(request);
        const sid = sectionIdOf(request);
        const input = parseInput(sectionPatchInput, request.body ?? {});
        const written = await host.write(request, id, (parent) => {
          const row = sectionIn(parent, sid);
          let content = parent.content;
          if (input.title !== undefined)
            content = applied(renameSection(content, sid, input.title), 'section', host.kind);
          if (input.order !== undefined)
            content = applied(moveSectionTo(content, sid, input.order), 'section', host.kind);
          const settings = settingsEdit(sid, row, input);
          const edit: SectionEdit = { content, ...(settings ? { settings } : {}) };
          return { edit, result: undefined };
        });
        return answer(
          reply,
          written.parent.revision,
          200,
          sectionView(sectionIn(written.parent, sid), host.kind),
        );
      },
    });
  }

  /** `PUT {res}/{uuid}/sections/{sid}/content/`: replaces the section's node in the tree (same uuid). */
  app.put<{ Params: SectionParams }>(
    `${base}/:sid/content/`,
    // Both hosts write only for a signed-in user: checked before the body is read.
    { bodyLimit: CONTENT_BODY_LIMIT, onRequest: signedInFirst(sessions) },
    async (request, reply) => {
      const id = parentIdOf(request);
      const sid = sectionIdOf(request);
      const input = parseInput(sectionContentInput, request.body);
      const written = await host.write(request, id, (parent) => {
        sectionIn(parent, sid);
        const content = applied(
          replaceSectionContent(parent.content, sid, input.content, { generateId: randomUUID }),
          'section',
          host.kind,
        );
        assertStorableContent(content);
        return { edit: { content }, result: undefined };
      });
      return answer(
        reply,
        written.parent.revision,
        200,
        sectionView(sectionIn(written.parent, sid), host.kind),
      );
    },
  );

  /** `DELETE {res}/{uuid}/sections/{sid}/`: 204; 409 `last_section` for the only one. */
  app.delete<{ Params: SectionParams }>(`${base}/:sid/`, async (request, reply) => {
    const id = parentIdOf(request);
    const sid = sectionIdOf(request);
    const written = await host.write(request, id, (parent) => {
      sectionIn(parent, sid);
      return {
        edit: { content: applied(deleteSection(parent.content, sid), 'section', host.kind) },
        result: undefined,
      };
    });
    return answer(reply, written.parent.revision, 204, undefined);
  });

  /** `POST …/sections/{sid}/subsections/`: a new subsection at `order`, else last. */
  app.post<{ Params: SectionParams }>(`${base}/:sid/subsections/`, async (request, reply) => {
    const id = parentIdOf(request);
    const sid = sectionIdOf(request);
    const input = parseInput(newSubsectionInput, request.body);
    const written = await host.write(request, id, (parent) => {
      sectionIn(parent, sid);
      const inserted = insertSubsection(parent.content, sid, {
        title: input.title ?? null,
        order: input.order ?? null,
        generateId: randomUUID,
      });
      return {
        edit: { content: applied(inserted, 'section', host.kind) },
        result: inserted.ok ? inserted.uuid : '',
      };
    });
    const { section, subsection } = subsectionIn(written.parent, sid, written.result);
    return answer(reply, written.parent.revision, 201, {
      ...subsectionView(subsection, host.kind),
      section: { ...sectionView(section, host.kind), [host.kind]: written.detail },
    });
  });

  /** `GET …/subsections/{sub}/`: the subsection with its settings. */
  app.get<{ Params: SubsectionParams }>(`${base}/:sid/subsections/:sub/`, async (request, reply) => {
    const id = parentIdOf(request);
    const sid = sectionIdOf(request);
    const sub = subsectionIdOf(request);
    const parent = await host.read(request, id);
    return answer(
      reply,
      parent.revision,
      200,
      subsectionView(subsectionIn(parent, sid, sub).subsection, host.kind),
    );
  });

  /** `PATCH`/`PUT …/subsections/{sub}/`: title, order (within its section), `finalized` (documents), settings. */
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route<{ Params: SubsectionParams }>({
      method,
      url: `${base}/:sid/subsections/:sub/`,
      handler: async (request, reply) => {
        const id = parentIdOf(request);
        const sid = sectionIdOf(request);
        const sub = subsectionIdOf(request);
        const input = parseInput(subsectionPatchInput, request.body ?? {});
        if (input.finalized !== undefined && host.kind === 'blueprint') {
          throw fieldError('finalized', 'invalid', 'Blueprint subsections cannot be finalized.');
        }
        const written = await host.write(request, id, (parent) => {
          const { subsection } = subsectionIn(parent, sid, sub);
          let content = parent.content;
          if (input.title !== undefined)
            content = applied(renameSubsection(content, sub, input.title), 'subsection', host.kind);
          if (input.order !== undefined)
            content = applied(moveSubsectionTo(content, sub, input.order), 'subsection', host.kind);
          if (input.finalized !== undefined) {
            content = applied(setSubsectionFinalized(content, sub, input.finalized), 'subsection', host.kind);
          }
          const settings = settingsEdit(sub, subsection, input);
          const edit: SectionEdit = { content, ...(settings ? { settings } : {}) };
          return { edit, result: undefined };
        });
        return answer(
          reply,
          written.parent.revision,
          200,
          subsectionView(subsectionIn(written.parent, sid, sub).subsection, host.kind),
        );
      },
    });
  }

  /** `DELETE …/subsections/{sub}/`: 204. */
  app.delete<{ Params: SubsectionParams }>(`${base}/:sid/subsections/:sub/`, async (request, reply) => {
    const id = parentIdOf(request);
    const sid = sectionIdOf(request);
    const sub = subsectionIdOf(request);
    const written = await host.write(request, id, (parent) => {
      subsectionIn(parent, sid, sub);
      return {
        edit: { content: applied(deleteSubsection(parent.content, sub), 'subsection', host.kind) },
        result: undefined,
      };
    });
    return answer(reply, written.parent.revision, 204, undefined);
  });
}

/** The section and subsection calls under `documents/{uuid}/` and `blueprints/{uuid}/`. */
export function sectionRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  registerSectionRoutes(app, documentSectionHost(deps), deps.sessions);
  registerSectionRoutes(app, blueprintSectionHost(deps), deps.sessions);
}
