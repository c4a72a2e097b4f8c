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
