import * as z from 'zod';
import { mcpUrlError } from '../blueprints/blueprint-display.js';
import type { HttpClient } from '../http/http-client.js';
import type { SectionJson } from '../model/document-json.js';
import type { BlueprintDetail } from './blueprints.js';
import type { CallOptions, WriteOptions } from './call-options.js';
import { sectionJsonWire } from './document-json-wire.js';
import type { DocumentDetail } from './documents.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { ifMatchHeaders, withEtagRevision } from './revision.js';
import {
  type Section,
  type SectionSettings,
  type Subsection,
  sectionSchema,
  subsectionSchema,
  TOOL_MODES,
  type WithRevision,
} from './section-schemas.js';
import { longTextInputSchema, SETTING_TEXT_MAX_LENGTH, titleInputSchema } from './text-fields.js';

/** Where a new section goes. Without `order` or `after` it is appended. */
export interface SectionCreateInput {
  /** `null` or left out: the server's "New Section". */
  title?: string | null;
  /** 1-based position; past the end appends. Values below 1 are left out (spec 001 §7). */
  order?: number;
  /** The uuid of the section to put it after. */
  after?: string;
}

/** Where a new subsection goes. Without `order` it is appended. */
export interface SubsectionCreateInput {
  /** Left out: the server's "New Subsection". */
  title?: string;
  /** 1-based position; values below 1 are left out (spec 001 §7 "only if above 0"). */
  order?: number;
}

/** What a section update may change; `order` moves it (1-based, clamped by the server). */
export interface SectionChanges extends Partial<SectionSettings> {
  title?: string;
  order?: number;
}

/** What a subsection update may change; `finalized` only exists on documents. */
export interface SubsectionChanges extends SectionChanges {
  finalized?: boolean;
}

/** A created section, with the whole parent as it is now (when the server sent it). */
export type CreatedSection<P> = WithRevision<Section> & {
  /** The document or blueprint after the insert, with its new content and outline; `null` if not sent. */
  parent: P | null;
};

/** A created subsection, with its section and the whole parent as they are now (when sent). */
export type CreatedSubsection<P> = WithRevision<Subsection> & {
  section: Section | null;
  parent: P | null;
};

/** The calls on the subsections of a document's or blueprint's section. */
export interface SubsectionsResource<P = DocumentDetail | BlueprintDetail> {
  /** `POST …/sections/{sid}/subsections/` */
  create(
    parentUuid: string,
    sectionUuid: string,
    input?: SubsectionCreateInput,
    options?: WriteOptions,
  ): Promise<CreatedSubsection<P>>;
  /** `GET …/sections/{sid}/subsections/{sub}/` */
  get(
    parentUuid: string,
    sectionUuid: string,
    subsectionUuid: string,
    options?: CallOptions,
  ): Promise<WithRevision<Subsection>>;
  /** `PATCH …/sections/{sid}/subsections/{sub}/` */
  update(
    parentUuid: string,
    sectionUuid: string,
    subsectionUuid: string,
    changes: SubsectionChanges,
    options?: WriteOptions,
  ): Promise<WithRevision<Subsection>>;
  /** `DELETE …/sections/{sid}/subsections/{sub}/` */
  delete(
    parentUuid: string,
    sectionUuid: string,
    subsectionUuid: string,
    options?: WriteOptions,
  ): Promise<void>;
}

/**
 * The calls on the sections of a document or blueprint (`docs/http-api.md` "Sections and subsections").
 * Every write bumps the parent's revision; answers carry it as `revision` (from the `ETag`), and `ifMatch`
 * guards a write with the parent's revision.
 */
export interface SectionsResource<P = DocumentDetail | BlueprintDetail> {
  /** `POST {res}/{uuid}/sections/` */
  create(parentUuid: string, input?: SectionCreateInput, options?: WriteOptions): Promise<CreatedSection<P>>;
  /** `GET {res}/{uuid}/sections/{sid}/`: the section with its settings and subsections. */
  get(parentUuid: string, sectionUuid: string, options?: CallOptions): Promise<WithRevision<Section>>;
  /** `PATCH {res}/{uuid}/sections/{sid}/` */
  update(
    parentUuid: string,
    sectionUuid: string,
    changes: SectionChanges,
    options?: WriteOptions,
  ): Promise<WithRevision<Section>>;
  /**
   * `PUT {res}/{uuid}/sections/{sid}/content/`: replaces that section's node in the content tree (its
   * `attrs.uuid` must be the section's).
   */
  replaceContent(
    parentUuid: string,
    sectionUuid: string,
    content: SectionJson,
    options?: WriteOptions,
  ): Promise<WithRevision<Section>>;
  /** `DELETE {res}/{uuid}/sections/{sid}/`; the only section cannot be deleted (409 `last_section`). */
  delete(parentUuid: string, sectionUuid: string, options?: WriteOptions): Promise<void>;
  readonly subsections: SubsectionsResource<P>;
}

