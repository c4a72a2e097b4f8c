import {
  ApiError,
  createPlanwrightClient,
  type DocumentDetail,
  InvalidInputError,
  MemoryTokenStore,
  ResponseValidationError,
  RevisionConflictError,
} from '@planwright/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readCorpusFile } from './support/corpus.js';
import { reply, useRecordingServer } from './support/recording-server.js';
import {
  BLUEPRINT_UUID,
  bodyOf,
  contentJson,
  DOC_UUID,
  documentJson,
  listJson,
  SECTION_UUID,
  SUBSECTION_UUID,
} from './support/workspace-fixtures.js';

const server = useRecordingServer((_req, res) => reply(res, 200, documentJson()));

function client() {
  return createPlanwrightClient({
    baseUrl: server.origin,
    tokenStore: new MemoryTokenStore({ token: 'tok' }),
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

const { content: _content, ...summaryJson } = documentJson();

describe('documents.list', () => {
  it('GETs documents/ with the session token and normalises the contract list', async () => {
    server.handle((_req, res) => reply(res, 200, listJson([summaryJson], 41)));
    const page = await client().documents.list();
    expect(server.last()).toMatchObject({ method: 'GET', url: '/api/v1/documents/' });
    expect(server.last().headers['x-session-token']).toBe('tok');
    expect(page.total).toBe(41);
    expect(page.items).toEqual([
      {
        uuid: DOC_UUID,
        title: 'Acme plan',
        description: '',
        status: 'in-progress',
        progress: { finalized: 3, total: 26, percent: 12 },
        blueprint: { uuid: BLUEPRINT_UUID, title: 'Business Plan' },
        blueprint_version: 1,
        revision: 4,
        sections: [
          {
            uuid: SECTION_UUID,
            blueprint_uuid: null,
            title: 'Executive Summary',
            order: 1,
            developer_prompt: '',
            user_hint: '',
            tool_mode: '',
            mcp_url: '',
            subsections: [
              {
                uuid: SUBSECTION_UUID,
                blueprint_uuid: null,
                title: 'Overview',
                order: 1,
                finalized: false,
                developer_prompt: 'Be concise.',
                user_hint: 'Say what the company does.',
                tool_mode: '',
                mcp_url: '',
              },
            ],
          },
        ],
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:05:00.000Z',
        // A server without teams says no role.
        role: null,
      },
    ]);
    expect(page.items[0]).not.toHaveProperty('content');
  });

  it('sends page, page_size and ordering, leaving out what is not given', async () => {
    server.handle((_req, res) => reply(res, 200, listJson([])));
    await client().documents.list({ page: 2, pageSize: 5, ordering: '-title' });
    await client().documents.list({ pageSize: 100 });
    await client().documents.list({});
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/documents/?page=2&page_size=5&ordering=-title',
      '/api/v1/documents/?page_size=100',
      '/api/v1/documents/',
    ]);
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageSize: 0 }, 'pageSize'],
    [{ ordering: 'title; DROP TABLE' }, 'ordering'],
  ])('refuses %j before sending anything', async (query, field) => {
    const error = await rejectionOf(client().documents.list(query as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues[0]?.path).toEqual([field]);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['a bare array', (items: unknown[]) => items],
    ['results', (items: unknown[]) => ({ results: items, count: 7 })],
    ['data without meta', (items: unknown[]) => ({ data: items })],
  ])('accepts %s, with id and name instead of uuid and title', async (_label, wrap) => {
    const item = {
      id: 17,
      name: 'Legacy plan',
      created_at: '2026-01-01T00:00:00Z',
      sections: [{ id: 5, name: 'Intro', subsections: [{ id: 6, name: 'Why', finalized: true }] }],
    };
    server.handle((_req, res) => reply(res, 200, wrap([item])));
    const page = await client().documents.list();
    expect(page.items).toEqual([
      {
        uuid: '17',
        title: 'Legacy plan',
        description: '',
        status: null,
        progress: { finalized: 1, total: 1, percent: 100 },
        blueprint: null,
        blueprint_version: null,
        revision: null,
        sections: [
          expect.objectContaining({
            uuid: '5',
            title: 'Intro',
            order: 1,
            subsections: [expect.objectContaining({ uuid: '6', title: 'Why', order: 1, finalized: true })],
          }),
        ],
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        role: null,
      },
    ]);
    expect(page.total).toBe(_label === 'results' ? 7 : 1);
  });

  it('sends scope for the plans shared with the caller, and reads each one’s role (an unknown role as null)', async () => {
    server.handle((_req, res) =>
      reply(res, 200, [
        { ...summaryJson, uuid: 'a', role: 'commenter' },
        { ...summaryJson, uuid: 'b', role: 'superuser' },
      ]),
    );
    const page = await client().documents.list({ scope: 'shared', pageSize: 5 });
    expect(page.items.map((item) => item.role)).toEqual(['commenter', null]);
    expect(server.requests[0]?.url).toContain('scope=shared');
    await expect(client().documents.list({ scope: 'everything' as 'all' })).rejects.toThrow(
      /Invalid list query/,
    );
  });

  it('prefers uuid over id and title over name', async () => {
    server.handle((_req, res) =>
      reply(res, 200, [{ ...summaryJson, uuid: 'u', id: 'i', title: 'T', name: 'N' }]),
    );
    expect((await client().documents.list()).items[0]).toMatchObject({ uuid: 'u', title: 'T' });
  });

  it('leaves sections without an identifier out of the outline (spec 001 §2)', async () => {
    server.handle((_req, res) =>
      reply(res, 200, [{ ...summaryJson, sections: [{ title: 'ghost' }, { uuid: 's2', title: 'Real' }] }]),
    );
    const [document] = (await client().documents.list()).items;
    expect(document?.sections.map((section) => [section.uuid, section.order])).toEqual([['s2', 1]]);
  });

  it('accepts a blueprint given as a bare uuid, and a missing title as ""', async () => {
    const { title: _t, name: _n, ...untitled } = summaryJson;
    server.handle((_req, res) => reply(res, 200, [{ ...untitled, blueprint: BLUEPRINT_UUID }]));
    const [document] = (await client().documents.list()).items;
    expect(document).toMatchObject({ title: '', blueprint: { uuid: BLUEPRINT_UUID, title: '' } });
  });

  it.each([
    ['no list', { detail: 'ok' }, []],
    ['an item without uuid or id', [{ title: 'x', created_at: 'now' }], [0, 'uuid']],
    ['an item without dates', [{ uuid: 'x' }], [0, 'created_at']],
    ['a title that is not text', { data: [{ ...summaryJson, title: 42 }] }, ['data', 0, 'title']],
    [
      'a negative progress',
      { data: [{ ...summaryJson, progress: { finalized: -1, total: 2 } }] },
      ['data', 0, 'progress', 'finalized'],
    ],
    [
      'an unknown tool mode',
      [{ ...summaryJson, sections: [{ uuid: 's', tool_mode: 'telepathy' }] }],
      [0, 'sections', 0, 'tool_mode'],
    ],
  ])(
    'rejects an answer with %s as a ResponseValidationError naming the place',
    async (_label, body, path) => {
      server.handle((_req, res) => reply(res, 200, body));
      const error = await rejectionOf(client().documents.list());
      expect(ResponseValidationError.isInstance(error)).toBe(true);
      expect((error as ResponseValidationError).issues[0]?.path).toEqual(path);
    },
  );
});

