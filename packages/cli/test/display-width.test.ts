import { describe, expect, it } from 'vitest';
import { displayWidth, padToWidth, truncateToWidth } from '../src/display/display-width.js';

describe('display width and truncation', () => {
  it.each([
    ['abc', 3],
    ['漢字', 4],
    ['한국어', 6],
    ['🚀', 2],
    ['👩‍👩‍👧', 2],
    ['🇫🇷', 2],
    ['❤️', 2],
    ['©', 1],
    ['e\u0301', 1],
    ['a\u200bb', 2],
    ['', 0],
    ['ｆｕｌｌ！', 10],
    ['ﾊﾝｶｸ', 4],
    ['\ufffd', 1],
  ])('%j is %i columns wide', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('cuts by columns, never inside a grapheme, with …', () => {
    expect(truncateToWidth('abcdef', 6)).toBe('abcdef');
    expect(truncateToWidth('abcdefg', 6)).toBe('abcde…');
    expect(truncateToWidth('漢字漢字', 5)).toBe('漢字…');
    expect(truncateToWidth('ab👩‍👩‍👧cd', 4)).toBe('ab…');
    expect(truncateToWidth('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
    expect(truncateToWidth('abc', 0)).toBe('');
    for (let width = 1; width < 12; width++) {
      const cut = truncateToWidth('🚀x漢字👩‍👩‍👧 plan', width);
      expect(displayWidth(cut)).toBeLessThanOrEqual(width);
      // No half of a surrogate pair is left behind.
      expect(/\p{Cs}/u.test(cut)).toBe(false);
    }
  });

  it('pads by columns', () => {
    expect(padToWidth('漢', 4)).toBe('漢  ');
    expect(padToWidth('toolong', 3)).toBe('toolong');
  });
});
