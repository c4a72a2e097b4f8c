import * as z from 'zod';
import { versionError } from '../blueprints/blueprint-display.js';
import { BLUEPRINT_TEXTS } from '../blueprints/blueprint-texts.js';
import type { HttpClient } from '../http/http-client.js';
import type { DocumentJson } from '../model/document-json.js';
import type { CallOptions, WriteOptions } from './call-options.js';
import { detailEnvelope } from './detail-envelope.js';
import { documentJsonWire } from './document-json-wire.js';
import { type ListPage, listSchema } from './list.js';
import { type ListQuery, listParams } from './list-query.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { revisionedCall, revisionOf } from './revision.js';
import { type Section, sectionsOutlineSchema } from './section-schemas.js';
import { createSectionsResource, type SectionsResource } from './sections.js';
import { DESCRIPTION_MAX_LENGTH, longTextInputSchema, titleInputSchema } from './text-fields.js';
import {
  identityFields,
  missingUuid,
  optionalText,
  pickTitle,
  pickUuid,
  textOrEmpty,
  wireCount,
  wireId,
} from './wire-fields.js';

/** Spec 000 §3: a blueprint is a draft until published to the marketplace. */
export const BLUEPRINT_STATUSES = ['draft', 'published'] as const;
/** One of {@link BLUEPRINT_STATUSES}. */
export type BlueprintStatus = (typeof BLUEPRINT_STATUSES)[number];

/**
 * Spec 000 §6: who may see a published blueprint: everyone (`public`), members of `allowed_orgs`
 * (`restricted`), its author (`private`), or whoever has the link (`unlisted`).
 */
export const BLUEPRINT_VISIBILITIES = ['public', 'restricted', 'private', 'unlisted'] as const;
/** One of {@link BLUEPRINT_VISIBILITIES}. */
export type BlueprintVisibility = (typeof BLUEPRINT_VISIBILITIES)[number];

/** The blueprint's author as shown to others (`username` is the local part of the e-mail). */
export interface BlueprintUser {
  username: string;
  first_name: string;
  last_name: string;
}

/** A blueprint as lists show it (spec 000 §3; `docs/http-api.md` "Blueprints"), without its content. */
export interface BlueprintSummary {
  uuid: string;
  /** `''` when the server sent none. */
  title: string;
  description: string;
  status: BlueprintStatus;
  /** Whole number ≥ 1. */
  version: number;
  visibility: BlueprintVisibility;
  /** Organisation ids; only meaningful when `visibility` is `restricted`. */
  allowed_orgs: string[];
  /** ISO 8601; `null` while a draft. */
  published_at: string | null;
  system_prompt: string;
  /** How many sections it has (`sections_count`, else counted from `sections`). */
  sections_count: number;
  /** The outline (settings included when the server sent them); `[]` when not sent. */
  sections: Section[];
  /** `null` for the seeded default, which has no owner. */
  user: BlueprintUser | null;
  owner: { username: string } | null;
  /** The publisher's label; `null` means none was given (see `publisherLabel`). */
  publisher: string | null;
  /** Whether the caller owns it (and so may change or delete it). */
  is_owner: boolean;
  /**
   * Whether it is the seeded default, the preferred blueprint of spec 000 §4 (exactly one has it);
   * `false` when the server did not say (older servers: see `isPreferredBlueprint`).
   */
  is_default: boolean;
  /** The revision this answer shows, for `ifMatch`; `null` when the server sent none. */
  revision: number | null;
  created_at: string;
  updated_at: string;
}

/** A blueprint with its rich-text content. */
export interface BlueprintDetail extends BlueprintSummary {
  content: DocumentJson | null;
}

/** What a blueprint update may change (the blueprint form and editor of spec 000 §2, spec 001 §7). */
export interface BlueprintChanges {
  title?: string;
  description?: string;
  system_prompt?: string;
  content?: DocumentJson;
  status?: BlueprintStatus;
  version?: number;
  visibility?: BlueprintVisibility;
  allowed_orgs?: readonly string[];
  published_at?: string | null;
}

const userWire = z.object({
  username: textOrEmpty,
  first_name: textOrEmpty,
  last_name: textOrEmpty,
});

