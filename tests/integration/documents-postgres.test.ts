import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSession } from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { ManualClock } from '@planwright/sdk/testing';
import { buildApp, createMailer, loadConfig, openStorage, type Storage } from '@planwright/server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSocketFactory, waitForSnapshot } from '../support/chat-session-node.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { BULLET_POINTS_REQUEST, contentWithNotes, FOUNDER_NOTES } from '../support/subsection-notes.js';

/**
 * Documents and blueprints on a real PostgreSQL server, where concurrent requests really run in
 * parallel transactions (on PGlite they queue on its one connection): two app instances share one
 * database, as behind a load balancer.
 */
let postgres: TestPostgres | undefined;
const dirs: string[] = [];
const instances: Array<{ app: FastifyInstance; storage: Storage }> = [];
let token = '';
let userId = '';

async function startInstance(url: string) {
  const dir = mkdtempSync(join(tmpdir(), 'planwright-docs-pg-'));
  dirs.push(dir);
  const webDir = join(dir, 'web');
  mkdirSync(webDir, { recursive: true });
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Planwright</title>');
  const config = loadConfig({
    PLANWRIGHT_DATA_DIR: dir,
    PLANWRIGHT_WEB_DIR: webDir,
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
  });
  const storage = await openStorage(config.database);
  const mailer = createMailer({
    smtpUrl: undefined,
    from: config.mail.from,
    outboxDir: config.mail.outboxDir,
  });
  const app = await buildApp({ config, storage, mailer, logger: false });
  await app.ready();
  instances.push({ app, storage });
  return { app, storage };
}

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase();
  // Two instances starting at the same moment: migrations serialised, the default seeded once.
  await Promise.all([startInstance(url), startInstance(url)]);
  const storage = instances[0]?.storage as Storage;
  const user = await storage.users.create({
    email: 'ada@example.com',
    passwordHash: null,
    emailVerified: true,
    createdAt: new Date(),
  });
  userId = user.id;
  token = randomBytes(32).toString('base64url');
  const at = new Date();
  await storage.sessions.create({
    tokenHash: createHash('sha256').update(token, 'utf8').digest('hex'),
    client: 'app',
    userId: user.id,
    authenticated: true,
    pendingFlow: null,
    method: 'password',
    methodAt: at,
    provider: null,
    createdAt: at,
    lastSeenAt: at,
    userAgent: 'vitest',
    ip: '127.0.0.1',
  });
}, 600_000);

