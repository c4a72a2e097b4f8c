import type { Zod } from './parse-command-input.js';

/**
 * A document's or blueprint's uuid as typed. Only what cannot name anything is refused here (the
 * server answers 404 for the rest): blank, and `.` or `..`, which would change the request's path.
 */
export function identifierSchema(z: Zod, what: string) {
  return z
    .string()
    .trim()
    .min(1, `expected the ${what}'s uuid`)
    .refine((value) => value !== '.' && value !== '..', `is not a ${what} uuid`);
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
