import { LIST_ORDERINGS, type ListOrdering } from '@planwright/sdk';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from './http-error.js';
import { type ListPage, listPageOf, listPageQuery } from './list-page.js';

// The orderings are the SDK's, so the client and the server offer the same ones.
export type { ListOrdering };

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