/** Which parent the sections belong to, and how its answers are read. */
export interface SectionsParent<P> {
  /** The parent's collection path. */
  path: 'documents' | 'blueprints';
  /** Where a create answer carries the parent. */
  key: 'document' | 'blueprint';
  schema: z.ZodType<P>;
}

/** Values below 1 are left out, as spec 001 §7 says for subsections; fractions are refused. */
const orderInput = z
  .number({ error: 'Order must be a number' })
  .int('Order must be a whole number')
  .optional()
  .transform((order) => (order !== undefined && order >= 1 ? order : undefined));

const sectionCreateSchema = z.object({
  title: titleInputSchema.nullable().optional(),
  order: orderInput,
  after: z.string().min(1, 'after must be a section uuid').optional(),
});

const subsectionCreateSchema = z.object({ title: titleInputSchema.optional(), order: orderInput });

const settingsChanges = {
  title: titleInputSchema.optional(),
  order: z.number().int('Order must be a whole number').min(1, 'Order must be at least 1').optional(),
  developer_prompt: longTextInputSchema('Developer prompt', SETTING_TEXT_MAX_LENGTH).optional(),
  user_hint: longTextInputSchema('User hint', SETTING_TEXT_MAX_LENGTH).optional(),
  tool_mode: z.enum(TOOL_MODES).optional(),
  mcp_url: z.string().trim().optional(),
};

/**
 * The MCP rule can only be checked when the change names the tool mode too; otherwise the server does. As on
 * the server, MCP with an empty URL is fine: the URL may be set once it is known.
 */
function checkMcpUrl(
  changes: { tool_mode?: SectionSettings['tool_mode']; mcp_url?: string },
  ctx: z.RefinementCtx,
) {
  if (changes.tool_mode === undefined || changes.mcp_url === undefined) return;
  if (changes.tool_mode === 'mcp' && changes.mcp_url.trim() === '') return;
  const problem = mcpUrlError(changes.tool_mode, changes.mcp_url);
  if (problem !== undefined)
    ctx.addIssue({ code: 'custom', path: ['mcp_url'], message: problem, input: changes.mcp_url });
}

const sectionChangesSchema = z.object(settingsChanges).superRefine(checkMcpUrl);
const subsectionChangesSchema = z
  .object({ ...settingsChanges, finalized: z.boolean().optional() })
  .superRefine(checkMcpUrl);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses `body[key]` with `schema` (`null` when absent), reporting issues at their place in the body. */
function nested<T>(
  body: unknown,
  path: readonly string[],
  schema: z.ZodType<T>,
  ctx: z.RefinementCtx,
): T | null | undefined {
  let value: unknown = body;
  for (const key of path) value = isRecord(value) ? value[key] : undefined;
  if (value === undefined || value === null) return null;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path], input: body });
  }
  return undefined;
}

function createdSectionSchema<P>(parent: SectionsParent<P>): z.ZodType<CreatedSection<P>> {
  return z.unknown().transform((body, ctx): CreatedSection<P> => {
    const section = nested(body, [], sectionSchema, ctx);
    const owner = nested(body, [parent.key], parent.schema, ctx);
    if (!section || owner === undefined) return z.NEVER;
    return { ...section, parent: owner, revision: revisionOfParent(owner) };
  });
}

function createdSubsectionSchema<P>(parent: SectionsParent<P>): z.ZodType<CreatedSubsection<P>> {
  return z.unknown().transform((body, ctx): CreatedSubsection<P> => {
    const subsection = nested(body, [], subsectionSchema, ctx);
    const section = nested(body, ['section'], sectionSchema, ctx);
    const owner = nested(body, ['section', parent.key], parent.schema, ctx);
    if (!subsection || section === undefined || owner === undefined) return z.NEVER;
    return { ...subsection, section, parent: owner, revision: revisionOfParent(owner) };
  });
}

function revisionOfParent(parent: unknown): number | null {
  if (!isRecord(parent)) return null;
  return typeof parent.revision === 'number' ? parent.revision : null;
}

