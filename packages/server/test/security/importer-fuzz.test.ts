import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError, markdownToDocument } from '@planwright/sdk/formats';
import { docxToDocument } from '@planwright/sdk/formats/node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { multipartBody } from '../files/multipart.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createDocument } from '../support/workspace-calls.js';

// SEC-F4..F6 of test/security/SPEC.md: random and mutated files through the importers, bounded in time and memory.

const corpus = corpusPath('');
const docxSeeds = readdirSync(join(corpus, 'docx'))
  .filter((name) => name.endsWith('.docx'))
  .slice(0, 4)
  .map((name) => new Uint8Array(readFileSync(join(corpus, 'docx', name))));
const markdownSeed =
  '# Plan\n\n## Market\n\nText with **bold**, [a link](https://example.com) and `code`.\n\n- one\n- two\n';
/** Per file: what the worker's own time limit allows, with room for a slow CI machine. */
const FILE_BUDGET_MS = 5_000;
/** The heap may not grow by more than this across the whole run (the parsers run in this process). */
const HEAP_BUDGET_BYTES = 512 * 1024 * 1024;

/** A seed with random bytes overwritten, inserted or cut: what a damaged or crafted file looks like. */
function mutated(seeds: readonly Uint8Array[]) {
  return fc
    .record({
      seed: fc.nat({ max: seeds.length - 1 }),
      edits: fc.array(
        fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 }), fc.nat(3)),
        {
          minLength: 1,
          maxLength: 12,
        },
      ),
      cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    })
    .map(({ seed, edits, cut }) => {
      let bytes = Uint8Array.from(seeds[seed] ?? new Uint8Array());
      for (const [where, value, kind] of edits) {
        const at = Math.floor(where * bytes.length);
        if (kind === 0) bytes = Uint8Array.from([...bytes.subarray(0, at), value, ...bytes.subarray(at)]);
        else bytes[at] = value;
      }
      return cut === undefined ? bytes : bytes.subarray(0, Math.floor(cut * bytes.length));
    });
}

const docxInputs = fc.oneof(mutated(docxSeeds), fc.uint8Array({ maxLength: 2048 }));
const markdownInputs = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 2000 }),
  fc
    .array(
      fc.constantFrom(
        '#',
        '##',
        '- ',
        '1. ',
        '> ',
        '```',
        '|',
        '[x](javascript:alert(1))',
        '<script>',
        '\n',
        '**',
        '![i](data:x)',
        'text',
      ),
      { maxLength: 300 },
    )
    .map((parts) => parts.join('')),
  mutated([new TextEncoder().encode(markdownSeed)]).map((bytes) => new TextDecoder().decode(bytes)),
);

let t: TestApp;
let user: SignedInUser;
let documentUuid: string;

beforeAll(async () => {
  t = await createTestApp({ CONVERSION_TIMEOUT_MS: '4000' });
  user = await createSignedInUser(t, { email: 'import-fuzz@example.com' });
  documentUuid = (await createDocument(t, user)).uuid;
});
afterAll(async () => {
  await t?.close();
});

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

describe('importer fuzzing', () => {
  it('SEC-F4: random and mutated .docx bytes through the SDK importer: a document or a FormatError, fast', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    for (const bytes of fc.sample(docxInputs, { numRuns: 40, seed: 4242 })) {
      const { ms } = await timed(async () => {
        try {
          const { document } = await docxToDocument(bytes);
          expect(document.type).toBe('doc');
        } catch (error) {
          expect(FormatError.isInstance(error), String(error)).toBe(true);
        }
      });
      expect(ms).toBeLessThan(FILE_BUDGET_MS);
    }
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(HEAP_BUDGET_BYTES);
  });

  it('SEC-F5: random and mutated Markdown through the SDK importer: a document or a FormatError, fast', async () => {
    for (const text of fc.sample(markdownInputs, { numRuns: 60, seed: 4343 })) {
      const { ms } = await timed(async () => {
        try {
          expect(markdownToDocument(text).document.type).toBe('doc');
        } catch (error) {
          expect(FormatError.isInstance(error), String(error)).toBe(true);
        }
      });
      expect(ms).toBeLessThan(FILE_BUDGET_MS);
    }
  });

  it('SEC-F6: the same files through the import route answer 200 or a 4xx, never 5xx', async () => {
    const failures: string[] = [];
    const files = [
      ...fc.sample(docxInputs, { numRuns: 15, seed: 4444 }).map((bytes) => ({ name: 'plan.docx', bytes })),
      ...fc
        .sample(markdownInputs, { numRuns: 15, seed: 4545 })
        .map((text) => ({ name: 'plan.md', bytes: text })),
    ];
    for (const file of files) {
      const { payload, headers } = await multipartBody({ file, mode: 'replace' });
      const { ms, result } = await timed(() =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/documents/${documentUuid}/import/`,
          headers: { ...user.headers, ...headers },
          payload,
        }),
      );
      if (result.statusCode >= 500 || ms > FILE_BUDGET_MS)
        failures.push(
          `${file.name}: ${result.statusCode} in ${Math.round(ms)} ms ${result.body.slice(0, 200)}`,
        );
    }
    expect(failures).toEqual([]);
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
  });
});
