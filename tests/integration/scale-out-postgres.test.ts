import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { ChatSession, createPlanwrightClient, MemoryTokenStore } from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { ManualClock } from '@planwright/sdk/testing';
import { migrationsFolder } from '@planwright/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { nodeSocketFactory, waitForSnapshot } from '../support/chat-session-node.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { BULLET_POINTS_REQUEST, contentWithNotes, FOUNDER_NOTES } from '../support/subsection-notes.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Scale-out (docs/deployment.md, SPEC SO): two server instances against one PostgreSQL behind a
 * round-robin TCP proxy with no sticky sessions, as behind a load balancer.
 */
let postgres: TestPostgres;
let databaseUrl = '';
let a: TestServer;
let b: TestServer;
let proxy: TcpProxy;
let ada: SdkAccount;

const portOf = (server: TestServer) => Number(new URL(server.url).port);

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  // SO1: both start at the same moment against the empty database.
  [a, b] = await Promise.all([
    startTestServer({ env: { DATABASE_URL: databaseUrl } }),
    startTestServer({ env: { DATABASE_URL: databaseUrl } }),
  ]);
  proxy = await startTcpProxy([
    { host: '127.0.0.1', port: portOf(a) },
    { host: '127.0.0.1', port: portOf(b) },
  ]);
  ada = await signUpWithSdk(a, 'ada@example.com');
}, 600_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.allSettled([a?.close(), b?.close()]);
  await postgres?.stop();
});

