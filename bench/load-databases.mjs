// The databases the load benchmarks run on, and one run on each: PGlite in the server's data dir, or a
// throwaway PostgreSQL cluster (the tests' own helper) for the run's length.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../', import.meta.url));

/** `BENCH_LOAD_DATABASES` (comma-separated), PGlite and PostgreSQL by default. */
export const LOAD_DATABASES = (process.env.BENCH_LOAD_DATABASES ?? 'pglite,postgres')
  .split(',')
  .map((name) => name.trim());

/**
 * Runs `measure(database, postgres?)` on each of {@link LOAD_DATABASES}, PostgreSQL on a cluster started
 * for it and stopped after; answers the results by database name.
 */
export async function measureOnDatabases(measure) {
  const measured = {};
  for (const database of LOAD_DATABASES) {
    if (database === 'pglite') measured.pglite = await measure('pglite');
    else if (database === 'postgres') {
      const { startPostgres } = await tsImport(join(root, 'tests/support/postgres.ts'), import.meta.url);
      const postgres = await startPostgres();
      try {
        measured.postgres = await measure('postgres', postgres);
      } finally {
        await postgres.stop();
      }
    } else throw new Error(`BENCH_LOAD_DATABASES: unknown database ${database} (pglite, postgres)`);
  }
  return measured;
}
