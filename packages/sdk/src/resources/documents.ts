import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { DocumentJson } from '../model/document-json.js';
import { type DocumentProgress, progressOf, progressPercent } from '../model/progress.js';
import type { CallOptions, WriteOptions } from './call-options.js';
import { detailEnvelope } from './detail-envelope.js';
import { createDocumentFileCalls, type DocumentFileCalls } from './document-files.js';
import { documentJsonWire } from './document-json-wire.js';
import { type ListPage, listSchema } from './list.js';
import { type ListOrdering, type ListQuery, listParams } from './list-query.js';
import { PLAN_ROLES, type PlanRole } from './members.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { ifMatchHeaders, revisionedCall, revisionOf } from './revision.js';
import { type Section, sectionsOutlineSchema } from './section-schemas.js';
import { createSectionsResource, type SectionsResource } from './sections.js';
import { DESCRIPTION_MAX_LENGTH, longTextInputSchema, titleInputSchema } from './text-fields.js';
import { identityFields, missingUuid, pickTitle, pickUuid, textOrEmpty, wireCount } from './wire-fields.js';

/** How the documents list may be sorted. */
export type DocumentOrdering = ListOrdering;

/** Which documents a list holds: the caller's own, those shared with them, or both. */
export const DOCUMENT_SCOPES = ['owned', 'shared', 'all'] as const;
/** One of {@link DOCUMENT_SCOPES}. */
export type DocumentScope = (typeof DOCUMENT_SCOPES)[number];

/** A page of the documents list, and which documents it holds (`owned` by default). */
export interface DocumentListQuery extends ListQuery {
  scope?: DocumentScope;
}

const scopeSchema = z.enum(DOCUMENT_SCOPES).optional();

/** The blueprint a document was made from. */
export interface DocumentBlueprint {
  uuid: string;
  title: string;
}

/** A document as lists show it (spec 000 §3; `docs/http-api.md` "Documents"), without its content. */
export interface DocumentSummary {
  uuid: string;
  /** `''` when the server sent none (shown as "Untitled Document"). */
  title: string;
  /** `''` when there is none. */
  description: string;
  /** `completed`, `in-progress`, or whatever the server said; `null` when it said nothing. */
  status: string | null;
  progress: DocumentProgress;
  /** `null` when the blueprint was deleted (or the server did not say). */
  blueprint: DocumentBlueprint | null;
  /** The blueprint's version when the document was made from it; `null` when unknown. */
  blueprint_version: number | null;
  /** The revision this answer shows, for `ifMatch`; `null` when the server sent none. */
  revision: number | null;
  /** The outline: sections with their subsections (settings included when the server sent them). */
  sections: Section[];
  /** ISO 8601 date-time. */
  created_at: string;
  /** ISO 8601 date-time; the creation time when the server gave no update time. */
  updated_at: string;
  /**
   * The caller's role on it (`owner`, `editor`, `commenter`, `viewer`; docs/teams.md); `null` when the server
   * did not say (servers without teams: the caller owns every document they see).
   */
  role: PlanRole | null;
}

/** A document with its rich-text content. */
export interface DocumentDetail extends DocumentSummary {
  /** The rich-text tree; `null` when the answer had none. */
  content: DocumentJson | null;
}

/** Progress from counts: `percent` is `finalized / total` as a whole percent, 0 when `total` is 0. */
export function progressFromCounts(finalized: number, total: number): DocumentProgress {
  return { finalized, total, percent: progressPercent(finalized, total) };
}

/** The progress the outline tells, for answers that carry neither `progress` nor `content`. */
function progressOfSections(sections: readonly Section[]): DocumentProgress {
  const subsections = sections.flatMap((section) => section.subsections);
  return progressFromCounts(
    subsections.filter((subsection) => subsection.finalized).length,
    subsections.length,
  );
}

const progressWire = z.object({
  finalized: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  percent: z.number().min(0).max(100).nullish(),
});

