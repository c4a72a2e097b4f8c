/**
 * Text from the server (titles, descriptions, names: anyone's, for marketplace blueprints) is printed
 * to a terminal, which obeys escape sequences: `\x1b[2J` clears the screen, `\x1b]8;;…` makes a link,
 * `\r` overwrites the line, U+202E turns the rest of the line around. So nothing from outside reaches
 * the terminal as it is: escape sequences are removed, other control characters become visible, and
 * bidirectional controls are dropped. Letters of any script, emoji and zero-width joiners are kept.
 */

/**
 * ECMA-48 sequences: CSI (`ESC [` or 8-bit `\x9b`, parameters, final byte), OSC/DCS/SOS/PM/APC strings
 * up to BEL or `ESC \` (or the end of the text), and the two-character `ESC x` forms.
 */
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\u001b[\]PX^_]|[\u0090\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -~]?/g;

/** Bidirectional embeddings, overrides, isolates and marks: they reorder what follows on the line. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Line and tab characters, which would break a table row or a field. */
const LINE_BREAK = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/** Every other C0/C1 control, DEL, and unpaired surrogates. */
const OTHER_CONTROL = /[\p{Cc}\p{Cs}]/gu;

/** What a removed control character is shown as, so tampering stays visible. */
const REPLACEMENT = '\ufffd';

/**
 * `text` made safe to print on one line of a terminal: escape sequences removed, line breaks and tabs
 * turned into spaces, other control characters (and lone surrogates) shown as U+FFFD, bidirectional
 * controls removed.
 */
export function terminalText(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(BIDI_CONTROL, '')
    .replace(LINE_BREAK, ' ')
    .replace(OTHER_CONTROL, REPLACEMENT);
}

/** Like {@link terminalText}, but keeps line breaks (as `\n`) for multi-line fields such as descriptions. */
export function terminalLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u0085\u2028\u2029]/).map(terminalText);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Zero width: combining marks (variation selectors among them) and format characters (zero-width space/joiners, BOM). */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]+$/u;
/** Emoji shown as pictures (two columns); `©` and other text-style pictographs stay one column. */
const EMOJI = /\p{Emoji_Presentation}|\u{fe0f}|\p{Regional_Indicator}/u;

/** East Asian Wide and Fullwidth ranges (Unicode 15 EastAsianWidth W/F, merged where adjacent). */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  return WIDE_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);
}

/** Columns one grapheme takes in a terminal: 0, 1 or 2. */
function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  const first = grapheme.codePointAt(0) ?? 0;
  return isWide(first) ? 2 : 1;
}

/** How many terminal columns `text` (already made safe) takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/**
 * `text` cut to at most `width` columns, ending in `…` when cut. Cuts only between graphemes, so an
 * emoji sequence, a letter with its accents or a surrogate pair is never split.
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let result = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const next = graphemeWidth(segment);
    if (used + next > width - 1) break;
    result += segment;
    used += next;
  }
  return `${result}…`;
}

/** `text` padded with spaces to `width` columns (by display width, not string length). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
