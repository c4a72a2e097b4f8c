import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentToPdf } from '../../src/formats/node/pdf-export.js';
import { MAX_UNBROKEN_PIECE, unbrokenPieces } from '../../src/formats/node/pdf-export-text.js';
import { documentOf, paragraph, section, subsection, text } from '../support/model-documents.js';
import { ensureExportTools, pdfPages } from './docx-export-plan.js';

// Issue 20 §9: PDF layout time grew with the square of an unbroken word's length.

let workDir = '';
beforeAll(async () => {
  await ensureExportTools('POPPLER');
  workDir = mkdtempSync(join(tmpdir(), 'planwright-pdf-long-words-'));
});
afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const longestRun = (piece: string) => Math.max(0, ...piece.split(/[ \n]/).map((run) => run.length));

describe('unbrokenPieces', () => {
  it('leaves short text whole', () => {
    expect(unbrokenPieces('a short paragraph')).toEqual(['a short paragraph']);
  });

  it('cuts a long word into pieces of at most the limit, and nothing else', () => {
    const word = 'x'.repeat(200);
    expect(unbrokenPieces(`see ${word} here`, 64).map((piece) => piece.length)).toEqual([68, 64, 64, 13]);
  });

  it('joins back to the text; no piece has a longer run; no surrogate pair is split', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 600 }),
        fc.integer({ min: 1, max: 80 }),
        (value, max) => {
          const pieces = unbrokenPieces(value, max);
          // A run may exceed `max` by one unit only where a surrogate pair could not be split.
          const splitPair = pieces.some((piece, index) => index > 0 && /^[\uDC00-\uDFFF]/.test(piece));
          const tooLong = pieces.some((piece) => longestRun(piece) > max + 1);
          return pieces.join('') === value && !splitPair && !tooLong;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('documentToPdf with an 80,000-character word', () => {
  it('lays it out whole, wrapped over lines, with the text around it', async () => {
    const word = 'abcdefghij'.repeat(8_000);
    const document = documentOf(
      section(1, 'Risks', [], [subsection(2, 'Details', [paragraph('p-1', [text(`before ${word} after`)])])]),
    );
    const path = join(workDir, 'long-word.pdf');
    writeFileSync(path, await documentToPdf(document, { title: 'Long word' }));
    const lines = (await pdfPages(path))
      .join('\n')
      .split('\n')
      .map((line) => line.trim());
    // The word's lines, between the footers, hold every character in order.
    const wordLines = lines.filter((line) => /^[a-j]+$/.test(line));
    expect(wordLines.join('')).toBe(word);
    expect(lines).toContain('before');
    expect(lines.some((line) => line.endsWith(' after') || line === 'after')).toBe(true);
    // It wraps at full lines, not at the pieces' boundaries.
    expect(wordLines.length).toBeLessThan(80_000 / 90);
    expect(Math.min(...wordLines.slice(0, -1).map((line) => line.length))).toBeGreaterThan(
      MAX_UNBROKEN_PIECE,
    );
  });
});
