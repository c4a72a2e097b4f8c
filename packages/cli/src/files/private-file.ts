import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Reads a UTF-8 text file; `undefined` when it does not exist. Any other failure (permissions, a
 * directory in the way) is thrown as it is, for the caller to word.
 */
export async function readTextFileIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes `text` to `path` so that nobody else can read it, atomically: a temporary file in the same
 * directory, flushed to disk, then renamed over the old one, so a crash or a full disk never leaves
 * half a file behind and readers see the old or the new content, nothing in between. The file ends
 * up 0600 and a directory this creates 0700. Throws the file system's error (the temporary file is
 * removed first).
 */
export async function writePrivateFileAtomically(path: string, text: string): Promise<void> {
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    // `mode` only applies to directories mkdir creates: an existing directory keeps its mode,
    // because PLANWRIGHT_CONFIG_DIR may point somewhere the user chose on purpose.
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    // The umask may only remove bits from 0600, but a chmod makes the mode explicit either way.
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/** The `code` of a Node.js file system error (`ENOENT`, `EACCES`…). */
export function fsErrorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

const fsErrorText: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'a file is in the way of a directory',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
};

/** "permission denied (EACCES)": a file system error in words, for one-line messages. */
export function describeFsError(error: unknown): string {
  const code = fsErrorCode(error);
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return `${fsErrorText[code] ?? 'file system error'} (${code})`;
}
