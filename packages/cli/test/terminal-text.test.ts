import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { terminalLines, terminalText } from '../src/display/terminal-text.js';
import { formatTable } from '../src/display/text-table.js';
import { formatTimestamp } from '../src/display/timestamp.js';

/** Anything a terminal would act on: C0/C1 controls (ESC, CSI, BEL, CR, …) and bidi controls. */
function hasTerminalControl(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
    if (code === 0x200e || code === 0x200f || code === 0x061c) return true;
    if (code >= 0xd800 && code <= 0xdfff) return true;
  }
  return false;
}

describe('terminalText', () => {
  it.each([
    ['clear screen and home', '\u001b[2J\u001b[HHello', 'Hello'],
    ['colours', 'a \u001b[1;31mred\u001b[0m word', 'a red word'],
    ['a cursor move with many parameters', 'x\u001b[10;20;30Hy', 'xy'],
    ['an OSC 8 hyperlink', '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u001b\\', 'click'],
    ['a window title', '\u001b]0;pwned\u0007Title', 'Title'],
    ['an unterminated OSC', 'ok \u001b]0;swallow the rest', 'ok '],
    ['a DCS string', 'a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
    ['8-bit CSI', 'a\u009b31mb', 'ab'],
    ['ESC c (reset)', 'a\u001bcb', 'ab'],
    ['a lone ESC at the end', 'abc\u001b', 'abc'],
    ['carriage return and newline', 'first\rsecond\nthird', 'first second third'],
    ['tab', 'a\tb', 'a b'],
    ['backspace, bell, NUL and DEL', 'a\bb\u0007c\u0000d\u007f', 'a\ufffdb\ufffdc\ufffdd\ufffd'],
    ['NEL and line separators', 'a\u0085b\u2028c', 'a b c'],
    ['right-to-left override', '\u202egnp.exe', 'gnp.exe'],
    ['isolates and marks', '\u2067a\u2069\u200fb\u200e', 'ab'],
    ['a lone surrogate', 'a\ud800b', 'a\ufffdb'],
  ])('removes %s', (_label, input, output) => {
    expect(terminalText(input)).toBe(output);
  });

  it.each([
    'Acme plan',
    'مرحبا بالعالم',
    'שלום',
    '漢字の計画',
    '👩‍👩‍👧 family',
    'é (e + combining acute: e\u0301)',
    'zero\u200bwidth\u200cjoiners\u200d',
    '<script>alert(1)</script>',
    '🇫🇷',
  ])('keeps ordinary text of any script: %s', (text) => {
    expect(terminalText(text)).toBe(text);
  });

  it('leaves nothing a terminal acts on in any string of the hostile corpus', () => {
    const corpus = resolve(fileURLToPath(new URL('../../../', import.meta.url)), '../shared/corpus');
    const hostile = JSON.parse(
      readFileSync(resolve(process.env.PLANWRIGHT_CORPUS_DIR ?? corpus, 'hostile-strings/blns.json'), 'utf8'),
    ) as string[];
    expect(hostile.length).toBeGreaterThan(500);
    for (const value of hostile) {
      expect(hasTerminalControl(terminalText(value)), JSON.stringify(value)).toBe(false);
    }
  });

  it('keeps lines apart in terminalLines', () => {
    expect(terminalLines('one\r\ntwo\n\u001b[2Kthree')).toEqual(['one', 'two', 'three']);
  });
});

describe('formatTable', () => {
  it('aligns columns by display width and makes every cell safe', () => {
    const rows = [
      { a: 'x', b: 'one' },
      { a: '漢字\u001b[2J', b: 'two\rthree' },
    ];
    expect(
      formatTable(
        [
          { header: 'A', value: (row: { a: string; b: string }) => row.a },
          { header: 'B', value: (row) => row.b },
        ],
        rows,
      ),
    ).toEqual(['A     B', 'x     one', '漢字  two three']);
  });
});

describe('formatTimestamp', () => {
  it('prints times in UTC, and other text made safe', () => {
    expect(formatTimestamp('2026-11-22T10:05:30.123+02:00')).toBe('2026-11-22 08:05 UTC');
    expect(formatTimestamp('yesterday\u001b[2J')).toBe('yesterday');
    expect(formatTimestamp(null)).toBe('-');
  });
});
