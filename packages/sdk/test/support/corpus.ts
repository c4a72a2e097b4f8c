import { readFileSync } from 'node:fs';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';

/** The path of a file (or folder) of the shared test corpus; a missing corpus fails the test. */
export const corpusFilePath = corpusPath;

/** A corpus file as text (UTF-8). */
export function readCorpusFile(relative: string): string {
  return readFileSync(corpusPath(relative), 'utf8');
}

/** A corpus file's bytes. */
export function readCorpusBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(corpusPath(relative)));
}
