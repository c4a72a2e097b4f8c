/**
 * Text the PDF standard fonts can draw. Helvetica and Courier (two of the standard 14, built into every
 * PDF reader, so nothing is embedded or downloaded) only cover the WinAnsi character set; pdfkit writes
 * anything else as garbage codes. So every other character is replaced before layout (F75).
 */

/** What a character no standard font can draw becomes. */
export const REPLACEMENT_CHARACTER = '?';

// The WinAnsi (Windows-1252) characters in 0x80–0x9F, beside printable ASCII and Latin-1.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

// Near lookalikes inside WinAnsi, so common typography survives.
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Latin letters with strokes have no decomposition to a base letter.
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ŧ: 't',
  Ŧ: 'T',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '–',
  '\u2015': '—',
  '\u2032': "'",
  '\u2033': '"',
  '\u2212': '-',
  '\u2190': '<-',
  '\u2192': '->',
  '\u2194': '<->',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
};

// Zero-width, bidi and other invisible format characters (variation selectors are marks, see COMBINING).
const INVISIBLE =
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/u;
const COMBINING = /\p{M}/u;

function isWinAnsi(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(character);
}

function replacementOf(character: string): string {
  const lookalike = LOOKALIKES[character];
  if (lookalike !== undefined) return lookalike;
  const code = character.codePointAt(0) ?? 0;
  // Other spaces become a plain one; other controls and invisible characters vanish.
  if (/\p{Zs}/u.test(character)) return ' ';
  if (
    code < 0x20 ||
    (code >= 0x7f && code < 0xa0) ||
    INVISIBLE.test(character) ||
    COMBINING.test(character)
  ) {
    return '';
  }
  // A letter with accents WinAnsi lacks (ą, ő, ș) keeps its base letter.
  const base = Array.from(character.normalize('NFKD'))
    .filter((part) => !COMBINING.test(part))
    .join('');
  if (base !== '' && base !== character && Array.from(base).every(isWinAnsi)) return base;
  return REPLACEMENT_CHARACTER;
}

/**
 * `text` with every character Helvetica and Courier cannot draw replaced: lookalikes where WinAnsi has
 * one, base letters for accented ones, nothing for controls and invisible characters, `?` otherwise
 * (one per code point, so an emoji is one `?`). A tab becomes four spaces; newlines are kept. Never throws.
 */
export function standardFontText(text: string): string {
  let out = '';
  for (const character of text) {
    if (character === '\n') out += '\n';
    else if (character === '\t') out += '    ';
    else if (character === '\r') continue;
    else out += isWinAnsi(character) ? character : replacementOf(character);
  }
  return out;
}
