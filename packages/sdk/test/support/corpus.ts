import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads a file of the shared test corpus, which lives beside the repository in `../shared/corpus`
 * (PLANWRIGHT_CORPUS_DIR overrides it), as the root `tests/support/corpus.ts` does; that file sits
 * outside this package's TypeScript project, so it cannot be imported from here. A missing corpus fails
 * the test: it is never skipped.
 */
export function readCorpusFile(relative: string): string {
  const root =
    process.env.PLANWRIGHT_CORPUS_DIR ??
    resolve(fileURLToPath(new URL('../../../../', import.meta.url)), '../shared/corpus');
  const path = join(root, relative);
  if (!existsSync(path)) {
    throw new Error(
      `Test corpus file not found: ${path}. Clone the repository beside shared/ or set PLANWRIGHT_CORPUS_DIR.`,
    );
  }
  return readFileSync(path, 'utf8');
}