afterAll(async () => {
  for (const { app, storage } of instances) {
    await app.close();
    await storage.close();
  }
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Alternates between the two instances, as a load balancer would. */
let turn = 0;
function call(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const instance = instances[turn++ % instances.length];
  if (!instance) throw new Error('no instance');
  return instance.app.inject({
    method,
    url: `/api/v1/${path}`,
    headers: { 'x-session-token': token, ...headers },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

async function newDocument() {
  const available = (await call('GET', 'blueprints/available/')).json().data as Array<{
    uuid: string;
    is_default: boolean;
  }>;
  expect(available.filter((bp) => bp.is_default)).toHaveLength(1);
  const res = await call('POST', 'documents/', { blueprint: available.find((bp) => bp.is_default)?.uuid });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('documents on PostgreSQL with two instances', () => {
  it('of many concurrent writers with the same If-Match exactly one wins; the rest get 412', async () => {
    const doc = await newDocument();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('PATCH', `documents/${doc.uuid}/`, { title: `Writer ${i}` }, { 'if-match': '"1"' }),
      ),
    );
    const codes = results.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 412)).toHaveLength(9);
    for (const res of results.filter((r) => r.statusCode === 412))
      expect(res.json().current_revision).toBe(2);
    const winner = results.find((res) => res.statusCode === 200)?.json().title;
    expect((await call('GET', `documents/${doc.uuid}/`)).json()).toMatchObject({
      title: winner,
      revision: 2,
    });
  });

  it('concurrent section inserts without If-Match all land, and rows and tree agree', async () => {
    const doc = await newDocument();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', `documents/${doc.uuid}/sections/`, { title: `Parallel ${i}` }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(Array(10).fill(201));
    const after = (await call('GET', `documents/${doc.uuid}/`)).json();
    expect(after.revision).toBe(11);
    expect(after.sections).toHaveLength(doc.sections.length + 10);
    const treeUuids = after.content.content.map((section: { attrs: { uuid: string } }) => section.attrs.uuid);
    expect(after.sections.map((section: { uuid: string }) => section.uuid)).toEqual(treeUuids);
    const activity = (await call('GET', `activities/activities/?object_id=${doc.uuid}&page_size=100`)).json()
      .data;
    expect(activity.filter((entry: { verb: string }) => entry.verb === 'added section')).toHaveLength(10);
  });

  it('a content write racing a subsection write: both land, one after the other', async () => {
    const doc = await newDocument();
    const section = doc.sections[0];
    const content = structuredClone(doc.content);
    content.content[0].content[0].content = [{ type: 'text', text: 'Renamed by content' }];
    const [byContent, bySettings] = await Promise.all([
      call('PATCH', `documents/${doc.uuid}/`, { content }),
      call(
        'PATCH',
        `documents/${doc.uuid}/sections/${section.uuid}/subsections/${section.subsections[0].uuid}/`,
        {
          user_hint: 'Kept',
          finalized: true,
        },
      ),
    ]);
    expect([byContent.statusCode, bySettings.statusCode]).toEqual([200, 200]);
    const after = (await call('GET', `documents/${doc.uuid}/`)).json();
    expect(after.revision).toBe(3);
    expect(after.sections[0].title).toBe('Renamed by content');
    expect(after.sections[0].subsections[0]).toMatchObject({ user_hint: 'Kept' });
  });
});

describe('chats on PostgreSQL with two instances (CH9)', () => {
  it('a chat answered by one instance is served, with its pending proposal, by the other', async () => {
    const [first, second] = instances;
    if (!first || !second) throw new Error('two instances expected');
    const urls = [
      await first.app.listen({ port: 0, host: '127.0.0.1' }),
      await second.app.listen({ port: 0, host: '127.0.0.1' }),
    ];
    const created = await newDocument();
    const section = outlineOf(created.content).sections[0];
    const subsectionUuid = section?.subsections[0]?.uuid;
    if (!section || !subsectionUuid) throw new Error('no subsection');
    // The offline assistant proposes only edits of the user's own words: give it notes.
    const noted = await call('PATCH', `documents/${created.uuid}/`, {
      content: contentWithNotes(created.content, subsectionUuid, FOUNDER_NOTES),
    });
    expect(noted.statusCode, noted.body).toBe(200);
    const doc = noted.json();
    const scope = { documentUuid: doc.uuid as string, sectionUuid: section.uuid, subsectionUuid };
    const open = (baseUrl: string) => {
      const clock = new ManualClock();
      const session = new ChatSession({
        baseUrl,
        scope,
        getToken: () => token,
        socketFactory: nodeSocketFactory,
        clock,
        logger: { warn: () => {}, error: () => {} },
      });
      return { session, clock };
    };

    const a = open(urls[0] as string);
    a.session.connect();
    await waitForSnapshot(a.session, (s) => s.status === 'connected');
    a.session.send(BULLET_POINTS_REQUEST);
    const answered = await waitForSnapshot(a.session, (s) => !s.loading && s.proposals.length === 1);
    const proposal = answered.proposals[0];
    a.session.dispose();

    const b = open(urls[1] as string);
    b.session.connect();
    await waitForSnapshot(b.session, (s) => s.status === 'connected');
    b.clock.advance(500);
    const served = await waitForSnapshot(
      b.session,
      (s) => s.messages.length === 2 && s.proposals.length === 1,
    );
    expect(served.messages.map((m) => m.role)).toEqual(['user', 'ai']);
    expect(served.messages[1]?.content).toBe(answered.messages.find((m) => m.role === 'ai')?.content);
    expect(served.proposals[0]).toMatchObject({ toolId: proposal?.toolId, status: 'pending' });
    expect(b.session.rejectProposal(String(proposal?.toolId))).toBe(true);
    await waitForSnapshot(
      b.session,
      (s) => s.toolExecution.state === 'idle' && s.toolExecution.message !== null,
    );
    b.session.dispose();
    const [chat] = await first.storage.chats.listRecent(
      { ownerId: userId, target: 'subsection', objectId: subsectionUuid },
      1,
    );
    const [stored] = await first.storage.chats.proposalsOf(chat?.id as string);
    expect(stored?.status).toBe('rejected');
  });
});
