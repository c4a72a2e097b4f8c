import { z } from 'zod';

/**
 * The text rules of `docs/http-api.md` "Text fields", the same as the SDK's `resources/text-fields.ts`
 * (which is not exported yet; switch to it when it is). Counts are code points, so an emoji is one.
 */
export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 5_000;
/** Developer prompts, user hints and system prompts. */
export const PROMPT_MAX_LENGTH = 20_000;

// `\p{Cs}` with the `u` flag matches only unpaired surrogates: a pair is one code point.
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]/u;
const CONTROL_EXCEPT_LINE_BREAKS_OR_LONE_SURROGATE = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;
const CONTROL_TEXT = 'Must not contain control characters';

function characterCount(value: string): number {
  return [...value].length;
}

/** A title: trimmed, 1–200 characters, no control characters or unpaired surrogates. */
export const titleInput = z.string({ error: 'Title must be text' }).transform((value, ctx) => {
  const trimmed = value.trim();
  const problem =
    trimmed === ''
      ? 'Title cannot be empty'
      : characterCount(trimmed) > TITLE_MAX_LENGTH
        ? `Title must be at most ${TITLE_MAX_LENGTH} characters`
        : CONTROL_OR_LONE_SURROGATE.test(trimmed)
          ? CONTROL_TEXT
          : undefined;
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: problem, input: value });
    return z.NEVER;
  }
  return trimmed;
});

/**
 * A multi-line text (description, prompt): at most `max` characters, tab and line breaks allowed but no
 * other control character or unpaired surrogate; stored trimmed, like every text field.
 */
export function longTextInput(label: string, max: number) {
  return z
    .string({ error: `${label} must be text` })
    .refine(
      (value) => characterCount(value) <= max,
      `${label} must be at most ${max.toLocaleString('en')} characters`,
    )
    .refine((value) => !CONTROL_EXCEPT_LINE_BREAKS_OR_LONE_SURROGATE.test(value), CONTROL_TEXT)
    .transform((value) => value.trim());
}