/** `owner` may be the object of the contract or just the username. */
const ownerWire = z.union([
  z.string().transform((username) => ({ username })),
  z.object({ username: textOrEmpty }),
]);

const blueprintWire = z.object({
  ...identityFields,
  description: textOrEmpty,
  status: z
    .enum(BLUEPRINT_STATUSES)
    .nullish()
    .transform((value) => value ?? 'draft'),
  version: z.number().int().min(1).nullish(),
  visibility: z
    .enum(BLUEPRINT_VISIBILITIES)
    .nullish()
    .transform((value) => value ?? 'private'),
  allowed_orgs: z.array(wireId).nullish(),
  published_at: optionalText,
  system_prompt: textOrEmpty,
  sections_count: wireCount,
  sections: sectionsOutlineSchema,
  user: userWire.nullish(),
  owner: ownerWire.nullish(),
  publisher: optionalText,
  is_owner: z.boolean().nullish(),
  is_default: z.boolean().nullish(),
  revision: z.unknown().optional(),
  content: documentJsonWire.nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});

type BlueprintWire = z.output<typeof blueprintWire>;

function toBlueprintDetail(wire: BlueprintWire, ctx: z.RefinementCtx): BlueprintDetail | undefined {
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
  return {
    uuid,
    title: pickTitle(wire),
    description: wire.description,
    status: wire.status,
    version: wire.version ?? 1,
    visibility: wire.visibility,
    allowed_orgs: wire.allowed_orgs ?? [],
    published_at: wire.published_at,
    system_prompt: wire.system_prompt,
    sections_count: wire.sections_count ?? wire.sections.length,
    sections: wire.sections,
    user: wire.user ?? null,
    owner: wire.owner ?? null,
    publisher: wire.publisher,
    is_owner: wire.is_owner ?? false,
    is_default: wire.is_default ?? false,
    revision: revisionOf(wire.revision),
    created_at: created,
    updated_at: wire.updated_at ?? created,
    // Checked only as far as `type: 'doc'` (see documentJsonWire).
    content: (wire.content ?? null) as DocumentJson | null,
  };
}

/** A blueprint answer with its content (`GET blueprints/{uuid}/`), normalised; also accepts it under `data`. */
export const blueprintDetailSchema: z.ZodType<BlueprintDetail> = detailEnvelope(
  blueprintWire.transform((wire, ctx): BlueprintDetail => toBlueprintDetail(wire, ctx) ?? z.NEVER),
);

/** A blueprint as a list item, normalised (any `content` sent is dropped). */
export const blueprintSummarySchema: z.ZodType<BlueprintSummary> = blueprintWire.transform(
  (wire, ctx): BlueprintSummary => {
    const detail = toBlueprintDetail(wire, ctx);
    if (detail === undefined) return z.NEVER;
    const { content: _content, ...summary } = detail;
    return summary;
  },
);

const createInputSchema = z.object({ title: titleInputSchema.optional() });

const changesSchema = z.object({
  title: titleInputSchema.optional(),
  description: longTextInputSchema('Description', DESCRIPTION_MAX_LENGTH).optional(),
  // No bound is set for the blueprint's prompt; only the characters every text field refuses.
  system_prompt: longTextInputSchema('System prompt', Number.MAX_SAFE_INTEGER).optional(),
  content: documentJsonWire.optional(),
  status: z.enum(BLUEPRINT_STATUSES).optional(),
  // The same check and words as the blueprint form (`versionError`).
  version: z
    .number({ error: BLUEPRINT_TEXTS.versionTooLow })
    .refine((version) => versionError(version) === undefined, { error: BLUEPRINT_TEXTS.versionTooLow })
    .optional(),
  visibility: z.enum(BLUEPRINT_VISIBILITIES).optional(),
  allowed_orgs: z.array(z.string().min(1)).optional(),
  published_at: z.string().nullable().optional(),
});

/** What `publish` may say besides "publish": who sees it, and the version. */
export interface BlueprintPublishInput {
  visibility?: BlueprintVisibility;
  /** The organisations of a `restricted` blueprint (ignored by the server otherwise). */
  allowed_orgs?: readonly string[];
  /**
   * The version to publish. A draft: its version by default, never lower. A published blueprint: its
   * version + 1 by default; one sent must be higher.
   */
  version?: number;
}

