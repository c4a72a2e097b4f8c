import {
  activitySeverity,
  createPlanwrightClient,
  InvalidInputError,
  ResponseValidationError,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';
import { DOC_UUID } from './support/workspace-fixtures.js';

const entry = {
  id: 'act-1',
  actor: { first_name: 'Ada', username: 'ada' },
  actor_label: 'Ada',
  verb: 'renamed',
  message: 'renamed the document to "Acme plan"',
  target: 'document',
  object_id: DOC_UUID,
  target_label: 'Acme plan',
  child_target_label: null,
  child_content_type_label: null,
  content_type_label: 'document',
  content_app_label: 'documents',
  severity: 'info',
  level: 1,
  created_at: '2026-11-22T10:05:00.000Z',
};

const server = useRecordingServer((_req, res) =>
  reply(res, 200, { data: [entry], meta: { pagination: { total: 1 } } }),
);
const client = () => createPlanwrightClient({ baseUrl: server.origin });

describe('activities.list', () => {
  it('GETs activities/activities/ with the level and scope parameters, skipping what is absent or null', async () => {
    const activities = client().activities;
    await activities.list({ level: 1 });
    await activities.list({
      levelGte: 1,
      levelLte: 2,
      target: 'document',
      objectId: DOC_UUID,
      page: 2,
      pageSize: 50,
    });
    await activities.list({ level: null, target: undefined } as never);
    await activities.list();
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/activities/activities/?level=1',
      `/api/v1/activities/activities/?level__gte=1&level__lte=2&target=document&object_id=${DOC_UUID}&page=2&page_size=50`,
      '/api/v1/activities/activities/',
      '/api/v1/activities/activities/',
    ]);
  });

  it('returns the entries as the contract gives them', async () => {
    const page = await client().activities.list({ level: 1 });
    expect(page).toEqual({ items: [entry], total: 1 });
  });

  it('accepts a bare array, numeric ids and missing fields', async () => {
    server.handle((_req, res) =>
      reply(res, 200, [{ id: 7, verb: 'created', created_at: '2026-01-01T00:00:00Z', object_id: 9 }]),
    );
    const [activity] = (await client().activities.list()).items;
    expect(activity).toEqual({
      id: '7',
      actor: null,
      actor_label: null,
      verb: 'created',
      message: '',
      target: null,
      object_id: '9',
      target_label: null,
      child_target_label: null,
      child_content_type_label: null,
      content_type_label: null,
      content_app_label: null,
      severity: 'info',
      level: null,
      created_at: '2026-01-01T00:00:00Z',
    });
  });

  it('normalises severity in the answer', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        data: ['warn', 'ERROR', 'system', 'debug', null].map((severity) => ({ ...entry, severity })),
      }),
    );
    expect((await client().activities.list()).items.map((a) => a.severity)).toEqual([
      'warning',
      'error',
      'system',
      'info',
      'info',
    ]);
  });

  it('refuses an entry without id or created_at, and a bad query before sending', async () => {
    server.handle((_req, res) => reply(res, 200, { data: [{ ...entry, created_at: undefined }] }));
    await expect(client().activities.list()).rejects.toSatisfy(ResponseValidationError.isInstance);
    server.reset();
    await expect(client().activities.list({ level: 1.5 })).rejects.toSatisfy(InvalidInputError.isInstance);
    await expect(client().activities.list({ target: 'chat' } as never)).rejects.toSatisfy(
      InvalidInputError.isInstance,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('activitySeverity (spec 000 §3)', () => {
  it.each([
    ['error', 'error'],
    ['warning', 'warning'],
    ['warn', 'warning'],
    [' Warn ', 'warning'],
    ['system', 'system'],
    ['info', 'info'],
    ['critical', 'info'],
    ['', 'info'],
    [undefined, 'info'],
    [42, 'info'],
  ])('%j → %s', (value, expected) => {
    expect(activitySeverity(value)).toBe(expected);
  });
});
