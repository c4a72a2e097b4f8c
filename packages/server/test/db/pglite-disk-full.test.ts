import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Database, openDatabase } from '../../src/db/database.js';
import { databaseFailureSummary, databaseOutage } from '../../src/db/database-unavailable.js';
import { fillFilesystem, freeBytes, mountSmallFilesystem } from './small-filesystem.mjs';

/**
 * PGlite on a really full disk (SPEC DF3, DF5): the data directory on a small tmpfs, filled with a file,
 * and writes made to need a new WAL segment, which PostgreSQL answers with a PANIC. The database must
 * refuse queries at once (never hang the process), reopen by itself once space is back, and keep every
 * committed write.
 */
let small: { dir: string; unmount(): void };
let database: Database;
let filler = '';
const heard: (string | null)[] = [];
const CHANNEL = 'planwright_disk_full_test';
// 600 kB of incompressible text: stored out of line, about 0.7 MB of WAL per round.
const bigText = () => randomBytes(450_000).toString('base64');

beforeAll(async () => {
  small = mountSmallFilesystem(112);
  database = await openDatabase({ kind: 'pglite', dataDir: join(small.dir, 'pglite') });
  database.events.listen(CHANNEL, (payload) => heard.push(payload));
  await database.events.listening();
  const run = (query: ReturnType<typeof sql>) => database.db.execute(query);
  // Pages allocated up front and kept by VACUUM: on the full disk, rows fit without extending a file,
  // so it is the WAL (a new 16 MiB segment) that runs out of space, not a table.
  await run(sql`create table scratch (id serial primary key, body text)
    with (vacuum_truncate = false, toast.vacuum_truncate = false)`);
  await run(sql`alter table scratch alter column body set storage external`);
  await run(sql`create table ledger (n int) with (vacuum_truncate = false)`);
  await run(sql`insert into ledger select generate_series(1, 20000)`);
  await run(sql`delete from ledger`);
  await run(sql`vacuum ledger`);
  for (let round = 0; round < 2; round += 1) {
    for (let row = 0; row < 3; row += 1) await run(sql`insert into scratch (body) values (${bigText()})`);
    await run(sql`delete from scratch`);
    await run(sql`vacuum scratch`);
  }
  await run(sql`checkpoint`);
}, 120_000);

afterAll(async () => {
  if (filler) rmSync(filler, { force: true });
  await database?.close();
  small?.unmount();
});

describe('PGlite on a full disk (DF)', () => {
  it('DF3: any error sent with severity PANIC counts as unavailable; the same code as an ERROR does not (DU6)', () => {
    const failure = (severity: string) => Object.assign(new Error('internal'), { code: 'XX000', severity });
    expect(databaseOutage(new Error('query failed', { cause: failure('PANIC') }))).toBe('unavailable');
    expect(databaseOutage(new Error('query failed', { cause: failure('ERROR') }))).toBeUndefined();
  });

  const committed: number[] = [];
  let failure: unknown;

  it('DF3: a WAL write on the full disk PANICs; the transaction fails as unavailable and later queries fail at once', async () => {
    filler = fillFilesystem(small.dir);
    expect(freeBytes(small.dir)).toBeLessThan(64 * 1024);
    for (let n = 1; n <= 40 && failure === undefined; n += 1) {
      try {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into scratch (body) values (${bigText()})`);
          await tx.execute(sql`insert into ledger values (${n})`);
        });
        committed.push(n);
        await database.db.execute(sql`delete from scratch`);
        await database.db.execute(sql`vacuum scratch`);
      } catch (error) {
        failure = error;
      }
    }
    expect(failure, 'the WAL never ran out: no failure in 40 rounds').toBeDefined();
    expect(databaseOutage(failure)).toBe('unavailable');
    expect(databaseFailureSummary(failure)).toMatchObject({
      code: '53100',
      message: expect.stringMatching(
        /^could not write to file "pg_wal\/xlogtemp\.\d+": No space left on device$/,
      ),
    });
    expect(committed.length).toBeGreaterThan(0);
    // The stopped backend is never entered again: this answers at once instead of blocking the process.
    const started = performance.now();
    const next = await database.db.execute(sql`select 1`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(databaseOutage(next)).toBe('unavailable');
    expect(databaseFailureSummary(next).code).toBe('53100');
    await expect(database.ping()).rejects.toThrow();
  });

  it('DF3: once space is back the next query reopens the database on the same directory, every committed write kept', async () => {
    rmSync(filler);
    filler = '';
    const ledger = z
      .object({ rows: z.array(z.object({ n: z.number() })) })
      .parse(await database.db.execute(sql`select n from ledger order by n`));
    expect(ledger.rows.map((row) => row.n)).toEqual(committed);
    await database.db.execute(sql`insert into ledger values (1000)`);
    await database.ping();
  });

  it('DF5: event handlers hear null after the reopen and go on hearing notifications', async () => {
    expect(heard).toEqual([null]);
    await database.db.execute(sql`select pg_notify(${CHANNEL}, 'after')`);
    await expect.poll(() => heard, { timeout: 5000, interval: 20 }).toEqual([null, 'after']);
  });
});
