import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationsFolder, openDatabase, openStorage, type Storage } from '@planwright/server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../support/corpus.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

/**
 * The storage contract: every backend the server supports behaves the same. The same suite runs on
 * the embedded PGlite and on a real PostgreSQL server.
 */
interface Backend {
  name: 'pglite' | 'postgres';
  /** A location with an empty database; each call a new one. */
  fresh(): Promise<Parameters<typeof openStorage>[0]>;
}

let postgres: TestPostgres | undefined;
const tempDirs: string[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
}, 600_000);

afterAll(async () => {
  await postgres?.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const backends: Backend[] = [
  {
    name: 'pglite',
    fresh: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'planwright-contract-'));
      tempDirs.push(dir);
      return { kind: 'pglite', dataDir: join(dir, 'pglite') };
    },
  },
  {
    name: 'postgres',
    fresh: async () => {
      if (!postgres) throw new Error('PostgreSQL did not start');
      return { kind: 'postgres', url: await postgres.createDatabase() };
    },
  },
];

const hostile = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];
const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: unknown[];
};

/**
 * Known divergence (docs/architecture.md, "Storage"): PGlite 0.5 decodes result text with
 * `new TextDecoder('utf-8')`, which drops a *leading* U+FEFF from a value; PostgreSQL keeps it.
 * Every user-typed field is trimmed by the shared schemas (trim() removes U+FEFF), so the product never
 * stores one; this pins the behaviour so the test fails, and the note goes, once PGlite keeps it.
 */
function expectedRoundTrip(backend: Backend['name'], text: string): string {
  return backend === 'pglite' && text.startsWith('\uFEFF') ? text.slice(1) : text;
}

const message = (text: string) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '',
  message: text,
});

describe.each(backends)('storage contract on $name', (backend) => {
  let storage: Storage;
  let location: Parameters<typeof openStorage>[0];

  beforeAll(async () => {
    location = await backend.fresh();
    storage = await openStorage(location);
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('reports its kind and answers a ping', async () => {
    expect(storage.kind).toBe(backend.name);
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  it('has run every migration exactly once, and reopening runs none again', async () => {
    await storage.close();
    const appliedMigrations = async () => {
      const database = await openDatabase(location);
      try {
        const result = await database.db.execute(
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        return (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
      } finally {
        await database.close();
      }
    };
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(await appliedMigrations()).toBe(journal.entries.length);
    expect(await appliedMigrations()).toBe(journal.entries.length);
    storage = await openStorage(location);
    const created = await storage.contactMessages.create(message('after reopen'));
    expect(await storage.contactMessages.get(created.id)).toMatchObject({ message: 'after reopen' });
  });

  it('stores every hostile string and reads it back byte-identical', async () => {
    for (const text of hostile) {
      if (text.length === 0) continue;
      const created = await storage.contactMessages.create(message(text));
      const read = await storage.contactMessages.get(created.id);
      expect(read?.message, JSON.stringify(text)).toBe(expectedRoundTrip(backend.name, text));
    }
  });

  it('gives ids and timestamps, lists newest first and honours the limit', async () => {
    const first = await storage.contactMessages.create(message('first'));
    await new Promise((resolve) => setImmediate(resolve));
    const second = await storage.contactMessages.create(message('second'));
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.createdAt.getTime()).toBeGreaterThanOrEqual(first.createdAt.getTime());
    const listed = await storage.contactMessages.list(2);
    expect(listed).toHaveLength(2);
    expect(listed.map((row) => row.id)).toContain(second.id);
    expect(await storage.contactMessages.get('00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });

  it('commits a transaction, and rolls one back completely when it throws', async () => {
    const before = await storage.contactMessages.count();
    await storage.transaction(async (tx) => {
      await tx.contactMessages.create(message('kept 1'));
      await tx.contactMessages.create(message('kept 2'));
    });
    expect(await storage.contactMessages.count()).toBe(before + 2);
    await expect(
      storage.transaction(async (tx) => {
        await tx.contactMessages.create(message('lost 1'));
        await tx.contactMessages.create(message('lost 2'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await storage.contactMessages.count()).toBe(before + 2);
  });

  it('lands every one of 100 concurrent writes', async () => {
    const before = await storage.contactMessages.count();
    const rows = await Promise.all(
      Array.from({ length: 100 }, (_, i) => storage.contactMessages.create(message(`concurrent ${i}`))),
    );
    expect(new Set(rows.map((row) => row.id)).size).toBe(100);
    expect(await storage.contactMessages.count()).toBe(before + 100);
  });

  it('updates a row', async () => {
    const row = await storage.contactMessages.create(message('to e-mail'));
    expect(row.emailedAt).toBeNull();
    const at = new Date('2026-11-21T12:34:56.789Z');
    await storage.contactMessages.markEmailed(row.id, at);
    expect((await storage.contactMessages.get(row.id))?.emailedAt?.toISOString()).toBe(at.toISOString());
  });

  it('writes a document tree only when it differs, and reads it back as JSON text', async () => {
    const owner = await storage.users.create({
      email: `trees-${backend.name}@example.com`,
      passwordHash: null,
      emailVerified: true,
      createdAt: new Date(),
    });
    const paragraphs = hostile
      .filter((text) => text !== '' && !text.includes('\u0000') && !/\p{Cs}/u.test(text))
      .map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] }));
    const tree = { type: 'doc', content: paragraphs };
    const doc = await storage.transaction((tx) =>
      tx.documents.create(
        {
          ownerId: owner.id,
          blueprintId: null,
          blueprintVersion: null,
          title: 'Trees',
          description: '',
          content: tree,
          finalizedCount: 0,
          subsectionCount: 0,
          createdAt: new Date(),
        },
        [],
      ),
    );
    const write = (content: unknown) =>
      storage.documents.updateAt(
        doc.id,
        1,
        { contentJson: JSON.stringify(content), updatedAt: new Date() },
        { ifContentDiffers: true },
      );
    expect(await write(tree)).toBeUndefined();
    const changed = { type: 'doc', content: [...paragraphs].reverse() };
    expect(await write(changed)).toMatchObject({ id: doc.id, revision: 2, blueprintTitle: null });
    const read = await storage.documents.findOwnedWithContentJson(doc.id, owner.id);
    expect(JSON.parse(read?.contentJson ?? 'null')).toEqual(changed);
    expect(JSON.parse(await storage.documents.contentJsonOf(doc.id))).toEqual(changed);
    expect(
      await storage.documents.findOwnedHead(doc.id, '00000000-0000-4000-8000-000000000000'),
    ).toBeUndefined();
  });

  it('keeps data across a close and a reopen', async () => {
    const row = await storage.contactMessages.create(message('durable'));
    await storage.close();
    await storage.close(); // idempotent
    await expect(storage.ping()).rejects.toThrow();
    storage = await openStorage(location);
    expect((await storage.contactMessages.get(row.id))?.message).toBe('durable');
  });
});

describe('PostgreSQL only', () => {
  it('lets several instances start at once against one database: migrations are serialised', async () => {
    if (!postgres) throw new Error('PostgreSQL did not start');
    const url = await postgres.createDatabase();
    const instances = await Promise.all(
      Array.from({ length: 4 }, () => openStorage({ kind: 'postgres', url })),
    );
    try {
      const row = await instances[0]?.contactMessages.create(message('seen by all'));
      for (const instance of instances) {
        expect((await instance.contactMessages.get(row?.id ?? ''))?.message).toBe('seen by all');
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});
