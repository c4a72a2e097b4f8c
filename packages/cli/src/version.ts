import { readFileSync } from 'node:fs';

/**
 * The CLI's version, read from its package.json. Both `src/` (tests) and `dist/` (the built bin and
 * its chunks, which tsup writes flat into `dist/`) sit one level below the package root, so the
 * same relative URL works in both. Reading one small file costs far less than importing it as a
 * JSON module or bundling a copy that could drift from the published version.
 */
export function readCliVersion(): string {
  const packageJson: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const version =
    typeof packageJson === 'object' && packageJson !== null && 'version' in packageJson
      ? packageJson.version
      : undefined;
  if (typeof version !== 'string') throw new Error('@planwright/cli package.json has no "version"');
  return version;
}
