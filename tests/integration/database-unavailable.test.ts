import { POSTGRES_POOL_SIZE } from '@planwright/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The database unavailable (SPEC DU): one server whose PostgreSQL is reached through a TCP proxy the
 * test cuts, as a database restart, failover or network fault would. Requests answer 503 in the house
 * shape, nothing is half-written, and the server recovers by itself when the database is back.
 */
let postgres: TestPostgres;
let databaseUrl = '';
let proxy: TcpProxy;
let server: TestServer;
let ada: SdkAccount;

const UNAVAILABLE = {
  detail: 'The database is unavailable. Please try again shortly.',
  code: 'database_unavailable',
};
const BUSY = { detail: 'The server is busy. Please try again shortly.', code: 'database_busy' };

/** Until some `count` of this database's queries wait on a lock (real time: PostgreSQL's own state). */
function lockWaiters(locker: pg.Client, count: number, label: string): Promise<void> {
  return eventually(async () => {
    // Inside the locker's transaction the statistics are a snapshot taken once: take a fresh one each time.
    await locker.query('select pg_stat_clear_snapshot()');
    const { rows } = await locker.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
    );
    return (rows[0]?.n ?? 0) >= count;
  }, label);
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  const direct = new URL(databaseUrl);
  proxy = await startTcpProxy([{ host: direct.hostname, port: Number(direct.port) }]);
  const viaProxy = new URL(databaseUrl);
  viaProxy.hostname = proxy.host;
  viaProxy.port = String(proxy.port);
  server = await startTestServer({ env: { DATABASE_URL: viaProxy.toString() } });
  ada = await signUpWithSdk(server, 'ada@example.com');
}, 600_000);

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await postgres?.stop();
});

function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/api/v1/${path}`, {
    ...init,
    headers: {
      'x-session-token': ada.tokenStore.getToken() as string,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}

async function withDirect<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Polls (bounded) until `check` holds; real time, as the server's own pool and listener are real. */
async function eventually(check: () => Promise<boolean>, label: string, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${label}`);
}

/** Ada's chat socket on the document, once the server says it is authenticated. */
function openChat(documentUuid: string): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws/document/${documentUuid}/chat/`);
  socket.on('open', () =>
    socket.send(JSON.stringify({ type: 'authenticate', token: ada.tokenStore.getToken() })),
  );
  return new Promise((resolve, reject) => {
    socket.on('message', function first(data) {
      if ((JSON.parse(String(data)) as { type?: string }).type !== 'authenticated') return;
      socket.off('message', first);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('database unavailable (DU)', () => {
  it('DU1: with the database gone, reads and writes answer 503 in the house shape and /health says so', async () => {
    proxy.cut({ refuse: true });
    try {
      const list = await api('documents/');
      expect(list.status).toBe(503);
      expect(list.headers.get('retry-after')).toBe('5');
      expect(await list.json()).toEqual(UNAVAILABLE);
      const create = await api('documents/', { method: 'POST', body: JSON.stringify({ title: 'Lost?' }) });
      expect(create.status).toBe(503);
      expect(await create.json()).toEqual(UNAVAILABLE);
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        status: 'error',
        database: 'postgres',
        code: 'unavailable',
        detail: UNAVAILABLE.detail,
      });
    } finally {
      proxy.resume();
    }
  });

  it('DU1: a chat message sent while the database is gone is answered with the same words, and the socket stays', async () => {
    const created = await api('documents/', {
      method: 'POST',
      body: JSON.stringify({ title: 'Outage chat' }),
    });
    const doc = (await created.json()) as { uuid: string };
    const socket = await openChat(doc.uuid);
    const frames: { type?: string; content?: string }[] = [];
    socket.on('message', (data) =>
      frames.push(JSON.parse(String(data)) as { type?: string; content?: string }),
    );
    proxy.cut({ refuse: true });
    try {
      socket.send(JSON.stringify({ type: 'message', message: 'Draft this', client_id: 'c1' }));
      await eventually(async () => frames.some((frame) => frame.type === 'system'), 'a system frame');
      expect(frames.find((frame) => frame.type === 'system')?.content).toBe(UNAVAILABLE.detail);
      expect(socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      proxy.resume();
      socket.close();
    }
  });

  it('DU2: the server recovers by itself when the database returns, and the refused write is not there', async () => {
    await eventually(async () => (await fetch(`${server.url}/api/v1/health`)).status === 200, 'health');
    const titles = (await ada.client.documents.list()).items.map((item) => item.title);
    expect(titles).not.toContain('Lost?');
  });

  it('DU3: a write cut off mid-transaction answers 503 and leaves nothing half-written', async () => {
    const created = await api('documents/', { method: 'POST', body: JSON.stringify({ title: 'Before' }) });
    expect(created.status).toBe(201);
    const doc = (await created.json()) as { uuid: string; revision?: number; title: string };
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      // Hold the activity table so the rename stops inside its transaction, after the document row.
      await locker.query('begin');
      await locker.query('lock table activities in access exclusive mode');
      const rename = api(`documents/${doc.uuid}/`, {
        method: 'PATCH',
        body: JSON.stringify({ title: 'After' }),
      });
      await lockWaiters(locker, 1, 'the rename to wait on the lock');
      proxy.cut();
      const answer = await rename;
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual(UNAVAILABLE);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    const stored = await withDirect(
      async (client) =>
        (await client.query('select title, revision from documents where id = $1', [doc.uuid])).rows[0],
    );
    expect(stored).toMatchObject({ title: 'Before' });
    const after = await api(`documents/${doc.uuid}/`);
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ title: 'Before' });
    const activities = await withDirect(
      async (client) =>
        (
          await client.query("select verb from activities where object_id = $1 and verb ilike '%renam%'", [
            doc.uuid,
          ])
        ).rows,
    );
    expect(activities).toEqual([]);
  });

  it('DU7: with every pooled connection stuck on a slow query, one more request answers 503 busy; the stuck ones finish', async () => {
    const created = await api('documents/', { method: 'POST', body: JSON.stringify({ title: 'Busy day' }) });
    const doc = (await created.json()) as { uuid: string };
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    let stuck: Promise<Response>[] = [];
    try {
      // A slow database, as a long migration or a lock held elsewhere makes it: every request's session
      // lookup waits.
      await locker.query('begin');
      await locker.query('lock table sessions in access exclusive mode');
      stuck = Array.from({ length: POSTGRES_POOL_SIZE }, () => api(`documents/${doc.uuid}/`));
      await lockWaiters(locker, POSTGRES_POOL_SIZE, 'every pooled connection to wait on the lock');
      // The pool's 5 s wait for a free connection runs out: busy, not "unavailable".
      const extra = await api(`documents/${doc.uuid}/`);
      expect(extra.status).toBe(503);
      expect(extra.headers.get('retry-after')).toBe('2');
      expect(await extra.json()).toEqual(BUSY);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    const answers = await Promise.all(stuck);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect((await api(`documents/${doc.uuid}/`)).status).toBe(200);
  });

  it('DU4: after an outage the instance hears cross-instance events again (a sign-out closes its chat socket)', async () => {
    const created = await api('documents/', { method: 'POST', body: JSON.stringify({ title: 'Chat plan' }) });
    const doc = (await created.json()) as { uuid: string };
    proxy.cut({ refuse: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.resume();
    await eventually(async () => (await fetch(`${server.url}/api/v1/health`)).status === 200, 'health');
    const socket = await openChat(doc.uuid);
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await ada.client.auth.logout();
    expect(await closed).toBe(4401);
  });
});
