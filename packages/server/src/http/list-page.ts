import { z } from 'zod';

/** `docs/http-api.md` "Lists": the page size when none is asked for, and the largest allowed. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Which page of a list to answer; `page` is 1-based. */
export interface ListPage {
  page: number;
  pageSize: number;
}

/**
 * A whole number from a query string, within bounds. Only plain digits: "1e3", "+1", " 1", "1.0" and a
 * repeated parameter (which arrives as an array) are refused rather than guessed at.
 */
export function queryInteger(name: string, min: number, max: number) {
  return z
    .string({ error: `${name} must be a whole number` })
    .regex(/^[0-9]{1,16}$/, { message: `${name} must be a whole number` })
    .transform(Number)
    .refine((value) => value >= min && value <= max, {
      message:
        max === Number.MAX_SAFE_INTEGER
          ? `${name} must be at least ${min}`
          : `${name} must be between ${min} and ${max}`,
    });
}

/** The `page` and `page_size` query parameters of every list (other parameters pass through). */
export const listPageQuery = z.object({
  page: queryInteger('page', 1, Number.MAX_SAFE_INTEGER).optional(),
  page_size: queryInteger('page_size', 1, MAX_PAGE_SIZE).optional(),
});

/** The page asked for, with the defaults filled in. */
export function listPageOf(query: z.output<typeof listPageQuery>): ListPage {
  return { page: query.page ?? 1, pageSize: query.page_size ?? DEFAULT_PAGE_SIZE };
}

/** How many rows to skip for `page`; past the end is fine (the answer is an empty page). */
export function offsetOf(page: ListPage): number {
  return (page.page - 1) * page.pageSize;
}

/** The list envelope: `{data, meta: {pagination: {total, page, page_size}}}`. */
export function listBody<T>(data: readonly T[], total: number, page: ListPage) {
  return { data, meta: { pagination: { total, page: page.page, page_size: page.pageSize } } };
}
