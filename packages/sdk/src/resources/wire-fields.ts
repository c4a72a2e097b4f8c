import * as z from 'zod';

/**
 * Field shapes the spec tolerates on the wire (spec 000 §3: "uuid (or id)", "title (or name)"), and the
 * normalisation every resource schema applies, so screens only ever read `uuid` and `title`.
 */

/** An identifier as servers send it: text, or a whole number (turned into text). */
export const wireId = z.union([z.string(), z.number().int()]).transform(String);

/** Optional text: absent and `null` become `null`. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** Text that may be left out: absent and `null` become `''`. */
export const textOrEmpty = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** The fields from which `uuid` and `title` are read. */
export const identityFields = {
  uuid: wireId.nullish(),
  id: wireId.nullish(),
  title: z.string().nullish(),
  name: z.string().nullish(),
};

/** `uuid`, else `id`; `undefined` when neither is a non-empty text. */
export function pickUuid(wire: { uuid?: string | null; id?: string | null }): string | undefined {
  if (wire.uuid) return wire.uuid;
  if (wire.id) return wire.id;
  return undefined;
}

/** `title`, else `name`, else `''` (screens show their "Untitled …" text for it). */
export function pickTitle(wire: { title?: string | null; name?: string | null }): string {
  return wire.title ?? wire.name ?? '';
}

/** Adds the "no identifier" issue to a transform's context; returns `z.NEVER` for the caller to return. */
export function missingUuid(ctx: z.RefinementCtx, input: unknown): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message: 'Expected uuid or id', path: ['uuid'], input });
  return z.NEVER;
}

/** A whole number ≥ 0 as a count or order; anything else is left to the caller's fallback. */
export const wireCount = z.number().int().nonnegative().nullish();