/** A GET on a fresh connection (no keep-alive), so the proxy picks the next instance for each. */
function getFresh(path: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${proxy.url}${path}`,
      { agent: false, headers: { 'x-session-token': token, connection: 'close' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('scale-out on PostgreSQL (SO)', () => {
  it('SO1: two instances starting at once on an empty database migrate once and seed once', async () => {
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const { migrations, defaults } = await withAdmin(async (client) => ({
      migrations: (await client.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]
        ?.n as number,
      defaults: (
        await client.query("select count(*)::int as n from blueprints where title = 'Business Plan'")
      ).rows[0]?.n as number,
    }));
    expect(migrations).toBe(journal.entries.length);
    expect(defaults).toBe(1);
    for (const server of [a, b]) {
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'postgres' });
    }
  });

  it('SO2: signed in on one instance, the user works on the other; activities and conversion tokens cross too', async () => {
    const token = ada.tokenStore.getToken() as string;
    const onB = createPlanwrightClient({ baseUrl: b.url, tokenStore: new MemoryTokenStore({ token }) });
    const created = await onB.documents.create({ title: 'Made on B' });
    const renamed = await ada.client.documents.update(created.uuid as string, { title: 'Renamed on A' });
    expect(renamed.title).toBe('Renamed on A');
    const listedOnB = await onB.documents.list();
    expect(listedOnB.items.map((item) => item.title)).toContain('Renamed on A');
    const activitiesOnA = await ada.client.activities.list({ objectId: created.uuid as string });
    const activitiesOnB = await onB.activities.list({ objectId: created.uuid as string });
    expect(activitiesOnA.total).toBeGreaterThanOrEqual(2);
    expect(activitiesOnB.items.map((item) => item.id)).toEqual(activitiesOnA.items.map((item) => item.id));

    // A conversion token issued on A converts on B: the signing key is a row, not process memory.
    const issued = await fetch(`${a.url}/api/v1/apps/tiptap/convert/jwt/`, {
      method: 'POST',
      headers: { 'x-session-token': token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(issued.status).toBe(200);
    const { token: bearer } = (await issued.json()) as { token: string };
    const converted = await fetch(`${b.url}/api/v1/apps/tiptap/convert/export/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: created.content, format: 'md', title: 'Made on B' }),
    });
    expect(converted.status).toBe(200);
    expect(await converted.text()).toContain('#');

    // No stickiness: each new connection through the proxy lands on the next instance, all signed in.
    const before = [...proxy.accepted];
    const answers = await Promise.all([0, 1, 2, 3].map(() => getFresh('/api/v1/documents/', token)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(proxy.accepted.map((count, index) => count - (before[index] ?? 0))).toEqual([2, 2]);
  });

  it("SO3: signing out on one instance closes that session's chat sockets on the other (LISTEN/NOTIFY)", async () => {
    const doc = await ada.client.documents.create({ title: 'Sign-out plan' });
    const second = await signUpWithSdk(b, 'ben@example.com');
    const open = (server: TestServer, token: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws/document/${doc.uuid}/chat/`);
        socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate', token })));
        socket.on('message', (data) => {
          if ((JSON.parse(String(data)) as { type?: string }).type === 'authenticated') resolve(socket);
        });
        socket.on('error', reject);
      });
    const closeOf = (socket: WebSocket) =>
      new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    // Ada's session, signed in on A, with a socket on B; Ben's socket on B must stay open.
    const adaSocket = await open(b, ada.tokenStore.getToken() as string);
    const adaClosed = closeOf(adaSocket);
    const benDoc = await second.client.documents.create({ title: 'Ben plan' });
    const benSocket = new WebSocket(`${b.url.replace('http', 'ws')}/ws/document/${benDoc.uuid}/chat/`);
    benSocket.on('open', () =>
      benSocket.send(JSON.stringify({ type: 'authenticate', token: second.tokenStore.getToken() })),
    );
    await new Promise<void>((resolve) =>
      benSocket.on('message', (data) => {
        if ((JSON.parse(String(data)) as { type?: string }).type === 'authenticated') resolve();
      }),
    );

    expect((await ada.client.auth.logout()).kind).toBeDefined();
    expect(await adaClosed).toBe(4401);
    expect(benSocket.readyState).toBe(WebSocket.OPEN);
    benSocket.close();
  });

  it('SO4: a chat started on one instance continues, history and pending proposal, on the other after the first is killed', async () => {
    const bob = await signUpWithSdk(a, 'bob@example.com');
    const created = await bob.client.documents.create({ title: 'Failover plan' });
    const section = outlineOf(created.content).sections[0];
    const subsectionUuid = section?.subsections[0]?.uuid;
    if (!section || !subsectionUuid) throw new Error('the default blueprint has no subsection');
    // The offline assistant proposes only edits of the user's own words: give it notes.
    const doc = await bob.client.documents.update(created.uuid, {
      content: contentWithNotes(created.content, subsectionUuid, FOUNDER_NOTES),
    });
    const clock = new ManualClock();
    const session = new ChatSession({
      baseUrl: proxy.url,
      scope: { documentUuid: doc.uuid as string, sectionUuid: section.uuid, subsectionUuid },
      getToken: () => bob.tokenStore.getToken(),
      socketFactory: nodeSocketFactory,
      clock,
      logger: { warn: () => {}, error: () => {} },
    });
    // The load balancer sends this socket to A only.
    proxy.drop(1);
    session.connect();
    await waitForSnapshot(session, (s) => s.status === 'connected');
    session.send(BULLET_POINTS_REQUEST);
    const answered = await waitForSnapshot(session, (s) => !s.loading && s.proposals.length === 1);
    const proposal = answered.proposals[0];
    expect(proposal?.status).toBe('pending');

    // A dies (sockets cut, no closing frame); the balancer takes it out and sends everything to B.
    proxy.restore(1);
    proxy.drop(0);
    await a.kill();
    await waitForSnapshot(session, (s) => s.status !== 'connected', 'the socket to A is gone');
    for (let step = 0; step < 20 && session.getSnapshot().status !== 'connected'; step += 1) {
      clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const served = await waitForSnapshot(
      session,
      (s) => s.status === 'connected' && s.messages.length === 2 && s.proposals.length === 1,
      'the chat on B',
    );
    expect(served.messages.map((message) => message.role)).toEqual(['user', 'ai']);
    expect(served.messages[1]?.content).toBe(answered.messages.find((m) => m.role === 'ai')?.content);
    expect(served.proposals[0]).toMatchObject({ toolId: proposal?.toolId, status: 'pending' });
    expect(session.rejectProposal(String(proposal?.toolId))).toBe(true);
    // The server's answer to the decision, not the client's optimistic view of it.
    await waitForSnapshot(
      session,
      (s) => s.toolExecution.state === 'idle' && s.toolExecution.message !== null,
      'the decision on B',
    );
    session.dispose();
    const stored = await withAdmin(
      async (client) =>
        (await client.query('select status from chat_proposals where tool_id = $1', [proposal?.toolId])).rows,
    );
    expect(stored).toEqual([{ status: 'rejected' }]);
  });
});
