import {
  ApiError,
  type BlueprintDetail,
  createPlanwrightClient,
  InvalidInputError,
  ResponseValidationError,
  RevisionConflictError,
} from '@planwright/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readCorpusFile } from './support/corpus.js';
import { reply, useRecordingServer } from './support/recording-server.js';
import {
  BLUEPRINT_UUID,
  blueprintJson,
  bodyOf,
  contentJson,
  listJson,
} from './support/workspace-fixtures.js';

const server = useRecordingServer((_req, res) => reply(res, 200, blueprintJson()));
const client = () => createPlanwrightClient({ baseUrl: server.origin });

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

const { content: _content, ...summaryJson } = blueprintJson();

describe('blueprints.list and available', () => {
  it('GETs blueprints/ and blueprints/available/ with the list query', async () => {
    server.handle((_req, res) => reply(res, 200, listJson([summaryJson], 3)));
    const own = await client().blueprints.list({ page: 1, pageSize: 10, ordering: 'title' });
    const available = await client().blueprints.available();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/blueprints/?page=1&page_size=10&ordering=title',
      'GET /api/v1/blueprints/available/',
    ]);
    expect(own.total).toBe(3);
    expect(available.items).toEqual([
      {
        uuid: BLUEPRINT_UUID,
        title: 'Business Plan',
        description: 'The classic plan.',
        status: 'published',
        version: 1,
        visibility: 'public',
        allowed_orgs: [],
        published_at: '2026-11-01T00:00:00.000Z',
        system_prompt: 'You help founders.',
        sections_count: 9,
        sections: [
          expect.objectContaining({
            title: 'Executive Summary',
            subsections: [expect.objectContaining({ title: 'Overview', finalized: false })],
          }),
        ],
        user: null,
        owner: null,
        publisher: 'Planwright Studio',
        is_owner: false,
        is_default: true,
        revision: 1,
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-02T00:00:00.000Z',
      },
    ]);
    expect(available.items[0]).not.toHaveProperty('content');
  });

  it('tolerates id, name, a bare array, results, an owner given as a username and missing fields', async () => {
    const legacy = {
      id: 12,
      name: 'Lean Canvas',
      owner: 'ada',
      allowed_orgs: [3, 'org-4'],
      created_at: '2026-01-01T00:00:00Z',
      sections: [{ uuid: 's1' }, { uuid: 's2' }],
    };
    for (const body of [[legacy], { results: [legacy] }, { data: [legacy] }]) {
      server.handle((_req, res) => reply(res, 200, body));
      const [blueprint] = (await client().blueprints.available()).items;
      expect(blueprint).toMatchObject({
        uuid: '12',
        title: 'Lean Canvas',
        description: '',
        status: 'draft',
        version: 1,
        visibility: 'private',
        allowed_orgs: ['3', 'org-4'],
        published_at: null,
        sections_count: 2,
        user: null,
        owner: { username: 'ada' },
        publisher: null,
        is_owner: false,
        is_default: false,
        revision: null,
        updated_at: '2026-01-01T00:00:00Z',
      });
    }
  });

  it('reads is_default as sent, and a missing or null one as false', async () => {
    const flags = [true, false, null, undefined].map((is_default) => ({ ...summaryJson, is_default }));
    server.handle((_req, res) => reply(res, 200, listJson(flags)));
    const { items } = await client().blueprints.available();
    expect(items.map((blueprint) => blueprint.is_default)).toEqual([true, false, false, false]);
  });

  it.each([
    ['an is_default that is not a boolean', { is_default: 'yes' }, ['data', 0, 'is_default']],
    ['an unknown status', { status: 'archived' }, ['data', 0, 'status']],
    ['a version of 0', { version: 0 }, ['data', 0, 'version']],
    ['an unknown visibility', { visibility: 'friends' }, ['data', 0, 'visibility']],
    ['no identifier', { uuid: undefined, id: undefined }, ['data', 0, 'uuid']],
  ])('rejects an item with %s', async (_label, overrides, path) => {
    server.handle((_req, res) => reply(res, 200, listJson([{ ...summaryJson, ...overrides }])));
    const error = await rejectionOf(client().blueprints.list());
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(path);
  });
});

