import { randomUUID } from 'node:crypto';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsErrorCode } from './private-file.js';

/** What {@link writeFileAtomically} does when the file exists already. */
export interface WriteFileOptions {
  /** Replace an existing file. Otherwise an existing file is left alone and the write fails with `EEXIST`. */
  overwrite: boolean;
}

/**
 * Writes `data` to `path` atomically: a temporary file in the same directory, flushed to disk, then
 * moved into place, so a crash, a full disk or a failed export never leaves half a file under the
 * real name. Without `overwrite` the move is a hard link, which the file system refuses (`EEXIST`)
 * when the name is taken, even by a file created a moment ago; on file systems without hard links it
 * falls back to checking first. The file gets the usual mode (0666 minus the umask).
 *
 * @throws the file system's error (`EEXIST`, `EACCES`, `ENOENT` for a missing directory…); the
 * temporary file is removed first.
 */
export async function writeFileAtomically(
  path: string,
  data: Uint8Array,
  options: WriteFileOptions,
): Promise<void> {
  // A short temporary name: the real one may already be close to the 255-byte limit.
  const temporary = join(dirname(path), `.planwright-${randomUUID()}.tmp`);
  try {
    const file = await open(temporary, 'wx', 0o666);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    if (options.overwrite) {
      await rename(temporary, path);
      return;
    }
    try {
      await link(temporary, path);
    } catch (error) {
      if (!LINK_UNSUPPORTED.has(fsErrorCode(error) ?? '')) throw error;
      if (await exists(path)) throw Object.assign(new Error(`file exists: ${path}`), { code: 'EEXIST' });
      await rename(temporary, path);
      return;
    }
    await unlink(temporary);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

// What `link` answers on file systems that have no hard links (FAT, some network mounts).
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT') return false;
    throw error;
  }
}
