import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { buildApp } from '../../src/app.js';
import { loadConfig, type ServerConfig } from '../../src/config/config.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { users } from '../../src/db/schema.js';
import { createMailer } from '../../src/mail/mailer.js';
import type { NewActivity } from '../../src/storage/activity-repository.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { writeFakeWebApp } from '../support/test-app.js';

const hostile = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];

// The app over a database this file can also reach directly (to delete an account, as an admin would).
let dir: string;
let database: Database;
let storage: Storage;
let config: ServerConfig;
let app: FastifyInstance;
const clock = new Date('2026-11-22T12:00:00.000Z');
const now = () => clock;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'planwright-activity-test-'));
  config = loadConfig({
    PLANWRIGHT_DATA_DIR: dir,
    PLANWRIGHT_WEB_DIR: writeFakeWebApp(dir),
    LOG_LEVEL: 'silent',
  });
  database = await openDatabase(config.database);
  storage = createStorage(database);
  const mailer = createMailer({
    smtpUrl: undefined,
    from: config.mail.from,
    outboxDir: config.mail.outboxDir,
  });
  app = await buildApp({ config, storage, mailer, logger: false, now });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await storage?.close();
  rmSync(dir, { recursive: true, force: true });
});

let userCounter = 0;
function newUser(input: { email?: string; firstName?: string } = {}): Promise<SignedInUser> {
  userCounter++;
  return createSignedInUser(
    { storage, config },
    {
      email: input.email ?? `feed${userCounter}@example.com`,
      firstName: input.firstName ?? `Name${userCounter}`,
    },
    now,
  );
}

const DOC = '11111111-1111-4111-8111-111111111111';
const BP = '22222222-2222-4222-8222-222222222222';

/** An entry in `owner`'s feed at `minute` past noon. */
function entry(owner: SignedInUser, minute: number, overrides: Partial<NewActivity> = {}): NewActivity {
  return {
    ownerId: owner.user.id,
    actorId: owner.user.id,
    actorLabel: owner.user.firstName,
    verb: 'renamed',
    message: `renamed the document (${minute})`,
    target: 'document',
    objectId: DOC,
    targetLabel: 'Acme plan',
    level: 1,
    createdAt: new Date(clock.getTime() + minute * 60_000),
    ...overrides,
  };
}

async function feed(as: SignedInUser | undefined, query = ''): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url: `/api/v1/activities/activities/${query ? `?${query}` : ''}`,
    headers: as ? as.headers : {},
  });
}

function messages(res: LightMyRequestResponse): string[] {
  return (res.json().data as Array<{ message: string }>).map((item) => item.message);
}

