import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  characterCount,
  exceedsCharacters,
  longTextInputSchema,
  titleError,
} from '../../src/resources/text-fields.js';

describe('characterCount and exceedsCharacters', () => {
  it('count code points: an emoji is one, a lone surrogate is one', () => {
    expect(characterCount('a🚀b')).toBe(3);
    expect(characterCount('\uD800x')).toBe(2);
    expect(characterCount('')).toBe(0);
  });

  it('agree with counting every code point, for any text and limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.nat(250), (value, max) => {
        const count = [...value].length;
        return characterCount(value) === count && exceedsCharacters(value, max) === count > max;
      }),
      { numRuns: 500 },
    );
  });

  it('a description over the limit is refused once, as too long, not also scanned', () => {
    const result = longTextInputSchema('Description', 5_000).safeParse(`\u0001${'x'.repeat(4_999_999)}`);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Description must be at most 5,000 characters',
    ]);
  });

  it('titles: 200 emoji fit, 201 do not', () => {
    expect(titleError('🚀'.repeat(200))).toBeUndefined();
    expect(titleError('🚀'.repeat(201))).toBe('Title must be at most 200 characters');
  });
});
