import stringWidth from 'string-width';

/**
 * Widths in terminal columns, by `string-width` (East Asian Wide and Fullwidth letters and emoji take
 * two, combining marks and zero-width characters none). It costs tens of milliseconds to load (its
 * emoji expression is compiled at import), so only the table and field views import this module, never
 * `--help`, `--version` or the error handler (test/binary.test.ts checks).
 *
 * Measure text already made safe by `terminalText`: what a terminal would act on has no width here.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many terminal columns `text` takes. */
export function displayWidth(text: string): number {
  return stringWidth(text);
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
    const next = stringWidth(segment);
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