const blueprintRefWire = z.union([
  z.string().transform((uuid): DocumentBlueprint => ({ uuid, title: '' })),
  z.object(identityFields).transform((wire, ctx): DocumentBlueprint => {
    const uuid = pickUuid(wire);
    return uuid === undefined ? missingUuid(ctx, wire) : { uuid, title: pickTitle(wire) };
  }),
]);

const documentWire = z.object({
  ...identityFields,
  description: textOrEmpty,
  status: z.string().nullish(),
  progress: progressWire.nullish(),
  blueprint: blueprintRefWire.nullish(),
  // Tolerant: anything but a whole number of at least 1 reads as unknown.
  blueprint_version: z.unknown().optional(),
  revision: z.unknown().optional(),
  sections: sectionsOutlineSchema,
  content: documentJsonWire.nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  // A role this SDK does not know reads as unknown rather than failing the whole answer.
  role: z.enum(PLAN_ROLES).nullish().catch(null),
  // Counts some servers send instead of `progress`.
  finalized_count: wireCount,
  subsection_count: wireCount,
});

type DocumentWire = z.output<typeof documentWire>;

/** The normalised document, or `undefined` after adding the issue that says why there is none. */
function toDocumentDetail(wire: DocumentWire, ctx: z.RefinementCtx): DocumentDetail | undefined {
  const uuid = pickUuid(wire);
  if (uuid === undefined) {
    missingUuid(ctx, wire);
    return undefined;
  }
  const created = wire.created_at ?? wire.updated_at;
  if (created === null || created === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'Expected created_at or updated_at',
      path: ['created_at'],
      input: wire,
    });
    return undefined;
  }
  // Checked only as far as `type: 'doc'` (see documentJsonWire); the tree's nodes are the model's business.
  const content = (wire.content ?? null) as DocumentJson | null;
  return {
    uuid,
    title: pickTitle(wire),
    description: wire.description,
    status: wire.status ?? null,
    progress: progressOfAnswer(wire, content),
    blueprint: wire.blueprint ?? null,
    blueprint_version: revisionOf(wire.blueprint_version),
    revision: revisionOf(wire.revision),
    sections: wire.sections,
    created_at: created,
    updated_at: wire.updated_at ?? created,
    role: wire.role ?? null,
    content,
  };
}

/** The server's `progress` when sent, else its counts, else counted from the content, else from the outline. */
function progressOfAnswer(wire: DocumentWire, content: DocumentJson | null): DocumentProgress {
  if (wire.progress) {
    const { finalized, total, percent } = wire.progress;
    const counted = progressFromCounts(finalized, total);
    return percent === null || percent === undefined ? counted : { ...counted, percent: Math.round(percent) };
  }
  if (typeof wire.finalized_count === 'number' && typeof wire.subsection_count === 'number') {
    return progressFromCounts(wire.finalized_count, wire.subsection_count);
  }
  if (content) return progressOf(content);
  return progressOfSections(wire.sections);
}

/** A document answer with its content (`GET documents/{uuid}/`), normalised; also accepts it under `data`. */
export const documentDetailSchema: z.ZodType<DocumentDetail> = detailEnvelope(
  documentWire.transform((wire, ctx): DocumentDetail => toDocumentDetail(wire, ctx) ?? z.NEVER),
);

/** A document as a list item, normalised (any `content` sent is dropped). */
export const documentSummarySchema: z.ZodType<DocumentSummary> = documentWire.transform(
  (wire, ctx): DocumentSummary => {
    const detail = toDocumentDetail(wire, ctx);
    if (detail === undefined) return z.NEVER;
    const { content: _content, ...summary } = detail;
    return summary;
  },
);

/** What a new document is made from. */
export interface DocumentCreateInput {
  /**
   * The blueprint's uuid (one of `client.blueprints.available()`); left out or `null`, the server's
   * default blueprint (spec 000 §4 "Using default template").
   */
  blueprint?: string | null;
  /** Defaults to the blueprint's title. */
  title?: string;
}

