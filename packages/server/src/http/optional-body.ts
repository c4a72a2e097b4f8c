import type { z } from 'zod';

/**
 * A body schema whose fields are all optional, reading an absent or `null` body as `{}` (a PATCH
 * without a body changes nothing; `POST blueprints/` is sent empty by the specified client).
 */
export function optionalBody<S extends z.ZodObject>(schema: S) {
  return schema.nullish().transform((value): z.output<S> => value ?? ({} as z.output<S>));
}
