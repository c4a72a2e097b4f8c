import { createHttpClient, listSchema, normalizeList, ResponseValidationError } from '@planwright/sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type RecordingServer, reply, startRecordingServer } from './support/recording-server.js';

const documentSchema = z.object({ uuid: z.string(), title: z.string() });
const a = { uuid: 'a', title: 'A' };
const b = { uuid: 'b', title: 'B' };

function failureOf(run: () => unknown): ResponseValidationError {
  try {
    run();
  } catch (error) {
    if (ResponseValidationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ResponseValidationError');
}

describe('normalizeList', () => {
  it('accepts a bare array; the total is its length', () => {
    expect(normalizeList([a, b])).toEqual({ items: [a, b], total: 2 });
    expect(normalizeList([])).toEqual({ items: [], total: 0 });
  });

  it('accepts { results } and { data }', () => {
    expect(normalizeList({ results: [a] })).toEqual({ items: [a], total: 1 });
    expect(normalizeList({ data: [a, b] })).toEqual({ items: [a, b], total: 2 });
  });

  it('prefers results when both keys hold arrays (the order of spec 000 §3)', () => {
    expect(normalizeList({ results: [a], data: [a, b] }).items).toEqual([a]);
  });

  it('takes the total from meta.pagination.total, else count, else the items', () => {
    expect(
      normalizeList({ data: [a], meta: { pagination: { total: 41, page: 1, page_size: 1 } }, count: 7 })
        .total,
    ).toBe(41);
    expect(normalizeList({ results: [a], count: 7 }).total).toBe(7);
    expect(normalizeList({ results: [a, b], meta: {} }).total).toBe(2);
  });

  it('ignores totals that are not whole non-negative numbers', () => {
    for (const bad of ['41', -1, 1.5, null, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(normalizeList({ data: [a, b], meta: { pagination: { total: bad } }, count: bad }).total).toBe(2);
    }
    expect(normalizeList({ data: [a], meta: { pagination: { total: '9' } }, count: 3 }).total).toBe(3);
  });

  it('validates every item against the schema and types the result', () => {
    const page = normalizeList({ data: [{ ...a, extra: 1 }, b] }, documentSchema);
    expectTypeOf(page.items).toEqualTypeOf<Array<{ uuid: string; title: string }>>();
    expect(page.items).toEqual([a, b]);
  });

  it('points item issues at their place in the body', () => {
    const failure = failureOf(() => normalizeList({ data: [a, { uuid: 3, title: 'C' }] }, documentSchema));
    expect(failure.issues.map((issue) => issue.path)).toEqual([['data', 1, 'uuid']]);
    const bare = failureOf(() => normalizeList([{ uuid: 'x' }], documentSchema));
    expect(bare.issues.map((issue) => issue.path)).toEqual([[0, 'title']]);
  });

  it.each([
    ['null', null],
    ['a string', 'documents'],
    ['an object without a list', { data: { results: [] } }],
    ['an object with results: null', { results: null }],
  ])('refuses %s', (_label, body) => {
    const failure = failureOf(() => normalizeList(body));
    expect(failure.code).toBe('invalid_response');
    expect(failure.data).toBe(body);
    expect(failure.message).toBe(
      'Unexpected response: Expected a list: an array, or an object with results or data',
    );
  });
});

describe('listSchema as a call schema', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await startRecordingServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('normalises the answer of a real call', async () => {
    server.handle((_req, res) => reply(res, 200, { data: [a, b], meta: { pagination: { total: 12 } } }));
    const page = await createHttpClient({ baseUrl: server.origin }).get('documents/', {
      schema: listSchema(documentSchema),
    });
    expectTypeOf(page).toEqualTypeOf<{ items: Array<{ uuid: string; title: string }>; total: number }>();
    expect(page).toEqual({ items: [a, b], total: 12 });
  });

  it('names the request when the answer is no list', async () => {
    server.handle((_req, res) => reply(res, 200, { detail: 'ok' }));
    const call = createHttpClient({ baseUrl: server.origin }).get('blueprints/', {
      schema: listSchema(documentSchema),
    });
    await expect(call).rejects.toSatisfy(ResponseValidationError.isInstance);
    await expect(call).rejects.toMatchObject({ method: 'GET', url: `${server.origin}/api/v1/blueprints/` });
  });
});
