import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from './http-error.js';
import { type ListPage, listPageOf, listPageQuery } from './list-page.js';

/** How a list may be sorted (`docs/http-api.md` "Lists"); `-` means descending. */
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

/** A validated list query: which page, how big, in which order. */
export interface ListQuery extends ListPage {
  ordering: ListOrdering;
}

const listQuerySchema = listPageQuery.extend({
  ordering: z
    .enum(LIST_ORDERINGS, { error: `ordering must be one of ${LIST_ORDERINGS.join(', ')}` })
    .optional(),
});

/**
 * Reads `page` (≥ 1, default 1), `page_size` (1–100, default 20) and `ordering` (default
 * `-updated_at`) from a request's query. A value out of bounds answers 400 naming the parameter.
 */
export function parseListQuery(request: FastifyRequest): ListQuery {
  const query = parseInput(listQuerySchema, request.query ?? {});
  return { ...listPageOf(query), ordering: query.ordering ?? '-updated_at' };
}
