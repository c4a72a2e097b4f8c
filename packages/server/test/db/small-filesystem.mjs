// Plain JavaScript with its own declaration file (small-filesystem.d.mts), so the integration tests can
// import it too: declaration files may live outside a TypeScript project's rootDir.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names a small filesystem the tests may fill, instead of mounting one (which needs root). */
export const SMALL_FS_ENV = 'PLANWRIGHT_TEST_SMALL_FS';
const MAX_GIVEN_BYTES = 1024 * 2 ** 20;

/**
 * A small filesystem of its own: a tmpfs of `sizeMb` mounted on a fresh directory (we are root), or the
 * directory named by PLANWRIGHT_TEST_SMALL_FS. Never skips: without either it throws with what to do,
 * as a disk-full test that does not fill a disk proves nothing.
 */
export function mountSmallFilesystem(sizeMb) {
  const given = process.env[SMALL_FS_ENV];
  if (given) {
    const stats = statfsSync(given);
    // Filling a large disk would take long and starve the machine: only a small one is accepted.
    if (stats.blocks * stats.bsize > MAX_GIVEN_BYTES)
      throw new Error(
        `${SMALL_FS_ENV}=${given} is on a filesystem of ${Math.round((stats.blocks * stats.bsize) / 2 ** 20)} MiB; ` +
          `the disk-full tests fill it, so give one of ${sizeMb} to ${MAX_GIVEN_BYTES / 2 ** 20} MiB used by nothing else.`,
      );
    const dir = mkdtempSync(join(given, 'planwright-disk-full-'));
    return { dir, unmount: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'planwright-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const reason = String(error?.stderr ?? error?.message ?? error).trim();
    throw new Error(
      `The disk-full tests need a small filesystem to fill, and mounting a tmpfs failed${isRoot ? '' : ' (not root)'}: ${reason}\n` +
        'Run the tests as root (or with CAP_SYS_ADMIN), or mount a small filesystem yourself and name it:\n' +
        `  sudo mkdir -p /mnt/pw-small && sudo mount -t tmpfs -o size=${sizeMb}m,mode=1777 tmpfs /mnt/pw-small\n` +
        `  ${SMALL_FS_ENV}=/mnt/pw-small npx vitest run ...\n` +
        '(The tests fill it completely: use nothing else on it, and run the disk-full test files one at a time.)',
    );
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Free bytes on the filesystem holding `dir`. */
export function freeBytes(dir) {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/**
 * Fills the filesystem holding `dir` until a write fails with ENOSPC, leaving `leaveBytes` free (0 by
 * default), with one file; returns its path. Removing that file gives the space back.
 */
export function fillFilesystem(dir, leaveBytes = 0) {
  const file = join(dir, 'filler.bin');
  mkdirSync(dir, { recursive: true });
  const fd = openSync(file, 'w');
  try {
    const big = Buffer.alloc(1024 * 1024, 0x5a);
    for (const chunk of [big, big.subarray(0, 4096)]) {
      for (;;) {
        const room = freeBytes(dir) - leaveBytes;
        if (room < chunk.length) break;
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if (error?.code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}
