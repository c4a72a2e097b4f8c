import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type DatabaseLocation, migrationsFolder, openDatabase } from '../../src/db/database.js';

/**
 * Fills an embedded database's directory with a copy of an empty, migrated PGlite cluster, unless it exists
 * already (a test of an old data directory brings its own). A PostgreSQL location is left alone.
 *
 * PGlite's first start in an empty directory runs initdb and then every migration: 3–5 s on a 2-core
 * machine, and the test suite starts well over a hundred servers. A copy of a cluster that has done both
 * and was closed cleanly opens in under a second (a cold copy of a stopped PostgreSQL cluster is a valid
 * clone of it). The first start itself stays tested where it is the subject: `npm start`, the storage
 * contract, the disk-full and data-directory tests open empty directories.
 */
export async function seedEmbeddedDatabase(location: DatabaseLocation): Promise<void> {
  if (location.kind !== 'pglite' || existsSync(location.dataDir)) return;
  template ??= buildTemplate();
  cpSync(await template, location.dataDir, { recursive: true, errorOnExist: true, force: false });
}

let template: Promise<string> | undefined;

/**
 * The template's directory: one per set of migrations and PGlite version, in the temp directory, built
 * by whichever worker needs it first and shared by every later one (and every later run).
 */
async function buildTemplate(): Promise<string> {
  const final = join(tmpdir(), `planwright-pglite-template-${templateKey()}`);
  if (existsSync(final)) return final;
  const building = mkdtempSync(join(tmpdir(), 'planwright-pglite-template-building-'));
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: join(building, 'pglite') });
    await database.close();
    try {
      // Atomic: a worker sees either no template or a whole one.
      renameSync(join(building, 'pglite'), final);
    } catch (error) {
      // Another worker finished first; its template is as good as ours.
      if (!existsSync(final)) throw error;
    }
    return final;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** A hash of every migration file and of the PGlite version: a change to either builds a new template. */
function templateKey(): string {
  const hash = createHash('sha256');
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const path of files) hash.update(path.slice(migrationsFolder.length)).update(readFileSync(path));
  hash.update(pgliteVersion());
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  // PGlite's package.json is not among its exports: walk up from its entry point to it.
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the version of @electric-sql/pglite');
    dir = parent;
  }
}