describe('blueprints.get, create, update, delete', () => {
  it('GETs one blueprint with content; the revision falls back to the ETag', async () => {
    const blueprint = await client().blueprints.get(BLUEPRINT_UUID);
    expectTypeOf(blueprint).toEqualTypeOf<BlueprintDetail>();
    expect(server.last()).toMatchObject({ method: 'GET', url: `/api/v1/blueprints/${BLUEPRINT_UUID}/` });
    expect(blueprint.content).toEqual(contentJson([false]));
    server.handle((_req, res) => reply(res, 200, blueprintJson({ revision: undefined }), { etag: 'W/"12"' }));
    expect((await client().blueprints.get(BLUEPRINT_UUID)).revision).toBe(12);
  });

  it('POSTs blueprints/ with an empty object, or a trimmed title', async () => {
    server.handle((_req, res) => reply(res, 201, blueprintJson({ title: 'Untitled Blueprint' })));
    expect((await client().blueprints.create()).title).toBe('Untitled Blueprint');
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/blueprints/' });
    expect(bodyOf(server.last())).toEqual({});
    await client().blueprints.create({ title: ' Lean ' });
    expect(bodyOf(server.last())).toEqual({ title: 'Lean' });
  });

  it('PATCHes the changes, with If-Match when given', async () => {
    await client().blueprints.update(
      BLUEPRINT_UUID,
      {
        title: 'Renamed',
        status: 'published',
        version: 2,
        visibility: 'restricted',
        allowed_orgs: ['org-1'],
        published_at: '2026-11-22T10:00:00.000Z',
        system_prompt: 'Line\nbreaks are fine',
      },
      { ifMatch: 5 },
    );
    const request = server.last();
    expect(request).toMatchObject({ method: 'PATCH', url: `/api/v1/blueprints/${BLUEPRINT_UUID}/` });
    expect(request.headers['if-match']).toBe('"5"');
    expect(bodyOf(request)).toEqual({
      title: 'Renamed',
      status: 'published',
      version: 2,
      visibility: 'restricted',
      allowed_orgs: ['org-1'],
      published_at: '2026-11-22T10:00:00.000Z',
      system_prompt: 'Line\nbreaks are fine',
    });
  });

  it.each([
    [{ title: '' }, 'title'],
    [{ version: 0 }, 'version'],
    [{ version: 1.5 }, 'version'],
    [{ status: 'archived' }, 'status'],
    [{ visibility: 'friends' }, 'visibility'],
    [{ system_prompt: 'esc\u001b[2J' }, 'system_prompt'],
  ])('refuses %j before sending', async (changes, field) => {
    const error = await rejectionOf(client().blueprints.update(BLUEPRINT_UUID, changes as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues[0]?.path).toEqual([field]);
    expect(server.requests).toHaveLength(0);
  });

  it('publishes (POST …/publish/ with the input, If-Match, the answer’s revision) and unpublishes', async () => {
    server.handle((_req, res) =>
      reply(res, 200, blueprintJson({ version: 3, visibility: 'restricted', revision: undefined }), {
        etag: '"9"',
      }),
    );
    const published = await client().blueprints.publish(
      BLUEPRINT_UUID,
      { visibility: 'restricted', allowed_orgs: ['org-1'], version: 3 },
      { ifMatch: 8 },
    );
    expect(published).toMatchObject({ version: 3, visibility: 'restricted', revision: 9 });
    expect(server.last()).toMatchObject({
      method: 'POST',
      url: `/api/v1/blueprints/${BLUEPRINT_UUID}/publish/`,
    });
    expect(server.last().headers['if-match']).toBe('"8"');
    expect(bodyOf(server.last())).toEqual({ visibility: 'restricted', allowed_orgs: ['org-1'], version: 3 });
    await client().blueprints.publish(BLUEPRINT_UUID);
    expect(bodyOf(server.last())).toEqual({});
    await client().blueprints.unpublish(BLUEPRINT_UUID);
    expect(server.last()).toMatchObject({
      method: 'POST',
      url: `/api/v1/blueprints/${BLUEPRINT_UUID}/unpublish/`,
    });
    expect(bodyOf(server.last())).toEqual({});
  });

  it.each([
    [{ version: 0 }, 'version'],
    [{ version: -3 }, 'version'],
    [{ version: 2.5 }, 'version'],
    [{ version: '2' }, 'version'],
    [{ version: [2] }, 'version'],
    [{ version: null }, 'version'],
    [{ version: Number.NaN }, 'version'],
    [{ version: Number.POSITIVE_INFINITY }, 'version'],
    [{ version: 2 ** 53 }, 'version'],
    [{ visibility: 'everyone' }, 'visibility'],
    [{ visibility: 'Public' }, 'visibility'],
    [{ allowed_orgs: [''] }, 'allowed_orgs'],
    [{ allowed_orgs: 'org-1' }, 'allowed_orgs'],
  ])('publish refuses %j before sending, naming the field', async (input, field) => {
    const error = await rejectionOf(client().blueprints.publish(BLUEPRINT_UUID, input as never));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).issues[0]?.path?.[0]).toBe(field);
    expect(server.requests).toHaveLength(0);
  });

  it('publish refuses a version with the blueprint form’s words (versionError)', async () => {
    for (const version of [0, 1.5, '3']) {
      const error = await rejectionOf(client().blueprints.publish(BLUEPRINT_UUID, { version } as never));
      expect((error as InvalidInputError).issues[0]?.message).toBe(
        'Version must be a whole number of at least 1.',
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it('publish refuses every hostile string as a visibility before sending', async () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    for (const visibility of hostile) {
      const error = await rejectionOf(client().blueprints.publish(BLUEPRINT_UUID, { visibility } as never));
      expect(InvalidInputError.isInstance(error), JSON.stringify(visibility)).toBe(true);
      expect((error as InvalidInputError).issues[0]?.path).toEqual(['visibility']);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('unpublish answers the draft, and a 404 for someone else’s blueprint is an ApiError', async () => {
    server.handle((_req, res) =>
      reply(res, 200, blueprintJson({ status: 'draft', published_at: null, revision: undefined }), {
        etag: '"4"',
      }),
    );
    const draft = await client().blueprints.unpublish(BLUEPRINT_UUID, { ifMatch: 3 });
    expect(draft).toMatchObject({ status: 'draft', published_at: null, revision: 4 });
    expect(server.last().headers['if-match']).toBe('"3"');
    server.handle((_req, res) => reply(res, 404, { detail: 'Blueprint not found.', code: 'not_found' }));
    const error = await rejectionOf(client().blueprints.publish(BLUEPRINT_UUID));
    expect(ApiError.isInstance(error) && error.status).toBe(404);
  });

  it('a refused version comes back as an ApiError naming version', async () => {
    server.handle((_req, res) =>
      reply(res, 400, {
        detail: 'Invalid input: version',
        code: 'invalid',
        errors: [{ param: 'version', code: 'version_not_newer', message: 'Publish a version above 3.' }],
      }),
    );
    const error = await rejectionOf(client().blueprints.publish(BLUEPRINT_UUID, { version: 2 }));
    expect(ApiError.isInstance(error)).toBe(true);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.stringify((error as ApiError).data)).toContain('Publish a version above 3.');
  });

  it('turns a 412 into a RevisionConflictError', async () => {
    server.handle((_req, res) => reply(res, 412, { detail: 'changed', current_revision: 8 }));
    const error = await rejectionOf(
      client().blueprints.update(BLUEPRINT_UUID, { title: 'x' }, { ifMatch: 7 }),
    );
    expect(RevisionConflictError.isInstance(error)).toBe(true);
    expect((error as RevisionConflictError).currentRevision).toBe(8);
  });

  it('DELETEs a blueprint; a 404 for someone else’s is an ApiError', async () => {
    server.handle((_req, res) => reply(res, 204));
    await expect(client().blueprints.delete(BLUEPRINT_UUID)).resolves.toBeUndefined();
    expect(server.last()).toMatchObject({ method: 'DELETE', url: `/api/v1/blueprints/${BLUEPRINT_UUID}/` });
    server.handle((_req, res) => reply(res, 404, { detail: 'Blueprint not found.', code: 'not_found' }));
    const error = await rejectionOf(client().blueprints.delete('theirs'));
    expect(ApiError.isInstance(error) && error.status).toBe(404);
  });
});
