import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { initialisePgliteCluster, isPgliteClusterPresent } from '../../src/db/pglite-initdb.js';
import { createStorage } from '../../src/storage/storage.js';

// The first start of an embedded database (src/db/SPEC.md, FS). Each test opens an empty directory: the
// subject is initdb itself, so no template is copied in.
const root = mkdtempSync(join(tmpdir(), 'planwright-initdb-test-'));
let count = 0;
const freshDir = () => join(root, `case-${++count}`, 'pglite');

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const MIB = 1024 * 1024;

describe('first start of an embedded database', () => {
  it('FS1: initdb runs in a child process, so this process does not keep its ~800 MiB', async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir, { recursive: true });
    expect(isPgliteClusterPresent(dataDir)).toBe(false);
    const before = process.memoryUsage.rss();
    await initialisePgliteCluster(dataDir);
    const grown = process.memoryUsage.rss() - before;
    expect(isPgliteClusterPresent(dataDir)).toBe(true);
    // initdb in this process grows it by 750+ MiB for good (PGlite's WASM memory never shrinks).
    expect(grown / MIB).toBeLessThan(200);
  });

  it('FS1: openDatabase on an empty directory creates the cluster and migrates it', async () => {
    const dataDir = freshDir();
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(isPgliteClusterPresent(dataDir)).toBe(true);
      // The migrated schema answers: the users table is there, and empty.
      expect(await createStorage(database).users.findByEmail('nobody@example.com')).toBeUndefined();
    } finally {
      await database.close();
    }
    // A restart on it opens the same cluster: no second initdb, the data is there.
    const reopened = await openDatabase({ kind: 'pglite', dataDir });
    await reopened.close();
  });

  it('FS2: a failing initdb fails the start with the directory named, and releases the lock', async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir, { recursive: true });
    // initdb must create base/ as a directory; a file in its place makes it fail.
    writeFileSync(join(dataDir, 'base'), 'not a directory');
    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
      `Could not create the embedded database in ${dataDir}: initdb exited with 1`,
    );
    expect(isPgliteClusterPresent(dataDir)).toBe(false);
    // The lock is free again: once the obstacle is gone, the next start succeeds.
    rmSync(dataDir, { recursive: true, force: true });
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await database.close();
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
  });
});
