import { z } from 'zod';
import { isUuid } from '../db/uuid.js';

/**
 * A uuid from a URL path, lower-cased as PostgreSQL answers it; `undefined` when it is not one. Routes
 * answer their 404 for that, since no row can have such an id (and PostgreSQL's uuid cast would fail).
 */
export function uuidParam(value: unknown): string | undefined {
  return typeof value === 'string' && isUuid(value) ? value.toLowerCase() : undefined;
}

/** A uuid in a query or a body: checked like {@link uuidParam}, lower-cased; a field error otherwise. */
export const uuidField = z
  .string()
  .refine(isUuid, { message: 'Must be a UUID.' })
  .transform((value) => value.toLowerCase());
