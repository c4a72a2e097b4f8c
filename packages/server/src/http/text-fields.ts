import { longTextInputSchema, SETTING_TEXT_MAX_LENGTH, titleInputSchema } from '@planwright/sdk';

/**
 * The text rules of `docs/http-api.md` "Text fields" are the SDK's, so a client that validates before
 * sending and the server that validates on arrival can never disagree. Counts are code points.
 */
export { DESCRIPTION_MAX_LENGTH } from '@planwright/sdk';
/** Developer prompts, user hints and system prompts. */
export const PROMPT_MAX_LENGTH = SETTING_TEXT_MAX_LENGTH;

/** A title: trimmed, 1–200 characters, no control characters or unpaired surrogates. */
export const titleInput = titleInputSchema;

/**
 * A multi-line text (description, prompt): at most `max` characters, tab and line breaks allowed but no
 * other control character or unpaired surrogate; stored trimmed, like every text field.
 */
export function longTextInput(label: string, max: number) {
  return longTextInputSchema(label, max).transform((value) => value.trim());
}
