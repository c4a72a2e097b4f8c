import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../package-paths.js';

/** Whether `dataDir` already holds a PostgreSQL cluster: PGlite itself decides so by `PG_VERSION`. */
export function isPgliteClusterPresent(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

// The child is plain JavaScript, so it runs the same from src/ (tsx) and from dist/. It resolves PGlite
// from the server package (argv[1]) and opens and closes it: on an empty directory that is initdb.
const INITDB_SCRIPT = `
import { createRequire } from 'node:module';
const [from, dataDir] = process.argv.slice(1);
const { PGlite } = createRequire(from)('@electric-sql/pglite');
const db = new PGlite(dataDir);
await db.waitReady;
await db.close();
`;

/** How much of the child's stderr an error keeps. */
const STDERR_TAIL_CHARS = 2000;

/**
 * Runs PGlite's initdb for an empty data directory in a short-lived child process. PGlite's WASM memory
 * grows to about 800 MiB during initdb and never shrinks; in a process of its own it is given back to the
 * system when that process ends, so the server then opens the cluster at the memory of a restart.
 */
export async function initialisePgliteCluster(dataDir: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '--eval', INITDB_SCRIPT, packagePath('package.json'), dataDir],
    // NODE_OPTIONS may load a loader (tsx in tests) the child needs not; it runs plain JavaScript.
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
    },
  );
  if (code !== 0 || !isPgliteClusterPresent(dataDir)) {
    const how = signal ? `was stopped by ${signal}` : `exited with ${code}`;
    throw new Error(
      `Could not create the embedded database in ${dataDir}: initdb ${how}${stderr.trim() ? `:\n${stderr.trim()}` : ''}`,
    );
  }
}
