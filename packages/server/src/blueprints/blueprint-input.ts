import { z } from 'zod';
import { isUuid } from '../db/uuid.js';
import { descriptionInput } from '../documents/document-input.js';
import { optionalBody } from '../http/optional-body.js';
import { longTextInput, PROMPT_MAX_LENGTH, titleInput } from '../http/text-fields.js';

/** Spec 000 §6: who may see a published blueprint. */
export const BLUEPRINT_VISIBILITIES = ['public', 'restricted', 'private', 'unlisted'] as const;
/** Spec 000 §3. */
export const BLUEPRINT_STATUSES = ['draft', 'published'] as const;
/** The title of a blueprint made without one (`docs/http-api.md` "Blueprints"). */
export const UNTITLED_BLUEPRINT = 'Untitled Blueprint';

/** The highest version a blueprint can have: PostgreSQL's integer (a bigger one would fail the column). */
export const MAX_VERSION = 2_147_483_647;
// Far more organisations than anyone belongs to; bounds the work a single request can ask for.
const MAX_ALLOWED_ORGS = 100;

/** A call that takes no fields (`POST blueprints/{uuid}/unpublish/`): empty, or `{}`. */
export const emptyBody = optionalBody(z.object({}));

/** `POST blueprints/`: empty, or `{title?}`. */
export const newBlueprintInput = optionalBody(z.object({ title: titleInput.nullish() }));

/** The fields a blueprint write may send. */
const blueprintFields = z.object({
  title: titleInput.optional(),
  description: descriptionInput.optional(),
  system_prompt: longTextInput('System prompt', PROMPT_MAX_LENGTH).optional(),
  content: z.unknown().optional(),
  status: z.enum(BLUEPRINT_STATUSES, { error: 'status must be "draft" or "published"' }).optional(),
  version: z
    .number({ error: 'Version must be a whole number of at least 1' })
    .int('Version must be a whole number of at least 1')
    .min(1, 'Version must be a whole number of at least 1')
    .max(MAX_VERSION, 'Version is too large')
    .optional(),
  visibility: z
    .enum(BLUEPRINT_VISIBILITIES, { error: 'visibility must be public, restricted, private or unlisted' })
    .optional(),
  // The specified client sends `[]` unless restricted; null is read the same way.
  allowed_orgs: z
    .array(z.string(), { error: 'allowed_orgs must be a list of organisation ids' })
    .max(MAX_ALLOWED_ORGS, `allowed_orgs may name at most ${MAX_ALLOWED_ORGS} organisations`)
    .refine((ids) => ids.every(isUuid), 'allowed_orgs must be a list of organisation ids')
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
    .nullish()
    .transform((ids) => (ids === null ? [] : ids)),
  published_at: z.iso
    .datetime({ offset: true, error: 'published_at must be an ISO 8601 date-time' })
    .transform((value) => new Date(value))
    .nullish(),
});

/** `PUT`/`PATCH blueprints/{uuid}/`: any of these; `content` is normalised separately. */
export const blueprintPatchInput = optionalBody(blueprintFields);

/** `POST blueprints/{uuid}/publish/`: empty, or any of `{visibility, allowed_orgs, version}`. */
export const blueprintPublishInput = optionalBody(
  blueprintFields.pick({ visibility: true, allowed_orgs: true, version: true }),
);

/** A parsed blueprint write body. */
export type BlueprintPatchInput = z.output<typeof blueprintPatchInput>;
