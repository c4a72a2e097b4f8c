import { createRequire } from 'node:module';

type Tokenizer = typeof import('gpt-tokenizer');
let tokenizer: Tokenizer | undefined;
let sharedDecoder: import('node:util').TextDecoder | undefined;
/**
 * gpt-tokenizer, loaded at its first use: its tables take a quarter of a second to load, which a server
 * start should not wait for (bench/server-cold-start.mjs).
 */
function loaded(): Tokenizer {
  if (!tokenizer) {
    const require = createRequire(import.meta.url);
    tokenizer = require('gpt-tokenizer') as Tokenizer;
    // The one TextDecoder its decode uses, in streaming mode, for every text (see decodeHead).
    sharedDecoder = (
      require('gpt-tokenizer/BytePairEncodingCore') as { decoder: import('node:util').TextDecoder }
    ).decoder;
  }
  return tokenizer;
}

/**
 * Token counts with gpt-tokenizer's o200k_base encoding (OpenAI's GPT-4o/4.1 family). For Anthropic,
 * Llama and other models it is an estimate: their tokenizers differ, usually by well under 20 %.
 */
export const TOKEN_ENCODING = 'o200k_base';

// Text from users and models may spell `<|endoftext|>`: it is counted as text, never as a special token.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The longest run without whitespace handed to the tokenizer in one piece. Byte-pair encoding a long run
 * costs time quadratic in its length (100,000 × "x" takes 8 s, a pasted base64 blob as long), so a longer
 * run is cut into pieces this long: the count may differ by a token per cut, and decoding the pieces' tokens
 * gives the text back exactly.
 */
const LONGEST_RUN = 200;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g');
const HAS_LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1}}`);

/** `text` as pieces the tokenizer handles in linear time (see {@link LONGEST_RUN}). */
export function tokenizerPieces(text: string): string[] {
  if (!HAS_LONG_RUN.test(text)) return [text];
  const pieces: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const run = match[0];
    if (match.index > last) pieces.push(text.slice(last, match.index));
    let start = 0;
    while (start < run.length) {
      let end = Math.min(run.length, start + LONGEST_RUN);
      // Never between the two halves of a surrogate pair: each piece must be whole characters.
      const code = run.charCodeAt(end - 1);
      if (end < run.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
      pieces.push(run.slice(start, end));
      start = end;
    }
    last = match.index + run.length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

function countPieces(text: string): number {
  let total = 0;
  for (const piece of tokenizerPieces(text)) total += loaded().countTokens(piece, AS_TEXT);
  return total;
}

/** Counts of recent texts: a chat's turns count the same prompts, outline and section text again and again. */
const recentCounts = new Map<string, number>();
const RECENT_COUNTS_LIMIT = 512;
/** Texts shorter than this are counted again rather than kept. */
const CACHED_TEXT_MIN_LENGTH = 256;

/** How many tokens `text` is (o200k_base, see {@link TOKEN_ENCODING}). */
export function countTokens(text: string): number {
  if (text === '') return 0;
  if (text.length < CACHED_TEXT_MIN_LENGTH) return countPieces(text);
  const known = recentCounts.get(text);
  if (known !== undefined) {
    // Refreshed as the most recent entry, so the oldest is the first to go.
    recentCounts.delete(text);
    recentCounts.set(text, known);
    return known;
  }
  const counted = countPieces(text);
  recentCounts.set(text, counted);
  if (recentCounts.size > RECENT_COUNTS_LIMIT) {
    const oldest = recentCounts.keys().next().value;
    if (oldest !== undefined) recentCounts.delete(oldest);
  }
  return counted;
}

/** The tokens of `text`, for cutting it at a token count without counting again. */
export function encodeTokens(text: string): number[] {
  return tokenizerPieces(text).flatMap((piece) => (piece === '' ? [] : loaded().encode(piece, AS_TEXT)));
}

/** The text of the first `max` tokens; a character cut in half at the end is left out. */
export function decodeHead(tokens: readonly number[], max: number): string {
  if (max <= 0) return '';
  const decode = loaded().decode;
  // gpt-tokenizer decodes with one TextDecoder in streaming mode and never flushes it: a text cut inside a
  // character leaves that character's first bytes in it, and the next decode would start with U+FFFD. Flushed
  // (and the bytes dropped) before each decode.
  sharedDecoder?.decode();
  return decode(tokens.slice(0, max)).replace(/\uFFFD+$/, '');
}

// Any UUID (sections, subsections, tool calls): its tokens are estimated, as hex is slow to encode.
const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A random UUID's tokens in o200k_base: 22.7 on average over 20,000 (at most 31). */
export const UUID_TOKENS = 23;

/**
 * Estimated tokens of each of `pieces`, from one count of them all: each call of the tokenizer costs
 * about 20 µs however short the text, so thousands of outline lines are counted as one text and the
 * count shared out by length. UUIDs count {@link UUID_TOKENS} each. Used to plan cuts; the assembled
 * parts are counted for real afterwards.
 */
export function estimatePieces(pieces: readonly string[]): number[] {
  if (pieces.length === 0) return [];
  const uuids = new Array<number>(pieces.length).fill(0);
  const stripped = pieces.map((piece, index) =>
    piece.replace(UUID_PATTERN, () => {
      uuids[index] = (uuids[index] as number) + 1;
      return 'U';
    }),
  );
  const total = countTokens(stripped.join('\n'));
  let length = 0;
  for (const piece of stripped) length += piece.length + 1;
  // Rounded up, so the estimates add up to at least the count.
  return stripped.map(
    (piece, index) =>
      Math.ceil((total * (piece.length + 1)) / length) + (uuids[index] as number) * (UUID_TOKENS - 1),
  );
}