const publishInputSchema = changesSchema.pick({ visibility: true, allowed_orgs: true, version: true });

/** The blueprint calls (`docs/http-api.md` "Blueprints"). */
export interface BlueprintsResource {
  /** The caller's own blueprints (`GET blueprints/`). */
  list(query?: ListQuery, options?: CallOptions): Promise<ListPage<BlueprintSummary>>;
  /** What the caller may make a document from (`GET blueprints/available/`): their own and the listed ones. */
  available(query?: ListQuery, options?: CallOptions): Promise<ListPage<BlueprintSummary>>;
  /** One blueprint with its content (`GET blueprints/{uuid}/`). */
  get(uuid: string, options?: CallOptions): Promise<BlueprintDetail>;
  /** A new private draft (`POST blueprints/`), "Untitled Blueprint" unless a title is given. */
  create(input?: { title?: string }, options?: CallOptions): Promise<BlueprintDetail>;
  /**
   * Changes the blueprint (`PATCH blueprints/{uuid}/`); only its owner may. Use `blueprintPublication` for
   * the `published_at` and `allowed_orgs` that go with a status and visibility.
   */
  update(uuid: string, changes: BlueprintChanges, options?: WriteOptions): Promise<BlueprintDetail>;
  /**
   * Publishes it (`POST blueprints/{uuid}/publish/`): a draft at its version, a published blueprint as a new
   * version (its version + 1 unless a higher `version` is given); `published_at` becomes now. Documents made
   * from older versions keep their copied structure. A version that is not allowed is a 400 naming `version`.
   */
  publish(uuid: string, input?: BlueprintPublishInput, options?: WriteOptions): Promise<BlueprintDetail>;
  /** Makes it a draft again (`POST blueprints/{uuid}/unpublish/`), keeping its version. */
  unpublish(uuid: string, options?: WriteOptions): Promise<BlueprintDetail>;
  /** Deletes it (`DELETE blueprints/{uuid}/`); documents made from it keep their structure. */
  delete(uuid: string, options?: CallOptions): Promise<void>;
  /** The calls on a blueprint's sections and subsections. */
  readonly sections: SectionsResource<BlueprintDetail>;
}

/** The blueprints resource over a request helper. */
export function createBlueprintsResource(http: HttpClient): BlueprintsResource {
  const path = (uuid: string) => `blueprints/${pathSegment(uuid, 'uuid')}/`;
  const list = async (from: string, query: ListQuery | undefined, options: CallOptions) =>
    http.get(from, {
      params: listParams(query),
      schema: listSchema(blueprintSummarySchema),
      signal: options.signal,
    });

  return {
    list: (query, options = {}) => list('blueprints/', query, options),
    available: (query, options = {}) => list('blueprints/available/', query, options),
    get: async (uuid, options = {}) =>
      revisionedCall(http, { method: 'get', path: path(uuid) }, blueprintDetailSchema, {
        signal: options.signal,
      }),
    create: async (input = {}, options = {}) => {
      const body = parseInput(createInputSchema, input, 'blueprint');
      return revisionedCall(http, { method: 'post', path: 'blueprints/', body }, blueprintDetailSchema, {
        signal: options.signal,
      });
    },
    update: async (uuid, changes, options = {}) => {
      const target = path(uuid);
      const body = parseInput(changesSchema, changes, 'blueprint changes');
      return revisionedCall(http, { method: 'patch', path: target, body }, blueprintDetailSchema, options);
    },
    publish: async (uuid, input = {}, options = {}) => {
      const target = `${path(uuid)}publish/`;
      const body = parseInput(publishInputSchema, input, 'blueprint publication');
      return revisionedCall(http, { method: 'post', path: target, body }, blueprintDetailSchema, options);
    },
    unpublish: async (uuid, options = {}) => {
      const target = `${path(uuid)}unpublish/`;
      return revisionedCall(http, { method: 'post', path: target, body: {} }, blueprintDetailSchema, options);
    },
    delete: async (uuid, options = {}) => {
      await http.delete(path(uuid), { signal: options.signal });
    },
    sections: createSectionsResource(http, {
      path: 'blueprints',
      key: 'blueprint',
      schema: blueprintDetailSchema,
    }),
  };
}
