import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A held lock on a PGlite data directory. */
export interface DataDirLock {
  release(): void;
}

/** The directory is already used by a running server. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Planwright server (pid ${pid}). ` +
        'Stop that server, or start this one with another PLANWRIGHT_DATA_DIR.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes a pid lock file in the directory. A lock left by a process that no longer runs (a crash,
 * `kill -9`) is taken over; a live one is refused with {@link DataDirLockedError}.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = join(dataDir, 'planwright.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(dataDir, pid);
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
