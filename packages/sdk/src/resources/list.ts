import * as z from 'zod';
import { ResponseValidationError } from '../errors/response-validation-error.js';

/** One page of a list answer, whatever shape the server used. */
export interface ListPage<T> {
  items: T[];
  /** The total across all pages: `meta.pagination.total`, else `count`, else `items.length`. */
  total: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asTotal(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Spec 000 §3: a bare array, `{ results: [...] }` or `{ data: [...] }`; the key the items sit under. */
function locateItems(body: unknown): { items: unknown[]; key: 'results' | 'data' | undefined } | undefined {
  if (Array.isArray(body)) return { items: body, key: undefined };
  if (!isRecord(body)) return undefined;
  if (Array.isArray(body.results)) return { items: body.results, key: 'results' };
  if (Array.isArray(body.data)) return { items: body.data, key: 'data' };
  return undefined;
}

function totalOf(body: unknown, itemCount: number): number {
  if (!isRecord(body)) return itemCount;
  const meta = isRecord(body.meta) ? body.meta : undefined;
  const pagination = isRecord(meta?.pagination) ? meta.pagination : undefined;
  return asTotal(pagination?.total) ?? asTotal(body.count) ?? itemCount;
}

/**
 * A zod schema that accepts every list shape of spec 000 §3 and turns it into a {@link ListPage}. Pass it
 * as a call's `schema` so a bad answer names the request it came from:
 *
 * @example
 * const { items, total } = await http.get('documents/', { schema: listSchema(documentSchema) });
 */
export function listSchema<S extends z.ZodType>(itemSchema: S): z.ZodType<ListPage<z.output<S>>> {
  const itemsSchema = z.array(itemSchema);
  return z.unknown().transform((body, ctx): ListPage<z.output<S>> => {
    const located = locateItems(body);
    if (!located) {
      ctx.addIssue({
        code: 'custom',
        message: 'Expected a list: an array, or an object with results or data',
      });
      return z.NEVER;
    }
    const parsed = itemsSchema.safeParse(located.items);
    if (!parsed.success) {
      // Paths point into the body as received (`data.3.title`), not into the extracted array.
      const prefix = located.key === undefined ? [] : [located.key];
      for (const issue of parsed.error.issues) {
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: [...prefix, ...issue.path],
          input: body,
        });
      }
      return z.NEVER;
    }
    return { items: parsed.data, total: totalOf(body, parsed.data.length) };
  });
}

const anyItems = listSchema(z.unknown());

/**
 * Normalises a list answer already in hand (spec 000 §3); with `itemSchema`, every item is validated.
 * Throws {@link ResponseValidationError} when the body is no list or an item fails.
 */
export function normalizeList(body: unknown): ListPage<unknown>;
export function normalizeList<S extends z.ZodType>(body: unknown, itemSchema: S): ListPage<z.output<S>>;
export function normalizeList(body: unknown, itemSchema?: z.ZodType): ListPage<unknown> {
  const result = (itemSchema ? listSchema(itemSchema) : anyItems).safeParse(body);
  if (!result.success)
    throw new ResponseValidationError({ issues: result.error.issues, data: body, cause: result.error });
  return result.data;
}