describe('GET activities/activities/', () => {
  it('answers 401 without a session', async () => {
    const res = await feed(undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('not_authenticated');
  });

  it('answers an empty feed in the list envelope', async () => {
    const ada = await newUser();
    const res = await feed(ada);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], meta: { pagination: { total: 0, page: 1, page_size: 20 } } });
  });

  it('answers each entry in the contract’s shape, with content-type labels derived from the target', async () => {
    const ada = await newUser({ email: 'ada.feed@example.com', firstName: 'Ada' });
    await storage.activities.record([
      entry(ada, 1),
      entry(ada, 2, {
        verb: 'added subsection',
        message: 'added the subsection "Pricing"',
        target: 'blueprint',
        objectId: BP,
        targetLabel: 'My blueprint',
        childTargetLabel: 'Pricing',
        childContentTypeLabel: 'subsection',
        severity: 'warning',
        level: 2,
      }),
    ]);
    const res = await feed(ada);
    expect(res.json()).toEqual({
      data: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          actor: { first_name: 'Ada', username: 'ada.feed' },
          actor_label: 'Ada',
          verb: 'added subsection',
          message: 'added the subsection "Pricing"',
          target: 'blueprint',
          object_id: BP,
          target_label: 'My blueprint',
          child_target_label: 'Pricing',
          child_content_type_label: 'subsection',
          content_type_label: 'blueprint',
          content_app_label: 'blueprints',
          severity: 'warning',
          level: 2,
          created_at: '2026-11-22T12:02:00.000Z',
        },
        {
          id: expect.any(String),
          actor: { first_name: 'Ada', username: 'ada.feed' },
          actor_label: 'Ada',
          verb: 'renamed',
          message: 'renamed the document (1)',
          target: 'document',
          object_id: DOC,
          target_label: 'Acme plan',
          child_target_label: null,
          child_content_type_label: null,
          content_type_label: 'document',
          content_app_label: 'documents',
          severity: 'info',
          level: 1,
          created_at: '2026-11-22T12:01:00.000Z',
        },
      ],
      meta: { pagination: { total: 2, page: 1, page_size: 20 } },
    });
    expect(res.body).not.toContain('@example.com');
  });

  it('shows only the caller’s own feed, even when asked for another owner’s object', async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    await storage.activities.record(entry(ada, 1, { message: 'ada’s entry' }));
    await storage.activities.record(entry(bob, 2, { message: 'bob’s entry' }));
    expect(messages(await feed(ada))).toEqual(['ada’s entry']);
    expect(messages(await feed(bob))).toEqual(['bob’s entry']);
    expect(messages(await feed(bob, `object_id=${DOC}`))).toEqual(['bob’s entry']);
    const stranger = await newUser();
    expect((await feed(stranger, `object_id=${DOC}&target=document`)).json().meta.pagination.total).toBe(0);
  });

  it('keeps the stored labels after the actor’s account is gone (actor becomes null)', async () => {
    const [owner, actor] = [await newUser(), await newUser({ firstName: 'Departed' })];
    await storage.activities.record(
      entry(owner, 1, { actorId: actor.user.id, actorLabel: 'Departed Person', targetLabel: 'Old title' }),
    );
    await storage.activities.record(
      entry(owner, 2, { actorId: null, actorLabel: 'Planwright', severity: 'system' }),
    );
    await database.db.delete(users).where(eq(users.id, actor.user.id));
    const data = (await feed(owner)).json().data;
    expect(data[0]).toMatchObject({ actor: null, actor_label: 'Planwright', severity: 'system' });
    expect(data[1]).toMatchObject({ actor: null, actor_label: 'Departed Person', target_label: 'Old title' });
  });

  it('is newest first, ties in a stable order across pages', async () => {
    const ada = await newUser();
    await storage.activities.record(
      Array.from({ length: 25 }, (_, i) => entry(ada, i % 5, { message: `entry ${i}` })),
    );
    const first = await feed(ada);
    expect(first.json().meta.pagination).toEqual({ total: 25, page: 1, page_size: 20 });
    const second = await feed(ada, 'page=2');
    expect(second.json().meta.pagination).toEqual({ total: 25, page: 2, page_size: 20 });
    const all = [...first.json().data, ...second.json().data] as Array<{ id: string; created_at: string }>;
    expect(new Set(all.map((item) => item.id)).size).toBe(25);
    const times = all.map((item) => item.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await feed(ada, 'page=1&page_size=20')).json().data).toEqual(first.json().data);
  });

  it('pages with page and page_size; a page past the end is empty with the real total', async () => {
    const ada = await newUser();
    await storage.activities.record(Array.from({ length: 5 }, (_, i) => entry(ada, i, { message: `m${i}` })));
    expect(messages(await feed(ada, 'page_size=2'))).toEqual(['m4', 'm3']);
    expect(messages(await feed(ada, 'page_size=2&page=3'))).toEqual(['m0']);
    const past = await feed(ada, 'page_size=2&page=99');
    expect(past.json()).toEqual({ data: [], meta: { pagination: { total: 5, page: 99, page_size: 2 } } });
    const huge = await feed(ada, `page=${Number.MAX_SAFE_INTEGER}&page_size=100`);
    expect(huge.statusCode).toBe(200);
    expect(huge.json().data).toEqual([]);
    expect((await feed(ada, 'page_size=100')).json().data).toHaveLength(5);
  });

  it('filters by level, level__gte, level__lte, target and object_id, combined', async () => {
    const ada = await newUser();
    const otherDoc = '33333333-3333-4333-8333-333333333333';
    await storage.activities.record([
      entry(ada, 1, { message: 'doc L1' }),
      entry(ada, 2, { message: 'doc L2', level: 2 }),
      entry(ada, 3, { message: 'other doc L1', objectId: otherDoc }),
      entry(ada, 4, { message: 'bp L1', target: 'blueprint', objectId: BP }),
      entry(ada, 5, { message: 'bp L2', target: 'blueprint', objectId: BP, level: 2 }),
    ]);
    expect(messages(await feed(ada, 'level=1'))).toEqual(['bp L1', 'other doc L1', 'doc L1']);
    expect(messages(await feed(ada, 'level__gte=2'))).toEqual(['bp L2', 'doc L2']);
    expect(messages(await feed(ada, 'level__gte=1&level__lte=2'))).toHaveLength(5);
    expect(messages(await feed(ada, 'level__lte=1&target=document'))).toEqual(['other doc L1', 'doc L1']);
    expect(messages(await feed(ada, `target=document&object_id=${DOC}`))).toEqual(['doc L2', 'doc L1']);
    expect(messages(await feed(ada, `object_id=${DOC.toUpperCase()}&level=2`))).toEqual(['doc L2']);
    expect(messages(await feed(ada, 'target=blueprint&level=2'))).toEqual(['bp L2']);
    expect(messages(await feed(ada, 'level__gte=2&level__lte=1'))).toEqual([]);
    // Unknown parameters (the client's own extras) are ignored.
    expect(messages(await feed(ada, 'ordering=-created_at&format=json'))).toHaveLength(5);
  });

  it('refuses malformed filters and paging with a 400 naming the parameter', async () => {
    const ada = await newUser();
    const cases: Array<[string, string]> = [
      ['level=0', 'level'],
      ['level=3', 'level'],
      ['level=one', 'level'],
      ['level=1.0', 'level'],
      ['level=', 'level'],
      ['level=1&level=2', 'level'],
      ['level__gte=-1', 'level__gte'],
      ['level__gte=x', 'level__gte'],
      ['level__lte=99999999999999999999', 'level__lte'],
      ['target=documents', 'target'],
      ['target=Document', 'target'],
      ['target=', 'target'],
      ['object_id=42', 'object_id'],
      ['object_id=11111111-1111-4111-8111-11111111111', 'object_id'],
      [`object_id=${encodeURIComponent("' or 1=1 --")}`, 'object_id'],
      ['page=0', 'page'],
      ['page=two', 'page'],
      ['page_size=101', 'page_size'],
      ['page_size=0', 'page_size'],
    ];
    for (const [query, param] of cases) {
      const res = await feed(ada, query);
      expect(res.statusCode, query).toBe(400);
      expect(
        res.json().errors.map((error: { param: string }) => error.param),
        query,
      ).toContain(param);
    }
  });

  it('answers hostile strings in labels and messages exactly as stored', async () => {
    const ada = await newUser();
    const sample = hostile;
    await storage.activities.record(
      sample.map((value, i) =>
        entry(ada, i, {
          message: value,
          targetLabel: value,
          actorLabel: value,
          childTargetLabel: value,
          childContentTypeLabel: 'section',
        }),
      ),
    );
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(sample.length / 100); page++) {
      const res = await feed(ada, `page_size=100&page=${page}`);
      expect(res.statusCode).toBe(200);
      for (const item of res.json().data) {
        expect(item.target_label).toBe(item.message);
        expect(item.actor_label).toBe(item.message);
        expect(item.child_target_label).toBe(item.message);
        seen.push(item.message);
      }
    }
    // PGlite's text decoding drops a leading U+FEFF (a byte-order mark) from every value it reads;
    // PostgreSQL keeps it. Everything else must come back exactly.
    const readBack = (value: string) => (storage.kind === 'pglite' ? value.replace(/^\uFEFF/, '') : value);
    expect(seen.sort()).toEqual(sample.map(readBack).sort());
  });
});

describe('ActivityRepository', () => {
  it('records one entry or a batch; an empty batch writes nothing', async () => {
    const ada = await newUser();
    await storage.activities.record([]);
    await storage.activities.record(entry(ada, 1));
    await storage.activities.record([entry(ada, 2), entry(ada, 3)]);
    const { rows, total } = await storage.activities.list(ada.user.id, { page: 1, pageSize: 10 });
    expect(total).toBe(3);
    expect(rows.map((row) => row.createdAt.getTime())).toEqual(
      [3, 2, 1].map((m) => clock.getTime() + m * 60_000),
    );
    expect(rows[0]).toMatchObject({
      severity: 'info',
      childTargetLabel: null,
      actor: { firstName: ada.user.firstName },
    });
  });

  it('writes a batch whole or not at all', async () => {
    const ada = await newUser();
    const broken = { ...entry(ada, 2), objectId: 'not-a-uuid' };
    await expect(storage.activities.record([entry(ada, 1), broken])).rejects.toThrow();
    expect((await storage.activities.list(ada.user.id, { page: 1, pageSize: 10 })).total).toBe(0);
  });
});
