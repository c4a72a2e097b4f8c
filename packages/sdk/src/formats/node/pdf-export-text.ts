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

/** The longest run without a break that pdfmake lays out as one piece (a full line holds about 90). */
export const MAX_UNBROKEN_PIECE = 64;

/**
 * `text` cut into pieces so that no run of non-space characters in one piece is longer than `max`:
 * pdfmake glues the pieces back together (no break, no added character, so the page looks the same),
 * but it measures and hard-wraps each piece on its own. One 80,000-character word as a single piece is
 * re-measured whole for every line it fills (quadratic: 14 s); as pieces it is linear.
 */
export function unbrokenPieces(text: string, max = MAX_UNBROKEN_PIECE): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let start = 0;
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    // Spaces and line breaks are where pdfmake breaks by itself.
    if (unit === 0x20 || unit === 0x0a) {
      run = 0;
      continue;
    }
    run += 1;
    // Never between the halves of a surrogate pair.
    const splitsPair = unit >= 0xdc00 && unit <= 0xdfff;
    if (run > max && !splitsPair) {
      pieces.push(text.slice(start, index));
      start = index;
      run = 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}
