// Plain JavaScript with its own declaration file, so every package's tests (each a TypeScript project
// whose rootDir stops at the package) can import it: declaration files may live outside rootDir.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared test corpus (real .docx/Markdown files and hostile strings) lives beside the repository,
 * in `../shared/corpus`; PLANWRIGHT_CORPUS_DIR overrides that. A missing file fails the test: nothing
 * is skipped. Nothing from the corpus is copied into shipped code.
 */
export function corpusPath(relative) {
  const root =
    process.env.PLANWRIGHT_CORPUS_DIR ??
    resolve(fileURLToPath(new URL('../../', import.meta.url)), '../shared/corpus');
  const path = join(root, relative);
  if (!existsSync(path)) {
    throw new Error(
      `Test corpus file not found: ${path}. Clone the repository beside shared/ or set PLANWRIGHT_CORPUS_DIR.`,
    );
  }
  return path;
}