describe('documents.get', () => {
  it('GETs documents/{uuid}/ and returns the detail with content and revision', async () => {
    const document = await client().documents.get(DOC_UUID);
    expectTypeOf(document).toEqualTypeOf<DocumentDetail>();
    expect(server.last()).toMatchObject({ method: 'GET', url: `/api/v1/documents/${DOC_UUID}/` });
    expect(document.content).toEqual(contentJson());
    expect(document.revision).toBe(4);
    expect(document.progress).toEqual({ finalized: 3, total: 26, percent: 12 });
  });

  it('computes progress from the content when the answer has none (spec 000 §4)', async () => {
    server.handle((_req, res) =>
      reply(res, 200, documentJson({ progress: undefined, content: contentJson([true, false, true]) })),
    );
    expect((await client().documents.get(DOC_UUID)).progress).toEqual({
      finalized: 2,
      total: 3,
      percent: 67,
    });
    server.handle((_req, res) =>
      reply(res, 200, documentJson({ progress: undefined, content: contentJson([]) })),
    );
    expect((await client().documents.get(DOC_UUID)).progress).toEqual({ finalized: 0, total: 0, percent: 0 });
  });

  it('computes the percent when the server sent only counts', async () => {
    server.handle((_req, res) => reply(res, 200, documentJson({ progress: { finalized: 1, total: 3 } })));
    expect((await client().documents.get(DOC_UUID)).progress.percent).toBe(33);
  });

  it('reads the revision from the ETag when the body has none', async () => {
    for (const etag of ['"7"', 'W/"7"', '7']) {
      server.handle((_req, res) => reply(res, 200, documentJson({ revision: undefined }), { etag }));
      expect((await client().documents.get(DOC_UUID)).revision, etag).toBe(7);
    }
    server.handle((_req, res) => reply(res, 200, documentJson({ revision: undefined }), { etag: '"abc"' }));
    expect((await client().documents.get(DOC_UUID)).revision).toBeNull();
    server.handle((_req, res) => reply(res, 200, documentJson({ revision: 9 }), { etag: '"8"' }));
    expect((await client().documents.get(DOC_UUID)).revision).toBe(9);
  });

  it('gives content null when the answer has none', async () => {
    server.handle((_req, res) => reply(res, 200, documentJson({ content: null })));
    expect((await client().documents.get(DOC_UUID)).content).toBeNull();
  });

  it('refuses content that is not a doc tree', async () => {
    server.handle((_req, res) => reply(res, 200, documentJson({ content: { type: 'paragraph' } })));
    const error = await rejectionOf(client().documents.get(DOC_UUID));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(['content', 'type']);
  });

  it('rejects a 404 with an ApiError carrying the server detail', async () => {
    server.handle((_req, res) => reply(res, 404, { detail: 'Document not found.', code: 'not_found' }));
    const error = await rejectionOf(client().documents.get('missing'));
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, detail: 'Document not found.', serverCode: 'not_found' });
  });

  it('keeps every identifier inside its path segment, and refuses "", "." and ".."', async () => {
    await client().documents.get('a/b?c#d');
    await client().documents.get('..%2F');
    await client().documents.get('ü 🚀');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/documents/a%2Fb%3Fc%23d/',
      '/api/v1/documents/..%252F/',
      '/api/v1/documents/%C3%BC%20%F0%9F%9A%80/',
    ]);
    for (const bad of ['', '.', '..']) {
      const error = await rejectionOf(client().documents.get(bad));
      expect(InvalidInputError.isInstance(error), JSON.stringify(bad)).toBe(true);
    }
    expect(server.requests).toHaveLength(3);
  });

  it('never leaves documents/ whatever the identifier (the hostile strings corpus)', async () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const documents = client().documents;
    let sent = 0;
    for (const value of hostile) {
      if (value === '' || value === '.' || value === '..') continue;
      await documents.get(value);
      sent++;
      const { url } = server.last();
      expect(url.startsWith('/api/v1/documents/'), value).toBe(true);
      expect(decodeURIComponent(url.slice('/api/v1/documents/'.length, -1)), value).toBe(value);
    }
    expect(sent).toBeGreaterThan(hostile.length * 0.95);
  });
});

