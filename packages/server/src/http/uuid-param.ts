import { isUuid } from '../db/uuid.js';

/**
 * A uuid from a URL path, lower-cased as PostgreSQL answers it; `undefined` when it is not one. Routes
 * answer their 404 for that, since no row can have such an id (and PostgreSQL's uuid cast would fail).
 */
export function uuidParam(value: unknown): string | undefined {
  return typeof value === 'string' && isUuid(value) ? value.toLowerCase() : undefined;
}
