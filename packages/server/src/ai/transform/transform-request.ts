import { z } from 'zod';
import { isUuid } from '../../db/uuid.js';
import { HttpError, parseInput } from '../../http/http-error.js';
import { TRANSFORM_ACTIONS, type TransformAction } from '../providers/ai-provider.js';

/** Limits of one transform request (SPEC TR30). */
export const TRANSFORM_TEXT_MAX_LENGTH = 100_000;
export const TRANSFORM_CUSTOM_PROMPT_MAX_LENGTH = 4_000;
export const TRANSFORM_MAX_ITEMS = 100;
export const TRANSFORM_TITLE_MAX_LENGTH = 500;
export const TRANSFORM_CONTENT_HTML_MAX_LENGTH = 200_000;

/** Spec 001 §5 and §8: the words the client shows for an empty selection. */
export const NO_TEXT_SELECTED = 'No text selected';

const uuid = (label: string) =>
  z
    .string({ error: `${label} must be a uuid.` })
    .refine(isUuid, { message: `${label} must be a uuid.` })
    .transform((value) => value.toLowerCase());

const action = z.enum(TRANSFORM_ACTIONS, {
  error: `Choose one of: ${TRANSFORM_ACTIONS.join(', ')}.`,
});

const customPrompt = z
  .string({ error: 'custom_prompt must be text.' })
  .max(TRANSFORM_CUSTOM_PROMPT_MAX_LENGTH, {
    message: `Use at most ${TRANSFORM_CUSTOM_PROMPT_MAX_LENGTH} characters.`,
  })
  .nullish()
  .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value));

const textRequestSchema = z.object({
  mode: z.literal('text').optional(),
  text: z
    .string({ error: NO_TEXT_SELECTED })
    .max(TRANSFORM_TEXT_MAX_LENGTH, { message: `Select at most ${TRANSFORM_TEXT_MAX_LENGTH} characters.` }),
  action,
  custom_prompt: customPrompt,
  document_uuid: uuid('document_uuid').nullish(),
});

const itemSchema = z.object({
  subsection_uuid: uuid('subsection_uuid'),
  include_title: z.boolean({ error: 'include_title must be true or false.' }),
  title_text: z
    .string({ error: 'title_text must be text.' })
    .max(TRANSFORM_TITLE_MAX_LENGTH, { message: `Use at most ${TRANSFORM_TITLE_MAX_LENGTH} characters.` }),
  content_html: z.string({ error: 'content_html must be text.' }).max(TRANSFORM_CONTENT_HTML_MAX_LENGTH, {
    message: `Use at most ${TRANSFORM_CONTENT_HTML_MAX_LENGTH} characters.`,
  }),
});

const structuredRequestSchema = z.object({
  mode: z.literal('structured'),
  action,
  custom_prompt: customPrompt,
  document_uuid: uuid('document_uuid').nullish(),
  items: z
    .array(itemSchema, { error: 'items must be a list.' })
    .min(1, { message: NO_TEXT_SELECTED })
    .max(TRANSFORM_MAX_ITEMS, { message: `Send at most ${TRANSFORM_MAX_ITEMS} items.` }),
});

/** One structured item as the server works with it. */
export interface TransformItemInput {
  subsectionUuid: string;
  includeTitle: boolean;
  titleText: string;
  contentHtml: string;
}

/** A validated transform request, in either mode. */
export type TransformRequest =
  | {
      mode: 'text';
      action: TransformAction;
      text: string;
      customPrompt: string | null;
      documentUuid: string | null;
    }
  | {
      mode: 'structured';
      action: TransformAction;
      items: TransformItemInput[];
      customPrompt: string | null;
      documentUuid: string | null;
    };

function noTextSelected(param: string): HttpError {
  return new HttpError(400, 'no_text_selected', NO_TEXT_SELECTED, [
    { param, code: 'required', message: NO_TEXT_SELECTED },
  ]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the body of `POST apps/ai/transform/` (SPEC TR30–TR33): structured mode when `mode` is
 * "structured", text mode otherwise. Throws a 400 {@link HttpError} naming each bad field; an empty
 * selection answers `detail: "No text selected"`.
 */
export function parseTransformRequest(body: unknown): TransformRequest {
  if (!isRecord(body)) throw new HttpError(400, 'invalid', 'The body must be a JSON object.');
  if (body.mode === 'structured') {
    const input = parseInput(structuredRequestSchema, body);
    const items = input.items.map((item) => ({
      subsectionUuid: item.subsection_uuid,
      includeTitle: item.include_title,
      titleText: item.title_text,
      contentHtml: item.content_html,
    }));
    const nothing = items.every(
      (item) => (!item.includeTitle || item.titleText.trim() === '') && !hasVisibleText(item.contentHtml),
    );
    if (nothing) throw noTextSelected('items');
    return {
      mode: 'structured',
      action: input.action,
      items,
      customPrompt: input.custom_prompt,
      documentUuid: input.document_uuid ?? null,
    };
  }
  // An empty selection is the one error the client words itself (spec 001 §5), so it comes first.
  if (
    body.text === undefined ||
    body.text === null ||
    (typeof body.text === 'string' && body.text.trim() === '')
  ) {
    throw noTextSelected('text');
  }
  const input = parseInput(textRequestSchema, body);
  return {
    mode: 'text',
    action: input.action,
    text: input.text,
    customPrompt: input.custom_prompt,
    documentUuid: input.document_uuid ?? null,
  };
}

/** Whether HTML holds any text once tags are gone (a cheap check, before any parsing). */
function hasVisibleText(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ')
      .trim() !== ''
  );
}