describe('documents.create', () => {
  it('POSTs the blueprint and a trimmed title, and returns the document (also under data)', async () => {
    server.handle((_req, res) => reply(res, 201, documentJson()));
    const created = await client().documents.create({ blueprint: BLUEPRINT_UUID, title: '  Acme plan ' });
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/documents/' });
    expect(bodyOf(server.last())).toEqual({ blueprint: BLUEPRINT_UUID, title: 'Acme plan' });
    expect(created.uuid).toBe(DOC_UUID);

    server.handle((_req, res) => reply(res, 201, { data: documentJson({ uuid: 'wrapped', id: undefined }) }));
    expect((await client().documents.create({ blueprint: BLUEPRINT_UUID })).uuid).toBe('wrapped');
    expect(bodyOf(server.last())).toEqual({ blueprint: BLUEPRINT_UUID });
  });

  it.each([
    ['no input', undefined, {}],
    ['no blueprint', {}, {}],
    ['blueprint undefined', { blueprint: undefined }, {}],
    ['blueprint null', { blueprint: null }, {}],
    ['blueprint null, with a title', { blueprint: null, title: ' Nova ' }, { title: 'Nova' }],
  ])(
    'with %s it leaves the blueprint key out, so the server uses its default',
    async (_label, input, body) => {
      server.handle((_req, res) => reply(res, 201, documentJson()));
      const created = await client().documents.create(input);
      expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/documents/' });
      expect(bodyOf(server.last())).toStrictEqual(body);
      expect(created.uuid).toBe(DOC_UUID);
    },
  );

  it('types the blueprint as optional and nullable', () => {
    expectTypeOf<Parameters<ReturnType<typeof client>['documents']['create']>[0]>().toEqualTypeOf<
      { blueprint?: string | null; title?: string } | undefined
    >();
  });

  it.each([
    [{ blueprint: '' }, 'blueprint', 'Please select a blueprint'],
    [{ blueprint: 42 }, 'blueprint', 'Please select a blueprint'],
    [{ blueprint: '   ' }, 'blueprint', 'Please select a blueprint'],
    [{ blueprint: BLUEPRINT_UUID, title: '  ' }, 'title', 'Title cannot be empty'],
    [{ blueprint: BLUEPRINT_UUID, title: 'x'.repeat(201) }, 'title', 'Title must be at most 200 characters'],
    [{ blueprint: BLUEPRINT_UUID, title: 'bell\u0007' }, 'title', 'Must not contain control characters'],
  ])('refuses %j before sending', async (input, field, message) => {
    // `as never`: the table also holds what a JavaScript caller could send against the types.
    const error = await rejectionOf(client().documents.create(input as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [field, message],
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('counts title length in characters, so 200 emoji are allowed', async () => {
    await client().documents.create({ blueprint: BLUEPRINT_UUID, title: '🚀'.repeat(200) });
    expect(bodyOf(server.last())).toEqual({ blueprint: BLUEPRINT_UUID, title: '🚀'.repeat(200) });
  });
});

describe('documents.update', () => {
  it('PATCHes only the given changes, without If-Match by default', async () => {
    await client().documents.update(DOC_UUID, { title: ' Renamed ', description: 'Line one\n\tLine two' });
    const request = server.last();
    expect(request).toMatchObject({ method: 'PATCH', url: `/api/v1/documents/${DOC_UUID}/` });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers).not.toHaveProperty('if-match');
    expect(bodyOf(request)).toEqual({ title: 'Renamed', description: 'Line one\n\tLine two' });
  });

  it('sends the content tree as it is', async () => {
    const content = contentJson([true]);
    await client().documents.update(DOC_UUID, { content: content as never });
    expect(bodyOf(server.last())).toEqual({ content });
  });

  it('sends If-Match: "<revision>" with ifMatch', async () => {
    await client().documents.update(DOC_UUID, { title: 'x' }, { ifMatch: 4 });
    expect(server.last().headers['if-match']).toBe('"4"');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses ifMatch %s before sending', async (ifMatch) => {
    const error = await rejectionOf(client().documents.update(DOC_UUID, { title: 'x' }, { ifMatch }));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('turns a 412 into a RevisionConflictError with the current revision; nothing retried', async () => {
    server.handle((_req, res) =>
      reply(res, 412, {
        detail: 'This document was changed since you loaded it.',
        code: 'revision_mismatch',
        current_revision: 6,
      }),
    );
    const error = await rejectionOf(client().documents.update(DOC_UUID, { title: 'x' }, { ifMatch: 4 }));
    expect(RevisionConflictError.isInstance(error)).toBe(true);
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'revision_conflict',
      status: 412,
      currentRevision: 6,
      isRetryable: false,
      serverCode: 'revision_mismatch',
      message: 'This document was changed since you loaded it.',
    });
    expect((error as RevisionConflictError).suggestion).toMatch(/load it again/);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a description over 5,000 characters or with control characters', async () => {
    for (const description of ['x'.repeat(5001), 'nul\u0000']) {
      const error = await rejectionOf(client().documents.update(DOC_UUID, { description }));
      expect(InvalidInputError.isInstance(error)).toBe(true);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('documents.delete', () => {
  it('DELETEs documents/{uuid}/ and resolves to undefined on 204', async () => {
    server.handle((_req, res) => reply(res, 204));
    await expect(client().documents.delete(DOC_UUID)).resolves.toBeUndefined();
    expect(server.last()).toMatchObject({ method: 'DELETE', url: `/api/v1/documents/${DOC_UUID}/` });
    expect(server.last().headers).not.toHaveProperty('if-match');
  });

  it('guards the delete with If-Match, and a 412 is a RevisionConflictError', async () => {
    server.handle((_req, res) => reply(res, 412, { detail: 'changed', current_revision: 'soon' }));
    const error = await rejectionOf(client().documents.delete(DOC_UUID, { ifMatch: 3 }));
    expect(server.last().headers['if-match']).toBe('"3"');
    expect(error).toMatchObject({ code: 'revision_conflict', currentRevision: null, message: 'changed' });
  });
});

describe('titles from the hostile strings corpus', () => {
  it('sends every title the rules accept exactly as typed (trimmed), and reads it back unchanged', async () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const documents = client().documents;
    let accepted = 0;
    for (const title of hostile) {
      server.handle((req, res) =>
        reply(res, 200, documentJson({ title: (bodyOf(req) as { title: string }).title })),
      );
      try {
        const answer = await documents.update(DOC_UUID, { title });
        expect(answer.title, JSON.stringify(title)).toBe(title.trim());
        expect(bodyOf(server.last()), JSON.stringify(title)).toEqual({ title: title.trim() });
        accepted++;
      } catch (error) {
        expect(InvalidInputError.isInstance(error), JSON.stringify(title)).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(hostile.length * 0.85);
    // About 500 round trips to a real local server: 1.5 s alone, several times that on a busy CI machine.
  }, 30_000);
});
