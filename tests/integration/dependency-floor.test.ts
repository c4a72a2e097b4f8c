import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = join(root, 'scripts/check-dependency-floor.mjs');
const dir = mkdtempSync(join(tmpdir(), 'planwright-dependency-floor-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The repository's lockfile with `edit` applied, written to a temp file; the check's exit code and output. */
function runOn(edit: (packages: Record<string, { version?: string }>) => void) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  edit(lock.packages);
  const path = join(dir, `lock-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(lock));
  const run = spawnSync(process.execPath, [script, path], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('dependency floor (docs/security.md)', () => {
  it('SEC-D1: the real lockfile resolves every floored package at or above its fixed release', () => {
    const output = execFileSync(process.execPath, [script], { cwd: root, encoding: 'utf8' });
    expect(output).toContain('at or above their fixed releases');
  });

  it('SEC-D2: a top-level copy below the floor fails, naming the package and the floor', () => {
    const run = runOn((packages) => {
      packages['node_modules/prosemirror-view'] = { version: '1.42.2' };
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain('prosemirror-view 1.42.2');
    expect(run.output).toContain('below 1.42.3');
  });

  it('SEC-D3: a nested copy below the floor fails too (every resolved copy counts)', () => {
    const run = runOn((packages) => {
      packages['node_modules/some-parent/node_modules/mammoth'] = { version: '1.10.0' };
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain('mammoth 1.10.0 at node_modules/some-parent/node_modules/mammoth');
  });

  it('SEC-D4: the Tiptap link extension on the unfixed 2.x line fails', () => {
    const run = runOn((packages) => {
      packages['node_modules/@tiptap/extension-link'] = { version: '2.27.2' };
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain('@tiptap/extension-link 2.27.2');
  });

  it('SEC-D5: a floored package missing from the lockfile fails instead of passing silently', () => {
    const run = runOn((packages) => {
      delete packages['node_modules/mammoth'];
    });
    expect(run.status).toBe(1);
    expect(run.output).toContain('mammoth: not in the lockfile');
  });

  it('SEC-D6: a pre-release of the fixed version is below it', () => {
    const run = runOn((packages) => {
      packages['node_modules/prosemirror-view'] = { version: '1.42.3-beta.1' };
    });
    expect(run.status).toBe(1);
  });
});
