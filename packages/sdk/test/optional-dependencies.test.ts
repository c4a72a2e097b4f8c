import { readFileSync } from 'node:fs';
import { ERROR_CODES, PlanwrightError } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  loadEntry,
  missingDependencyError,
  OPTIONAL_DEPENDENCIES,
  OPTIONAL_DEPENDENCY_RANGES,
} from '../src/optional-dependencies.js';

const packageJson = z
  .object({
    dependencies: z.record(z.string(), z.string()),
    peerDependencies: z.record(z.string(), z.string()),
    peerDependenciesMeta: z.record(z.string(), z.object({ optional: z.literal(true) })),
  })
  .parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')));

/** The error Node's ESM loader throws for a bare specifier it cannot resolve. */
function notFound(specifier: string): Error {
  return Object.assign(
    new Error(
      `Cannot find package '${specifier}' imported from /app/node_modules/@planwright/sdk/dist/chunk-X.js`,
    ),
    {
      code: 'ERR_MODULE_NOT_FOUND',
    },
  );
}

describe('optional dependencies', () => {
  it('the main entry depends on zod only; everything else is an optional peer with the range the guard suggests', () => {
    expect(Object.keys(packageJson.dependencies)).toEqual(['zod']);
    expect(packageJson.peerDependencies).toEqual(OPTIONAL_DEPENDENCY_RANGES);
    expect(Object.keys(packageJson.peerDependenciesMeta).sort()).toEqual(
      Object.keys(packageJson.peerDependencies).sort(),
    );
    const used = new Set(Object.values(OPTIONAL_DEPENDENCIES).flat());
    expect([...used].sort()).toEqual(Object.keys(packageJson.peerDependencies).sort());
  });

  it('a missing optional package becomes a missing_dependency error whose suggestion installs what the entry needs', async () => {
    const error = await loadEntry('@planwright/sdk/formats/node', () =>
      Promise.reject(notFound('docx')),
    ).catch((caught: unknown) => caught);
    expect(PlanwrightError.isInstance(error)).toBe(true);
    if (!PlanwrightError.isInstance(error)) return;
    expect(error.code).toBe(ERROR_CODES.MISSING_DEPENDENCY);
    expect(error.message).toContain('@planwright/sdk/formats/node needs the package docx');
    expect(error.suggestion).toMatch(/^npm install /);
    expect(error.suggestion).toContain('docx@^9.15.2');
    expect(error.suggestion).toContain('pdfmake@^0.3.11');
    expect(error.suggestion).toContain('@tiptap/core@^3.32.2');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('a subpath of a missing package is named by its package (@tiptap/pm/state → @tiptap/pm)', () => {
    const error = missingDependencyError('@planwright/sdk/model', notFound('@tiptap/pm/state'));
    expect(error?.message).toContain('needs the package @tiptap/pm,');
    expect(error?.suggestion).not.toContain('docx');
  });

  it('anything else passes through unchanged: another missing package, another code, a non-error', async () => {
    const other = notFound('left-pad');
    await expect(loadEntry('@planwright/sdk/model', () => Promise.reject(other))).rejects.toBe(other);
    const docxForModel = notFound('docx');
    await expect(loadEntry('@planwright/sdk/model', () => Promise.reject(docxForModel))).rejects.toBe(
      docxForModel,
    );
    const syntax = new SyntaxError("Cannot find package 'docx'");
    await expect(loadEntry('@planwright/sdk/formats/node', () => Promise.reject(syntax))).rejects.toBe(
      syntax,
    );
    await expect(loadEntry('@planwright/sdk/formats/node', () => Promise.reject('docx'))).rejects.toBe(
      'docx',
    );
    await expect(loadEntry('@planwright/sdk/formats/node', async () => 42)).resolves.toBe(42);
  });
});
