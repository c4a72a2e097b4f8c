import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationsFolder, openDatabase, openStorage, type Storage } from '@planwright/server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
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
    const read = await storage.documents.findWithContentJsonFor(doc.id, owner.id);
    expect(JSON.parse(read?.contentJson ?? 'null')).toEqual(changed);
    expect(JSON.parse((await storage.documents.contentJsonOf(doc.id)) ?? 'null')).toEqual(changed);
    expect(
      await storage.documents.findHeadFor(doc.id, '00000000-0000-4000-8000-000000000000'),
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

/** A plan's Yjs update that sets one root text to `value` at the end (a person typing). */
function typed(into: Y.Doc, value: string): Uint8Array {
  let update: Uint8Array = new Uint8Array();
  const listener = (u: Uint8Array) => {
    update = u;
  };
  into.on('update', listener);
  into.getText('t').insert(into.getText('t').length, value);
  into.off('update', listener);
  return update;
}

/** The root text of a stored live state, as a replica loading it sees it. */
function textOf(stored: {
  snapshot: Uint8Array | null;
  updates: ReadonlyArray<{ update: Uint8Array }>;
}): string {
  const ydoc = new Y.Doc();
  if (stored.snapshot) Y.applyUpdate(ydoc, stored.snapshot);
  for (const row of stored.updates) Y.applyUpdate(ydoc, row.update);
  return ydoc.getText('t').toString();
}

describe.each(backends)('live state storage on $name (LS)', (backend) => {
  let storage: Storage;
  let documentId: string;
  let blueprintId: string;
  const now = new Date('2026-11-28T12:00:00.000Z');

  beforeAll(async () => {
    storage = await openStorage(await backend.fresh());
    const owner = await storage.users.create({
      email: `live-${backend.name}@example.com`,
      passwordHash: null,
      emailVerified: true,
      createdAt: now,
    });
    const doc = await storage.transaction((tx) =>
      tx.documents.create(
        {
          ownerId: owner.id,
          blueprintId: null,
          blueprintVersion: null,
          title: 'Live',
          description: '',
          content: { type: 'doc', content: [] },
          finalizedCount: 0,
          subsectionCount: 0,
          createdAt: now,
        },
        [],
      ),
    );
    documentId = doc.id;
    const blueprint = await storage.transaction((tx) =>
      tx.blueprints.create(
        {
          ownerId: owner.id,
          title: 'Live blueprint',
          description: '',
          status: 'draft',
          version: 1,
          visibility: 'private',
          publishedAt: null,
          systemPrompt: '',
          publisher: null,
          content: { type: 'doc', content: [] },
          createdAt: now,
        },
        [],
      ),
    );
    blueprintId = blueprint.id;
  });

  afterAll(async () => {
    await storage.close();
  });

  it('LS1 appends updates byte for byte and loads them in order, per plan', async () => {
    const plan = { kind: 'document', id: documentId } as const;
    const writer = new Y.Doc();
    const updates = ['Hello', ', ', 'world'].map((part) => typed(writer, part));
    const seqs = [];
    for (const update of updates) seqs.push(await storage.liveStates.append(plan, update, now));
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
    const stored = await storage.liveStates.load(plan);
    expect(stored.snapshot).toBeNull();
    expect(stored.updates.map((row) => [...row.update])).toEqual(updates.map((update) => [...update]));
    expect(stored.updates.every((row) => row.update.constructor === Uint8Array)).toBe(true);
    expect(textOf(stored)).toBe('Hello, world');
    expect(await storage.liveStates.pendingUpdates(plan)).toBe(3);
    // Another plan's log is its own.
    expect((await storage.liveStates.load({ kind: 'blueprint', id: blueprintId })).updates).toEqual([]);
  });

  it('LS2 compaction folds the log into a snapshot that reads the same, and deletes only what it folded', async () => {
    const plan = { kind: 'document', id: documentId } as const;
    const before = textOf(await storage.liveStates.load(plan));
    const first = await storage.liveStates.compact(plan, now);
    expect(first.folded).toBeGreaterThan(0);
    const compacted = await storage.liveStates.load(plan);
    expect(compacted.updates).toEqual([]);
    expect(compacted.snapshot?.byteLength).toBe(first.snapshotBytes);
    expect(textOf(compacted)).toBe(before);
    // Nothing new: nothing to fold.
    expect(await storage.liveStates.compact(plan, now)).toEqual({
      folded: 0,
      snapshotBytes: first.snapshotBytes,
    });
    // Updates after a compaction land on top of the snapshot.
    const writer = new Y.Doc();
    Y.applyUpdate(writer, compacted.snapshot ?? new Uint8Array());
    await storage.liveStates.append(plan, typed(writer, '!'), now);
    expect(textOf(await storage.liveStates.load(plan))).toBe(`${before}!`);
  });

  it('LS3 compactions racing appends lose nothing', async () => {
    const plan = { kind: 'document', id: documentId } as const;
    const writer = new Y.Doc();
    Y.applyUpdate(writer, (await storage.liveStates.load(plan)).snapshot ?? new Uint8Array());
    for (const row of (await storage.liveStates.load(plan)).updates) Y.applyUpdate(writer, row.update);
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 40; i++) {
      work.push(storage.liveStates.append(plan, typed(writer, String(i % 10)), now));
      if (i % 8 === 0) work.push(storage.liveStates.compact(plan, now));
    }
    await Promise.all(work);
    expect(textOf(await storage.liveStates.load(plan))).toBe(writer.getText('t').toString());
    await storage.liveStates.compact(plan, now);
    expect(textOf(await storage.liveStates.load(plan))).toBe(writer.getText('t').toString());
  });

  it('LS4 a first state is stored once: a second one finds the first', async () => {
    const plan = { kind: 'blueprint', id: blueprintId } as const;
    const first = new Y.Doc();
    typed(first, 'first');
    const second = new Y.Doc();
    typed(second, 'second');
    expect(await storage.liveStates.initialize(plan, Y.encodeStateAsUpdate(first), now)).toBe(true);
    expect(await storage.liveStates.initialize(plan, Y.encodeStateAsUpdate(second), now)).toBe(false);
    expect(textOf(await storage.liveStates.load(plan))).toBe('first');
  });

  it("LS5 a plan's live state goes with the plan", async () => {
    const plan = { kind: 'document', id: documentId } as const;
    expect((await storage.liveStates.load(plan)).snapshot).not.toBeNull();
    expect(await storage.documents.deleteAt(documentId, 1)).toBe(true);
    const gone = await storage.liveStates.load(plan);
    expect(gone).toEqual({ snapshot: null, updates: [] });
    await expect(storage.liveStates.append(plan, new Uint8Array([0, 0]), now)).rejects.toThrow();
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
