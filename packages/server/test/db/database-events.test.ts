import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { DATABASE_CHANNELS } from '../../src/db/database-events.js';
import { databaseFailureSummary, databaseOutage } from '../../src/db/database-unavailable.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';

// PGlite's own LISTEN/NOTIFY: the same code path as PostgreSQL's, heard within this one process.
let dir: string;
let database: Database;
let storage: Storage;
const at = new Date('2026-11-22T12:00:00.000Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'planwright-events-test-'));
  database = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') });
  storage = createStorage(database);
});

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newSession(email: string): Promise<{ userId: string; sessionId: string }> {
  const user =
    (await storage.users.findByEmail(email)) ??
    (await storage.users.create({ email, passwordHash: null, emailVerified: true, createdAt: at }));
  const session = await storage.sessions.create({
    tokenHash: `${email}-${Math.random()}`,
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
  return { userId: user.id, sessionId: session.id };
}

/** Every id announced on the sessions-ended channel until `work` is done and a marker arrives. */
async function heardDuring(work: () => Promise<void>): Promise<string[]> {
  const heard: string[] = [];
  let markerSeen: () => void = () => {};
  const marker = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  const stop = storage.events.listen(DATABASE_CHANNELS.sessionsEnded, (payload) => {
    const ids = JSON.parse(payload ?? '[]') as string[];
    if (ids.includes('marker')) markerSeen();
    else heard.push(...ids);
  });
  await storage.events.listening();
  try {
    await work();
    // Notifications arrive in order: once the marker is heard, everything before it was too.
    await database.db.execute(sql`select pg_notify(${DATABASE_CHANNELS.sessionsEnded}, '["marker"]')`);
    await marker;
    return heard;
  } finally {
    stop();
  }
}

describe('cross-instance events (SC)', () => {
  it('SC1: ending sessions (one, all of a user, expired ones) announces their ids', async () => {
    const one = await newSession('one@example.com');
    const two = await newSession('two@example.com');
    const twoMore = await newSession('two@example.com');
    const old = await newSession('old@example.com');
    await storage.sessions.update(old.sessionId, { lastSeenAt: new Date('2020-01-01T00:00:00Z') });
    const heard = await heardDuring(async () => {
      await storage.sessions.delete(one.sessionId);
      await storage.sessions.deleteForUser(two.userId);
      await storage.sessions.prune(
        new Date('2021-01-01T00:00:00Z'),
        new Date('2000-01-01T00:00:00Z'),
        new Date('2021-01-01T00:00:00Z'),
      );
    });
    expect(heard.sort()).toEqual([one.sessionId, two.sessionId, twoMore.sessionId, old.sessionId].sort());
  });

  it('SC2: a session ended in a transaction that rolls back is not announced (nor ended)', async () => {
    const kept = await newSession('kept@example.com');
    const heard = await heardDuring(async () => {
      await storage
        .transaction(async (tx) => {
          await tx.sessions.delete(kept.sessionId);
          throw new Error('roll back');
        })
        .catch(() => {});
    });
    expect(heard).toEqual([]);
    expect(await storage.sessions.update(kept.sessionId, { lastSeenAt: at })).toBeDefined();
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('database unavailable is told apart from a bad query (DU)', () => {
  it('DU5: a refused connection, a lost one and SQLSTATE classes 08, 53 (disk full) and 57P0x are unavailable', async () => {
    const client = new pg.Client({ connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x` });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(databaseOutage(refused)).toBe('unavailable');
    expect(databaseOutage(new Error('Failed query: select 1', { cause: refused }))).toBe('unavailable');
    expect(
      databaseFailureSummary(new Error('Failed query: secret params', { cause: refused })),
    ).toMatchObject({
      code: 'ECONNREFUSED',
    });
    expect(databaseOutage(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    for (const code of ['08006', '53100', '57P01', '57P03']) {
      const error = Object.assign(new pg.DatabaseError('server says no', 0, 'error'), { code });
      expect(databaseOutage(error), code).toBe('unavailable');
    }
  });

  it('DU7: no free connection is "busy": the pool\'s wait ran out, or the server has no slot left (53300)', async () => {
    const slots = Object.assign(new pg.DatabaseError('sorry, too many clients already', 0, 'error'), {
      code: '53300',
    });
    expect(databaseOutage(new Error('Failed query: select 1', { cause: slots }))).toBe('busy');
    // pg-pool's words when its wait for a free connection runs out (tests/integration's DU7 makes it for real).
    const waited = new Error('timeout exceeded when trying to connect');
    expect(databaseOutage(new Error('Failed query: select 1', { cause: waited }))).toBe('busy');
    // A new connection that timed out while connecting is the database away, not busy.
    const connecting = new Error('Connection terminated due to connection timeout');
    expect(databaseOutage(connecting)).toBe('unavailable');
  });

  it('DU6: a query error (syntax, constraint) or anything else is not "unavailable"', async () => {
    const syntax = await database.db.execute(sql`selec 1`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(syntax).toBeInstanceOf(Error);
    expect(databaseOutage(syntax)).toBeUndefined();
    for (const code of ['23505', '42601', '40001']) {
      const error = Object.assign(new pg.DatabaseError('query says no', 0, 'error'), { code });
      expect(databaseOutage(error), code).toBeUndefined();
    }
    expect(databaseOutage(new TypeError('x is undefined'))).toBeUndefined();
    expect(databaseOutage('ECONNREFUSED')).toBeUndefined();
  });
});
