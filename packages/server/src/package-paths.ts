import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// This file sits directly in src/, and tsup bundles it directly into dist/, so `../` is the package
// root in both. Nested modules must not compute paths from their own location.
const packageRoot = new URL('../', import.meta.url);

/** Absolute path of a file or folder inside the server package (`drizzle`, `package.json`). */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(relative, packageRoot));
}

/** The server's version, from its package.json. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }
).version;
