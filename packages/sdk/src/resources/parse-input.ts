import type * as z from 'zod';
import { InvalidInputError } from '../errors/invalid-input-error.js';

/** Parses a call's input before anything is sent, or throws the {@link InvalidInputError} naming the fields. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, subject: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new InvalidInputError({ issues: parsed.error.issues, subject, cause: parsed.error });
  return parsed.data;
}
