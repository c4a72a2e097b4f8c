import * as z from 'zod';
import { InvalidInputError } from '../errors/invalid-input-error.js';

/** How a list may be sorted (`docs/http-api.md` "Lists"); `-` means newest or Z first. */
export const LIST_ORDERINGS = [
  'updated_at',
  '-updated_at',
  'created_at',
  '-created_at',
  'title',
  '-title',
] as const;

/** One of {@link LIST_ORDERINGS}. */
export type ListOrdering = (typeof LIST_ORDERINGS)[number];

/** Which page of a list to read. */
export interface ListQuery {
  /** 1-based; the server's default is 1. */
  page?: number;
  /** 1 to 100; the server's default is 20. */
  pageSize?: number;
  /** The server's default is `-updated_at` (most recently changed first). */
  ordering?: ListOrdering;
}

const listQuerySchema = z.object({
  page: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  ordering: z.enum(LIST_ORDERINGS).optional(),
});

/**
 * `{ page, pageSize, ordering }` as the server's query parameters (`page_size`).
 *
 * @throws InvalidInputError for a page below 1, a page size outside 1 to 100 or an unknown ordering.
 */
export function listParams(query: ListQuery | undefined): Record<string, string | number | undefined> {
  const parsed = listQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    throw new InvalidInputError({ issues: parsed.error.issues, subject: 'list query', cause: parsed.error });
  }
  return { page: parsed.data.page, page_size: parsed.data.pageSize, ordering: parsed.data.ordering };
}
