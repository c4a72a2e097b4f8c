import MarkdownIt, { type Options } from 'markdown-it';

/**
 * What the Markdown importer and exporter agree on: the parser, the inline HTML tags that stand for
 * marks, and the character classes CommonMark's emphasis rules use. Private to `src/formats`.
 */

/** Nesting limit of the parser: the model allows 64 levels, and every list level costs two. */
const MAX_MARKDOWN_NESTING = 140;

let parser: MarkdownIt | undefined;

/**
 * CommonMark plus `~~strike~~`, with link hrefs left exactly as written (markdown-it would
 * percent-encode and punycode them, and drop `javascript:` links as text): the importer checks them
 * with `isAllowedLinkHref` instead, so a refused link keeps its text and is reported.
 */
export function markdownParser(): MarkdownIt {
  if (parser === undefined) {
    // `maxNesting` is a real markdown-it option that its type definitions leave out.
    const options: Options & { maxNesting: number } = { maxNesting: MAX_MARKDOWN_NESTING };
    const md = new MarkdownIt('commonmark', options);
    md.enable('strikethrough');
    md.validateLink = () => true;
    md.normalizeLink = (url) => url;
    md.normalizeLinkText = (url) => url;
    // GFM's autolinks (bare `https://…`, `www.…`, e-mail addresses) become links (F5a). `//host` and IP
    // addresses are left as text: GFM does not link them, and the exporter escapes whatever this matches.
    md.set({ linkify: true });
    md.enable(['linkify']);
    md.linkify.set({ fuzzyIP: false });
    md.linkify.add('//', null);
    parser = md;
  }
  return parser;
}

/** The marks written as inline HTML tags: underline always, the others when `*` or `~~` cannot be used. */
export type HtmlTagMark = 'bold' | 'italic' | 'underline' | 'strike';

/** The tag the exporter writes for each mark. */
export const MARK_HTML_TAGS: Readonly<Record<HtmlTagMark, string>> = {
  bold: 'strong',
  italic: 'em',
  underline: 'u',
  strike: 's',
};

/** Tags the importer reads as marks (the ones written above and their common synonyms). */
const TAG_MARKS: Readonly<Record<string, HtmlTagMark>> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strike',
  del: 'strike',
  strike: 'strike',
};

/** What an inline HTML tag means to the importer. */
export type InlineTagMeaning =
  | { kind: 'open'; mark: HtmlTagMark }
  | { kind: 'close'; mark: HtmlTagMark }
  | { kind: 'hardBreak' }
  | { kind: 'other' };

const SIMPLE_TAG = /^<(\/?)([A-Za-z]+)\s*(\/?)>$/;

/** Reads one `html_inline` token: a mark tag, a `<br>`, or anything else (dropped). */
export function inlineTagMeaning(html: string): InlineTagMeaning {
  const match = SIMPLE_TAG.exec(html);
  if (match === null) return { kind: 'other' };
  const [, closing, rawName, selfClosing] = match;
  const name = (rawName ?? '').toLowerCase();
  if (name === 'br' && closing === '') return { kind: 'hardBreak' };
  const mark = TAG_MARKS[name];
  if (mark === undefined || selfClosing === '/') return { kind: 'other' };
  return closing === '/' ? { kind: 'close', mark } : { kind: 'open', mark };
}

/** How CommonMark's emphasis rules see a character next to a delimiter run. */
export type CharClass = 'space' | 'punct' | 'other';

/** The class of a code point, as markdown-it's `scanDelims` judges it (line ends count as space). */
export function charClass(code: number | undefined): CharClass {
  if (code === undefined) return 'space';
  const utils = markdownParser().utils;
  if (utils.isWhiteSpace(code)) return 'space';
  if (utils.isMdAsciiPunct(code) || utils.isPunctCharCode(code)) return 'punct';
  return 'other';
}

/** The first code point of a string (a lone surrogate reads as U+FFFD, as markdown-it reads it). */
export function firstCodePoint(text: string): number | undefined {
  if (text === '') return undefined;
  const code = text.codePointAt(0) ?? 0;
  return code >= 0xd800 && code <= 0xdfff ? 0xfffd : code;
}

/** The last code point of a string (a lone surrogate reads as U+FFFD). */
export function lastCodePoint(text: string): number | undefined {
  if (text === '') return undefined;
  const low = text.charCodeAt(text.length - 1);
  if (low >= 0xdc00 && low <= 0xdfff && text.length > 1) {
    const high = text.charCodeAt(text.length - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(text.length - 2);
  }
  return low >= 0xd800 && low <= 0xdfff ? 0xfffd : low;
}
