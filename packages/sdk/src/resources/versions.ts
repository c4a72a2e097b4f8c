import * as z from 'zod';
import type { DocumentDiff, PartStatus, WordChange } from '../formats/document-diff.js';
import type { HttpClient } from '../http/http-client.js';
import type { DocumentJson } from '../model/document-json.js';
import { parseDocument } from '../model/normalize-document.js';
import type { CallOptions } from './call-options.js';
import { type DocumentDetail, documentDetailSchema } from './documents.js';
import { type ListPage, listSchema } from './list.js';
import { type ListQuery, listParams } from './list-query.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { revisionedCall } from './revision.js';
import { CONTROL_CHARACTERS_TEXT, exceedsCharacters } from './text-fields.js';
import { textOrEmpty, wireId } from './wire-fields.js';

/** `docs/versions.md`: a version's name is 1 to 100 characters (code points) after trimming. */
export const VERSION_NAME_MAX_LENGTH = 100;

/** Why a version was kept: named by someone, or automatically (hourly while written, before an import or a restore). */
export const VERSION_KINDS = ['named', 'hourly', 'before_import', 'before_restore'] as const;
/** One of {@link VERSION_KINDS}. */
export type VersionKind = (typeof VERSION_KINDS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A version's name as sent: trimmed, 1 to 100 characters, no control characters, neither an id nor `now`. */
export const versionNameSchema = z
  .string({ error: 'Name must be text' })
  .trim()
  .min(1, 'Name cannot be empty')
  .refine((name) => !exceedsCharacters(name, VERSION_NAME_MAX_LENGTH), {
    message: `Name must be at most ${VERSION_NAME_MAX_LENGTH} characters`,
  })
  .refine((name) => !/[\p{Cc}\p{Cs}]/u.test(name), CONTROL_CHARACTERS_TEXT)
  .refine((name) => !UUID.test(name) && name.toLowerCase() !== 'now', 'Name cannot be an id or "now"');

/** A version of a document, as its history lists it. */
export interface DocumentVersion {
  id: string;
  /** What people called it; `null` for an automatic version. */
  name: string | null;
  kind: VersionKind;
  /** The document's title then. */
  title: string;
  /** The document's revision it copies. */
  revision: number;
  progress: { finalized: number; total: number };
  /** Who kept it (`null` once their account is gone). */
  created_by: { username: string; first_name: string; last_name: string } | null;
  created_at: string;
}

/** A version with the document's content as it was. */
export interface DocumentVersionDetail extends DocumentVersion {
  content: DocumentJson;
}

const versionFields = {
  id: wireId,
  name: z
    .string()
    .nullish()
    .transform((value) => value ?? null),
  kind: z.enum(VERSION_KINDS),
  title: textOrEmpty,
  revision: z.number().int(),
  progress: z.object({ finalized: z.number().int(), total: z.number().int() }),
  created_by: z
    .object({ username: textOrEmpty, first_name: textOrEmpty, last_name: textOrEmpty })
    .nullish()
    .transform((value) => value ?? null),
  created_at: z.string(),
};

/** A version as answered. */
export const documentVersionSchema: z.ZodType<DocumentVersion> = z.object(versionFields);

const versionDetailSchema: z.ZodType<DocumentVersionDetail> = z.object({
  ...versionFields,
  content: z.unknown().transform((content) => parseDocument(content)),
});

/** One side of a comparison: a version, or the plan as it is now. */
export type DiffSide = DocumentVersion | { now: true };

/** What changed from one side to the other (`GET documents/{uuid}/diff/`), as `diffDocuments` (`@planwright/sdk/formats`) tells it. */
export interface VersionDiff extends DocumentDiff {
  from: DiffSide;
  to: DiffSide;
}

const partStatus: z.ZodType<PartStatus> = z.enum(['added', 'removed', 'changed', 'unchanged']);
const wordChange: z.ZodType<WordChange> = z.object({
  kind: z.enum(['same', 'added', 'removed']),
  text: z.string(),
});
const titles = z.object({ from: z.string().nullable(), to: z.string().nullable() });
const subsectionDiff = z.object({
  uuid: z.string(),
  status: partStatus,
  title: titles,
  renamed: z.boolean(),
  moved: z.boolean(),
  finalized: z.object({ from: z.boolean().nullable(), to: z.boolean().nullable() }),
  words: z.array(wordChange).nullable(),
});
const diffSide: z.ZodType<DiffSide> = z.union([z.object({ now: z.literal(true) }), documentVersionSchema]);
const versionDiffSchema: z.ZodType<VersionDiff> = z.object({
  from: diffSide,
  to: diffSide,
  sections: z.array(
    z.object({
      uuid: z.string(),
      status: partStatus,
      title: titles,
      renamed: z.boolean(),
      moved: z.boolean(),
      words: z.array(wordChange).nullable(),
      subsections: z.array(subsectionDiff),
    }),
  ),
  summary: z.object({
    added: z.number().int(),
    removed: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
  }),
});

/** Which two sides to compare: versions by id or name, or `now` (the default `to`). */
export interface DiffQuery {
  from: string;
  to?: string;
}

const diffQuerySchema = z.object({
  from: z.string().trim().min(1, 'Name the version to compare from (its id or name, or now)'),
  to: z.string().trim().min(1).optional(),
});

/**
 * A document's versions (docs/versions.md). Everyone the document is shared with lists and reads them; its
 * owner and editors name and restore them (anyone else: 404 `not_permitted`). `version` is a version's id or
 * its name (case aside).
 */
export interface VersionsResource {
  /** `GET documents/{uuid}/versions/`: newest first, paged. */
  list(
    documentUuid: string,
    query?: Pick<ListQuery, 'page' | 'pageSize'>,
    options?: CallOptions,
  ): Promise<ListPage<DocumentVersion>>;
  /** `POST documents/{uuid}/versions/`: keeps the document as it is now under `name` (409 `version_name_taken`). */
  create(documentUuid: string, input: { name: string }, options?: CallOptions): Promise<DocumentVersion>;
  /** `GET documents/{uuid}/versions/{version}/`: one version with its content. */
  get(documentUuid: string, version: string, options?: CallOptions): Promise<DocumentVersionDetail>;
  /**
   * `POST documents/{uuid}/versions/{version}/restore/`: the document becomes the version again, as a new
   * change (the document as it was is kept first, as a `before_restore` version). Answers the document.
   */
  restore(documentUuid: string, version: string, options?: CallOptions): Promise<DocumentDetail>;
  /**
   * `GET documents/{uuid}/diff/?from=&to=`: what changed from `from` to `to` (versions by id or name, or `now`,
   * the default `to`), section by section and word by word. A version of another plan is a 404.
   */
  diff(documentUuid: string, query: DiffQuery, options?: CallOptions): Promise<VersionDiff>;
  /** The same comparison as Markdown, additions as `{++…++}` and removals as `{--…--}` (`format=md`). */
  diffMarkdown(documentUuid: string, query: DiffQuery, options?: CallOptions): Promise<string>;
  /** The same comparison as a Word file with tracked changes, `w:ins` and `w:del` (`format=docx`). */
  diffDocx(documentUuid: string, query: DiffQuery, options?: CallOptions): Promise<Uint8Array>;
}

/** The versions resource over a request helper. */
export function createVersionsResource(http: HttpClient): VersionsResource {
  const versionsPath = (uuid: string) => `documents/${pathSegment(uuid, 'uuid')}/versions/`;
  const versionPath = (uuid: string, version: string) =>
    `${versionsPath(uuid)}${pathSegment(version, 'version')}/`;
  /** The comparison as a file the server writes. */
  const diffFile = async (uuid: string, query: DiffQuery, format: 'md' | 'docx', options: CallOptions) =>
    (await http.get(`documents/${pathSegment(uuid, 'uuid')}/diff/`, {
      params: { ...parseInput(diffQuerySchema, query, 'comparison'), format },
      responseType: 'bytes',
      signal: options.signal,
    })) as Uint8Array;
  return {
    list: async (uuid, query, options = {}) =>
      http.get(versionsPath(uuid), {
        params: listParams(query),
        schema: listSchema(documentVersionSchema),
        signal: options.signal,
      }),
    create: async (uuid, input, options = {}) =>
      http.post(versionsPath(uuid), parseInput(z.object({ name: versionNameSchema }), input, 'version'), {
        schema: documentVersionSchema,
        signal: options.signal,
      }),
    get: async (uuid, version, options = {}) =>
      http.get(versionPath(uuid, version), { schema: versionDetailSchema, signal: options.signal }),
    diff: async (uuid, query, options = {}) =>
      http.get(`documents/${pathSegment(uuid, 'uuid')}/diff/`, {
        params: parseInput(diffQuerySchema, query, 'comparison'),
        schema: versionDiffSchema,
        signal: options.signal,
      }),
    diffMarkdown: async (uuid, query, options = {}) =>
      new TextDecoder().decode(await diffFile(uuid, query, 'md', options)),
    diffDocx: (uuid, query, options = {}) => diffFile(uuid, query, 'docx', options),
    restore: async (uuid, version, options = {}) =>
      revisionedCall(
        http,
        { method: 'post', path: `${versionPath(uuid, version)}restore/`, body: {} },
        documentDetailSchema,
        { signal: options.signal },
      ),
  };
}
