import { z } from 'zod';
import { isUuid } from '../db/uuid.js';
import { optionalBody } from '../http/optional-body.js';
import { DESCRIPTION_MAX_LENGTH, longTextInput, titleInput } from '../http/text-fields.js';

/** A description as stored: bounded, tab and line breaks allowed, edges trimmed. */
export const descriptionInput = longTextInput('Description', DESCRIPTION_MAX_LENGTH);

/**
 * `POST documents/`: the blueprint to make it from, and an optional title. Without a blueprint (absent,
 * `null`, or no body at all) the document is made from the seeded default; a blueprint that is sent must
 * be a uuid.
 */
export const newDocumentInput = optionalBody(
  z.object({
    blueprint: z
      .string({ error: 'Please select a blueprint' })
      .refine(isUuid, 'Please select a blueprint')
      .transform((value) => value.toLowerCase())
      .nullish(),
    title: titleInput.nullish(),
  }),
);

/** `PATCH`/`PUT documents/{uuid}/`: any of title, description and content (normalised separately). */
export const documentPatchInput = optionalBody(
  z.object({
    title: titleInput.optional(),
    description: descriptionInput.optional(),
    content: z.unknown().optional(),
  }),
);
