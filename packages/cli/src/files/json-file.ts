import type * as z from 'zod';

/** What is wrong with a JSON file's text, in words that fit after "the … file <path>". */
export type JsonFileCheck<T> =
  | { ok: true; data: T }
  | { ok: false; problem: 'syntax'; reason: string; cause: unknown }
  | { ok: false; problem: 'schema'; reason: string; path: string[]; cause: unknown };

/**
 * Parses a JSON file's text and validates it with `schema`. Failures say what is wrong in one line:
 * `is not valid JSON (…)`, or `is invalid: sessions.x.token: …` with the path of the first issue.
 */
export function parseJsonFile<Schema extends z.ZodType>(
  text: string,
  schema: Schema,
): JsonFileCheck<z.output<Schema>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: 'syntax',
      reason: `is not valid JSON (${(error as Error).message})`,
      cause: error,
    };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).map(String);
  const where = path.length > 0 ? `${path.join('.')}: ` : '';
  return {
    ok: false,
    problem: 'schema',
    reason: `is invalid: ${where}${issue?.message ?? 'unexpected content'}`,
    path,
    cause: parsed.error,
  };
}
