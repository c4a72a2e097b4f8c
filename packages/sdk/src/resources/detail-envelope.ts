import * as z from 'zod';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Spec 000 §7: a created document comes back "optionally under data". A body with no identifier of its
 * own but an object under `data` is read as that object; anything else is validated as it is.
 */
export function detailEnvelope<S extends z.ZodType>(schema: S) {
  return z.preprocess((body) => {
    if (isRecord(body) && body.uuid === undefined && body.id === undefined && isRecord(body.data)) {
      return body.data;
    }
    return body;
  }, schema);
}
