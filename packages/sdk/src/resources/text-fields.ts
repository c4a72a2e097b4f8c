import * as z from 'zod';

/** `docs/http-api.md` "Text fields": a title is 1 to 200 characters after trimming. */
export const TITLE_MAX_LENGTH = 200;
/** `docs/http-api.md` "Text fields": a description holds up to 5,000 characters. */
export const DESCRIPTION_MAX_LENGTH = 5_000;
/** `docs/http-api.md` "Sections and subsections": a developer prompt or user hint holds up to 20,000. */
export const SETTING_TEXT_MAX_LENGTH = 20_000;

/** Spec 000 §5 and spec 001 §5: the one text both rename dialogs show. */
export const TITLE_REQUIRED_TEXT = 'Title cannot be empty';
/** Ours: the server's 200-character bound, said before the server has to. */
export const TITLE_TOO_LONG_TEXT = `Title must be at most ${TITLE_MAX_LENGTH} characters`;
/** Ours: what the server refuses in any text field. */
export const CONTROL_CHARACTERS_TEXT = 'Must not contain control characters';

/**
 * C0/C1 control characters and unpaired surrogates, which the server refuses in every text field
 * (`\p{Cs}` with the `u` flag matches only unpaired ones: a pair is one code point).
 */
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]/u;
/** The same, allowing tab and line breaks (descriptions and prompts have paragraphs). */
const CONTROL_EXCEPT_WHITESPACE_OR_LONE_SURROGATE = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

/** Characters as a person counts them (and as the server does): code points, so an emoji is one. */
export function characterCount(value: string): number {
  let count = 0;
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    // A high surrogate followed by a low one is one code point: skip the low half.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}

/**
 * Whether `value` holds more than `max` characters (code points), decided from its length alone when
 * that settles it: a string of n UTF-16 units holds between n/2 and n code points. So a 5 MB string
 * sent against a 5,000-character limit is refused without being walked.
 */
export function exceedsCharacters(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  return characterCount(value) > max;
}

/**
 * Why a title cannot be saved, or `undefined` when it can: empty after trimming (`Title cannot be empty`),
 * longer than 200 characters, or holding control characters. Checks the trimmed title, which is what is sent.
 */
export function titleError(title: string): string | undefined {
  const trimmed = title.trim();
  if (trimmed === '') return TITLE_REQUIRED_TEXT;
  if (exceedsCharacters(trimmed, TITLE_MAX_LENGTH)) return TITLE_TOO_LONG_TEXT;
  if (CONTROL_OR_LONE_SURROGATE.test(trimmed)) return CONTROL_CHARACTERS_TEXT;
  return undefined;
}

/** A title as sent: checked by {@link titleError}, output trimmed. */
export const titleInputSchema = z.string({ error: 'Title must be text' }).transform((value, ctx) => {
  const problem = titleError(value);
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: problem, input: value });
    return z.NEVER;
  }
  return value.trim();
});

/**
 * `20000` as `20,000`, as `toLocaleString('en')` writes it; its first call loads the platform's locale data
 * (16 ms of CPU in Node, at import, since the schemas below are built then).
 */
function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A multi-line text field as sent (description, prompts): bounded, no control characters but tab and line breaks. */
export function longTextInputSchema(label: string, max: number) {
  return (
    z
      .string({ error: `${label} must be text` })
      // Aborts: a text over the limit is not also scanned for control characters.
      .refine((value) => !exceedsCharacters(value, max), {
        message: `${label} must be at most ${groupThousands(max)} characters`,
        abort: true,
      })
      .refine((value) => !CONTROL_EXCEPT_WHITESPACE_OR_LONE_SURROGATE.test(value), CONTROL_CHARACTERS_TEXT)
  );
}
