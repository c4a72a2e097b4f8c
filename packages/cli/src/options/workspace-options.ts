import type { Zod } from './parse-command-input.js';

/** The shape of every id the server hands out (8-4-4-4-12 hex digits), the pattern its routes check. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` (already trimmed) has the shape of a server id (case-insensitive). */
export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/**
 * A document's, blueprint's or organisation's uuid as typed. Anything that is not a uuid is refused here
 * as a usage error naming the value: the server would answer "not found" for it, which reads as if the
 * document had gone, not as a typo.
 */
export function identifierSchema(z: Zod, what: string) {
  return (
    z
      .string()
      .trim()
      .min(1, `expected the ${what}'s uuid`)
      .refine((value) => UUID_PATTERN.test(value), {
        error: (issue) =>
          `"${String(issue.input)}" is not ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} uuid (expected 8-4-4-4-12 hex digits, like 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c)`,
      })
      // Lower case, as the server stores and answers them, so reports name the uuid the server does.
      .transform((value) => value.toLowerCase())
  );
}

/** A 1-based number given as text (`--page 2`); the list calls bound page sizes at 100. */
export function positiveIntegerSchema(z: Zod, max?: number) {
  const number = z.number().int().min(1, 'must be at least 1');
  return z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(max === undefined ? number : number.max(max, `must be at most ${max}`));
}
