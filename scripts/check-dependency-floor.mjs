#!/usr/bin/env node
// Fails when package-lock.json resolves a package below the first release that fixed a known advisory.
// `npm audit` needs the registry's advisory endpoint; this check needs only the lockfile (docs/security.md).
// Usage: node scripts/check-dependency-floor.mjs [path/to/package-lock.json]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The floors. Every resolved copy of each package (nested ones included) must be at or above `min`;
 * a package listed here that the lockfile no longer holds also fails, so a rename cannot skip the check.
 */
export const FLOORS = [
  { name: 'prosemirror-view', min: '1.42.3', why: 'XSS fixes in DOM rendering of untrusted content' },
  {
    name: '@tiptap/extension-link',
    min: '3.27.0',
    why: 'isAllowedUri scheme-allowlist bypass (javascript: through crafted schemes); no 2.x backport',
  },
  { name: '@tiptap/core', min: '3.27.0', why: 'rewriteUnknownContent crash on null marks/content' },
  { name: 'linkifyjs', min: '4.3.2', why: 'GHSA-95jq-xph2-cx9h: prototype pollution and attribute XSS' },
  { name: 'mammoth', min: '1.11.0', why: 'directory traversal / external file reads from .docx links' },
];

/** -1, 0 or 1 as `a` is below, equal to or above `b` (major.minor.patch; a pre-release is below its release). */
export function compareVersions(a, b) {
  const parse = (v) => {
    const [core, pre] = v.split('+')[0].split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const diff = (left.parts[i] ?? 0) - (right.parts[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (left.pre && !right.pre) return -1;
  if (!left.pre && right.pre) return 1;
  return 0;
}

/** Every problem in a parsed lockfile (v2/v3 `packages` map), one line each; empty when all floors hold. */
export function checkLockfile(lock, floors = FLOORS) {
  const packages = lock && typeof lock === 'object' && lock.packages;
  if (!packages || typeof packages !== 'object')
    return ['package-lock.json has no "packages" map (lockfile v2+)'];
  const problems = [];
  for (const floor of floors) {
    const suffix = `node_modules/${floor.name}`;
    const copies = Object.entries(packages).filter(
      ([path]) => path === suffix || path.endsWith(`/${suffix}`),
    );
    if (copies.length === 0) problems.push(`${floor.name}: not in the lockfile (floor ${floor.min})`);
    for (const [path, entry] of copies) {
      const version = entry && typeof entry.version === 'string' ? entry.version : '';
      if (!version || compareVersions(version, floor.min) < 0)
        problems.push(
          `${floor.name} ${version || '(no version)'} at ${path} is below ${floor.min}: ${floor.why}`,
        );
    }
  }
  return problems;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const path = process.argv[2] ?? fileURLToPath(new URL('../package-lock.json', import.meta.url));
  let problems;
  try {
    problems = checkLockfile(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    problems = [`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (problems.length > 0) {
    process.stderr.write(
      `dependency floor: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}\n`).join('')}`,
    );
    process.exit(1);
  }
  process.stdout.write(`dependency floor: ${FLOORS.length} packages at or above their fixed releases\n`);
}
