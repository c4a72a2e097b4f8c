import { readFile, stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { TextSink } from '../cli-io.js';
import { CliErrorCode } from '../errors/cli-error.js';
import { writeFileAtomically } from '../files/output-file.js';
import { describeFsError, fsErrorCode } from '../files/private-file.js';
import { TransferFileError } from './transfer-errors.js';

/** The path that stands for standard output in `-o -`. */
export const STDOUT_PATH = '-';

/**
 * Reads a whole input file.
 *
 * @throws TransferFileError (`file_unreadable`) naming the file and why, e.g. `no such file (ENOENT)`.
 */
export async function readInputFile(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    const code = fsErrorCode(error);
    const why = code === 'ENOENT' ? 'no such file (ENOENT)' : describeFsError(error);
    throw new TransferFileError(CliErrorCode.fileUnreadable, path, `cannot read ${path}: ${why}`, {
      cause: error,
    });
  }
}

/**
 * Refuses early, before anything is downloaded or converted, when `path` is a folder, or a file and
 * `force` is not set.
 *
 * @throws TransferFileError (`file_exists`, or `file_unwritable` for a folder).
 */
export async function ensureWritable(path: string, force: boolean): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT') return;
    throw unwritable(path, error);
  }
  if (isDirectory) throw unwritable(path, Object.assign(new Error('is a directory'), { code: 'EISDIR' }));
  if (!force) throw exists(path);
}

/**
 * Writes an output file atomically; an existing file is only replaced with `force`.
 *
 * @throws TransferFileError (`file_exists`, or `file_unwritable` with the file system's reason).
 */
export async function writeOutputFile(path: string, data: Uint8Array, force: boolean): Promise<void> {
  try {
    await writeFileAtomically(path, data, { overwrite: force });
  } catch (error) {
    throw fsErrorCode(error) === 'EEXIST' ? exists(path, error) : unwritable(path, error);
  }
}

/** The file system's reason for a failed write, in words (`permission denied (EACCES)`). */
export function describeWriteError(error: unknown): string {
  return error instanceof TransferFileError ? error.message : describeFsError(error);
}

function exists(path: string, cause?: unknown): TransferFileError {
  return new TransferFileError(CliErrorCode.fileExists, path, `${path} already exists`, {
    suggestion: 'Pass --force to replace it, or choose another name.',
    cause,
  });
}

function unwritable(path: string, cause: unknown): TransferFileError {
  return new TransferFileError(
    CliErrorCode.fileUnwritable,
    path,
    `cannot write ${path}: ${fsErrorCode(cause) === 'ENOENT' ? 'its folder does not exist (ENOENT)' : describeFsError(cause)}`,
    { cause },
  );
}

/**
 * Writes an exported file to standard output: text as text, bytes as they are. The process's stdout is
 * a stream and takes bytes; a sink that only takes text (a test's buffer) cannot hold a binary file.
 */
export function writeToStdout(sink: TextSink, data: Uint8Array, isText: boolean): void {
  if (isText) {
    sink.write(new TextDecoder().decode(data));
    return;
  }
  if (!(sink instanceof Writable)) throw new TypeError('standard output does not take binary data');
  sink.write(data);
}
