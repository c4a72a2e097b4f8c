import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countTokens,
  decodeHead,
  encodeTokens,
  tokenizerPieces,
} from '../../../src/ai/context/token-count.js';

describe('token counting of hostile text', () => {
  it('CX15: a long run is cut into pieces of at most 200 characters, whole characters only', () => {
    const run = `${'x'.repeat(199)}😀${'y'.repeat(450)}`;
    const pieces = tokenizerPieces(`start ${run} end`);
    expect(pieces.join('')).toBe(`start ${run} end`);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(200);
    // The emoji's two halves stay together.
    expect(pieces.some((piece) => piece.endsWith('\ud83d'))).toBe(false);
    expect(tokenizerPieces('ordinary words only')).toEqual(['ordinary words only']);
  });

  it('CX15: 100,000 of one character count like the uncut run would (one token per 8), and decode back', () => {
    const text = 'x'.repeat(100_000);
    // o200k_base reads "xxxxxxxx" as one token; cutting at 200 (a multiple of 8) changes nothing here.
    expect(countTokens(text)).toBe(12_500);
    const tokens = encodeTokens(text);
    expect(decodeHead(tokens, tokens.length)).toBe(text);
  });

  it('CX15: a text cut inside a character leaves nothing behind for the next text to decode', () => {
    // o200k_base spells "🐌" as two tokens of two bytes each: the head of one token is half a character.
    const cut = encodeTokens('🐌🐌');
    expect(decodeHead(cut, 1)).toBe('');
    const text = '𐂀 résumé 🐌';
    const tokens = encodeTokens(text);
    expect(decodeHead(tokens, tokens.length)).toBe(text);
  });

  it('CX15: encoding then decoding any text gives it back exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constant('z'.repeat(450))), {
          maxLength: 6,
        }),
        (parts) => {
          const text = parts.join('');
          const tokens = encodeTokens(text);
          expect(decodeHead(tokens, tokens.length)).toBe(text);
          expect(countTokens(text)).toBe(tokens.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
