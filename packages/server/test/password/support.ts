import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Big List of Naughty Strings from the shared test corpus, which lives beside the repository in
 * `../shared/corpus` (PLANWRIGHT_CORPUS_DIR overrides that).
 */
export function readHostileStrings(): string[] {
  const root =
    process.env.PLANWRIGHT_CORPUS_DIR ??
    resolve(fileURLToPath(new URL('../../../../', import.meta.url)), '../shared/corpus');
  const path = join(root, 'hostile-strings/blns.json');
  if (!existsSync(path)) {
    throw new Error(
      `Test corpus file not found: ${path}. Clone the repository beside shared/ or set PLANWRIGHT_CORPUS_DIR.`,
    );
  }
  const strings = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!Array.isArray(strings) || strings.length < 100) throw new Error(`Unexpected contents in ${path}`);
  return strings.map(String);
}