const withoutRevision = <T>(schema: z.ZodType<T>) =>
  schema.transform((value): WithRevision<T> => ({ ...value, revision: null }));

const sectionAnswer = withoutRevision(sectionSchema);
const subsectionAnswer = withoutRevision(subsectionSchema);

/** The sections resource of one kind of parent over a request helper. */
export function createSectionsResource<P>(http: HttpClient, parent: SectionsParent<P>): SectionsResource<P> {
  const sectionsPath = (parentUuid: string) =>
    `${parent.path}/${pathSegment(parentUuid, 'parentUuid')}/sections/`;
  const sectionPath = (parentUuid: string, sectionUuid: string) =>
    `${sectionsPath(parentUuid)}${pathSegment(sectionUuid, 'sectionUuid')}/`;
  const subsectionsPath = (parentUuid: string, sectionUuid: string) =>
    `${sectionPath(parentUuid, sectionUuid)}subsections/`;
  const subsectionPath = (parentUuid: string, sectionUuid: string, subsectionUuid: string) =>
    `${subsectionsPath(parentUuid, sectionUuid)}${pathSegment(subsectionUuid, 'subsectionUuid')}/`;

  const createdSection = createdSectionSchema(parent);
  const createdSubsection = createdSubsectionSchema(parent);

  return {
    create: async (parentUuid, input = {}, options = {}) => {
      const path = sectionsPath(parentUuid);
      const body = parseInput(sectionCreateSchema, input, 'section');
      const headers = ifMatchHeaders(options);
      return withEtagRevision((onHeaders) =>
        http.post(path, body, { schema: createdSection, signal: options.signal, headers, onHeaders }),
      );
    },
    get: async (parentUuid, sectionUuid, options = {}) => {
      const path = sectionPath(parentUuid, sectionUuid);
      return withEtagRevision((onHeaders) =>
        http.get(path, { schema: sectionAnswer, signal: options.signal, onHeaders }),
      );
    },
    update: async (parentUuid, sectionUuid, changes, options = {}) => {
      const path = sectionPath(parentUuid, sectionUuid);
      const body = parseInput(sectionChangesSchema, changes, 'section changes');
      const headers = ifMatchHeaders(options);
      return withEtagRevision((onHeaders) =>
        http.patch(path, body, { schema: sectionAnswer, signal: options.signal, headers, onHeaders }),
      );
    },
    replaceContent: async (parentUuid, sectionUuid, content, options = {}) => {
      const path = `${sectionPath(parentUuid, sectionUuid)}content/`;
      const body = { content: parseInput(sectionJsonWire, content, 'section content') };
      const headers = ifMatchHeaders(options);
      return withEtagRevision((onHeaders) =>
        http.put(path, body, { schema: sectionAnswer, signal: options.signal, headers, onHeaders }),
      );
    },
    delete: async (parentUuid, sectionUuid, options = {}) => {
      const path = sectionPath(parentUuid, sectionUuid);
      const headers = ifMatchHeaders(options);
      await http.delete(path, { signal: options.signal, headers });
    },
    subsections: {
      create: async (parentUuid, sectionUuid, input = {}, options = {}) => {
        const path = subsectionsPath(parentUuid, sectionUuid);
        const body = parseInput(subsectionCreateSchema, input, 'subsection');
        const headers = ifMatchHeaders(options);
        return withEtagRevision((onHeaders) =>
          http.post(path, body, { schema: createdSubsection, signal: options.signal, headers, onHeaders }),
        );
      },
      get: async (parentUuid, sectionUuid, subsectionUuid, options = {}) => {
        const path = subsectionPath(parentUuid, sectionUuid, subsectionUuid);
        return withEtagRevision((onHeaders) =>
          http.get(path, { schema: subsectionAnswer, signal: options.signal, onHeaders }),
        );
      },
      update: async (parentUuid, sectionUuid, subsectionUuid, changes, options = {}) => {
        const path = subsectionPath(parentUuid, sectionUuid, subsectionUuid);
        const body = parseInput(subsectionChangesSchema, changes, 'subsection changes');
        const headers = ifMatchHeaders(options);
        return withEtagRevision((onHeaders) =>
          http.patch(path, body, { schema: subsectionAnswer, signal: options.signal, headers, onHeaders }),
        );
      },
      delete: async (parentUuid, sectionUuid, subsectionUuid, options = {}) => {
        const path = subsectionPath(parentUuid, sectionUuid, subsectionUuid);
        const headers = ifMatchHeaders(options);
        await http.delete(path, { signal: options.signal, headers });
      },
    },
  };
}