/** What a document update may change. */
export interface DocumentChanges {
  title?: string;
  description?: string;
  /** The whole rich-text tree; the server rebuilds sections and subsections from it. */
  content?: DocumentJson;
}

// No blueprint goes on the wire as no key at all: one shape for "the server's default".
const createInputSchema = z
  .object({
    blueprint: z
      .string({ error: 'Please select a blueprint' })
      .trim()
      .min(1, 'Please select a blueprint')
      .nullish(),
    title: titleInputSchema.optional(),
  })
  .transform(({ blueprint, title }) => ({
    ...(blueprint === null || blueprint === undefined ? {} : { blueprint }),
    ...(title === undefined ? {} : { title }),
  }));

const changesSchema = z.object({
  title: titleInputSchema.optional(),
  description: longTextInputSchema('Description', DESCRIPTION_MAX_LENGTH).optional(),
  content: documentJsonWire.optional(),
});

/** The documents calls (`docs/http-api.md` "Documents"), with export and import. */
export interface DocumentsResource extends DocumentFileCalls {
  /**
   * The caller's documents, one page at a time (`GET documents/`): their own (the default), those shared
   * with them (`scope: 'shared'`), or both (`'all'`); each says the caller's `role`.
   */
  list(query?: DocumentListQuery, options?: CallOptions): Promise<ListPage<DocumentSummary>>;
  /** One document with its content (`GET documents/{uuid}/`); a 404 is an `ApiError` with status 404. */
  get(uuid: string, options?: CallOptions): Promise<DocumentDetail>;
  /**
   * Makes a document from a blueprint (`POST documents/`): its sections, settings and content are copied.
   * Without `blueprint` the server uses its default blueprint.
   */
  create(input?: DocumentCreateInput, options?: CallOptions): Promise<DocumentDetail>;
  /**
   * Changes the title, description or content (`PATCH documents/{uuid}/`). With `ifMatch` it is refused
   * with a `RevisionConflictError` when the document changed since that revision.
   */
  update(uuid: string, changes: DocumentChanges, options?: WriteOptions): Promise<DocumentDetail>;
  /** Deletes the document (`DELETE documents/{uuid}/`), guarded by `ifMatch` like {@link update}. */
  delete(uuid: string, options?: WriteOptions): Promise<void>;
  /** The calls on a document's sections and subsections. */
  readonly sections: SectionsResource<DocumentDetail>;
}

/** The documents resource over a request helper. */
export function createDocumentsResource(http: HttpClient): DocumentsResource {
  const path = (uuid: string) => `documents/${pathSegment(uuid, 'uuid')}/`;

  return {
    ...createDocumentFileCalls(http, documentDetailSchema),
    list: async (query, options = {}) =>
      http.get('documents/', {
        params: { ...listParams(query), scope: parseInput(scopeSchema, query?.scope, 'list query') },
        schema: listSchema(documentSummarySchema),
        signal: options.signal,
      }),
    get: async (uuid, options = {}) =>
      revisionedCall(http, { method: 'get', path: path(uuid) }, documentDetailSchema, {
        signal: options.signal,
      }),
    create: async (input = {}, options = {}) => {
      const body = parseInput(createInputSchema, input, 'document');
      return revisionedCall(http, { method: 'post', path: 'documents/', body }, documentDetailSchema, {
        signal: options.signal,
      });
    },
    update: async (uuid, changes, options = {}) => {
      const target = path(uuid);
      const body = parseInput(changesSchema, changes, 'document changes');
      return revisionedCall(http, { method: 'patch', path: target, body }, documentDetailSchema, options);
    },
    delete: async (uuid, options = {}) => {
      const target = path(uuid);
      const headers = ifMatchHeaders(options);
      await http.delete(target, { signal: options.signal, headers });
    },
    sections: createSectionsResource(http, {
      path: 'documents',
      key: 'document',
      schema: documentDetailSchema,
    }),
  };
}
