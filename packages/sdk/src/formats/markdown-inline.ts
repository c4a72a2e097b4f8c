import type { HardBreakJson, InlineJson, LinkAttrs, MarkJson, TextJson } from '../model/document-json.js';
import { isAllowedLinkHref } from '../model/link-href.js';
import {
  type CharClass,
  charClass,
  firstCodePoint,
  type HtmlTagMark,
  lastCodePoint,
  MARK_HTML_TAGS,
  markdownParser,
} from './markdown-syntax.js';

/**
 * Inline Markdown out: escaping, marks as `**`, `*`, `~~` where CommonMark's flanking rules let them
 * open and close, else as `<strong>`, `<em>`, `<s>`; underline always `<u>`; links, code spans and
 * hard breaks. Private to `src/formats` (F13–F22).
 */

/** Characters that mean something somewhere in inline Markdown are always backslash-escaped in text. */

/** Characters JavaScript's `trim()` (which markdown-it applies to paragraphs and headings) removes. */
const TRIMMED = /\s/;

/** A character as a numeric character reference, which CommonMark decodes back into it. */
function reference(char: string): string {
  return `&#${char.codePointAt(0) ?? 0};`;
}

const TEXT_SPECIALS = /[\\`*_[\]<>#~&\n\r]/g;

function escapeSpecial(char: string): string {
  return char === '\n' ? '&#10;' : char === '\r' ? '&#13;' : `\\${char}`;
}

/**
 * Text the importer would read as an autolink (F5a) with its `.`, `:`, `@` backslash-escaped: an escaped
 * character is a token of its own, so linkify no longer sees a URL, and the text reads back as written.
 * markdown-it looks twice: at every `scheme:` (any prefix) and over each run of text between escapes.
 */
function escapeAutolinks(escaped: string): string {
  const linkify = markdownParser().linkify;
  const schemes = escaped.replace(AUTOLINK_SCHEME, '$1\\:');
  if (!linkify.pretest(schemes)) return schemes;
  return schemes
    .split(ESCAPE_SEQUENCE)
    .map((segment, index) => {
      if (index % 2 === 1) return segment;
      const matches = linkify.match(segment);
      if (matches === null) return segment;
      let out = '';
      let at = 0;
      for (const match of matches) {
        out +=
          segment.slice(at, match.index) +
          segment.slice(match.index, match.lastIndex).replace(/[.:@]/g, '\\$&');
        at = match.lastIndex;
      }
      return out + segment.slice(at);
    })
    .join('');
}

/** The schemes linkify reads after any character (`x=http://…`), their `:` not yet escaped. */
const AUTOLINK_SCHEME = /(https?|ftp|mailto):/gi;

/** A backslash escape or a character reference: a token of its own, which splits linkify's text. */
const ESCAPE_SEQUENCE = /(\\[\s\S]|&#\d+;)/;

/** Escapes text so CommonMark reads it back as the same text (line starts are fixed later). */
export function escapeText(text: string, inLink = false): string {
  const special = TEXT_SPECIALS.test(text) ? text.replace(TEXT_SPECIALS, escapeSpecial) : text;
  TEXT_SPECIALS.lastIndex = 0;
  // Inside a link's text markdown-it does not look for autolinks.
  const escaped = inLink ? special : escapeAutolinks(special);
  // `!` just before a link's `[` would make it an image.
  return escaped.endsWith('!') ? `${escaped.slice(0, -1)}\\!` : escaped;
}

/**
 * A code span: a backtick fence longer than any run inside, padded with a space on each side when an
 * edge would be misread (markdown-it strips one space from each end of `/^ (.+) $/`). Content that
 * needs padding but holds U+2028 or U+2029 (which `.` does not match, so the padding would stay) is
 * written as plain text instead (F17).
 */
export function codeSpan(text: string): string {
  const content = text.replace(/[\r\n]/g, ' ');
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = content.startsWith('`') || content.endsWith('`') || /^ (.+) $/.test(content);
  if (!pad) return `${fence}${content}${fence}`;
  return /[\u2028\u2029]/.test(content) ? escapeText(content) : `${fence} ${content} ${fence}`;
}

/** A link destination: bare when it is plain, else in `<…>` with its special characters escaped. */
export function linkDestination(href: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters cannot stand in a destination.
  const encoded = href.replace(/[\u0000-\u001f\u007f]/g, (char) => encodeURIComponent(char));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: see above.
  if (/^[^\s<>()\\&\u0000-\u001f\u007f]+$/.test(encoded)) return encoded;
  return `<${encoded.replace(/[\\<>&]/g, '\\$&')}>`;
}

/** A link title in double quotes. */
export function linkTitle(title: string): string {
  return `"${title
    .replace(/[\\"&]/g, '\\$&')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')}"`;
}

/**
 * Makes every line of rendered inline content read back as that content: characters that would start
 * a block (`-`, `+`, `=`, `1.`) are escaped, and whitespace at the edges (which CommonMark strips) is
 * written as character references. `lineStarts` is false for headings (they follow `### `).
 */
export function protectLines(rendered: string, lineStarts: boolean): string {
  if (rendered === '') return rendered;
  const lines = rendered.includes('\n') ? rendered.split('\n') : [rendered];
  for (let index = 0; index < lines.length; index += 1) {
    let line = lines[index] as string;
    const first = line.charAt(0);
    // U+000B has no character reference CommonMark accepts, so it is left as it is (F21).
    if (
      line !== '' &&
      first !== '\v' &&
      (first === ' ' || first === '\t' || (index === 0 && TRIMMED.test(first)))
    ) {
      line = reference(first) + line.slice(1);
    } else if (lineStarts) {
      if (first === '-' || first === '+' || first === '=') line = `\\${line}`;
      else line = line.replace(/^(\d+)([.)])/, '$1\\$2');
    }
    const last = index === lines.length - 1;
    // Hard break lines end in a backslash; whitespace before it, or at the very end, is stripped.
    const end = last ? line.length : line.length - 1;
    const before = line.charAt(end - 1);
    if (end > 0 && before !== '\v' && (before === ' ' || before === '\t' || (last && TRIMMED.test(before)))) {
      line = line.slice(0, end - 1) + reference(before) + line.slice(end);
    }
    lines[index] = line;
  }
  return lines.length === 1 ? (lines[0] as string) : lines.join('\n');
}

type Leaf = TextJson | HardBreakJson;

/** The Markdown delimiters of the marks that have one. */
const DELIMITERS: Readonly<Record<string, string>> = { bold: '**', italic: '*', strike: '~~' };

/** A mark's identity: two links are the same mark only with the same href and title. */
function markKey(mark: MarkJson): string {
  return mark.type === 'link' ? `link\u0000${mark.attrs.href}\u0000${mark.attrs.title ?? ''}` : mark.type;
}

interface Context {
  /** Whether the content ends the paragraph (a last hard break is written `<br>`). */
  readonly breaksAsHtml: boolean;
}

const NO_MARKS: ReadonlyMap<string, MarkJson> = new Map();

class InlineWriter {
  private readonly keys: ReadonlyMap<string, MarkJson>[];

  constructor(
    private readonly leaves: readonly Leaf[],
    private readonly context: Context,
  ) {
    this.keys = leaves.map((leaf) => {
      if (leaf.marks === undefined || leaf.marks.length === 0) return NO_MARKS;
      const map = new Map<string, MarkJson>();
      for (const mark of leaf.marks) if (mark.type !== 'code') map.set(markKey(mark), mark);
      return map;
    });
  }

  /**
   * Renders leaves [from, to) with `open` marks already applied around them. `before` is what precedes
   * the range (its last characters are enough), `after` the class of what follows it.
   */
  render(from: number, to: number, open: readonly string[], before: string, after: CharClass): string {
    let out = '';
    // The last characters written, kept apart so the growing output is never flattened to read them.
    let tail = before;
    let index = from;
    while (index < to) {
      const keys = this.keys[index] as ReadonlyMap<string, MarkJson>;
      let best: string | undefined;
      let bestEnd = index;
      for (const key of keys.keys()) {
        if (open.includes(key)) continue;
        let end = index + 1;
        while (end < to && this.keys[end]?.has(key)) end += 1;
        if (end > bestEnd) {
          best = key;
          bestEnd = end;
        }
      }
      let piece: string;
      if (best === undefined) {
        piece = this.leaf(index);
        index += 1;
      } else {
        const mark = keys.get(best) as MarkJson;
        // '!' stands for the parent's opener: punctuation, never a delimiter character.
        const inner = this.render(index, bestEnd, [...open, best], '!', 'punct');
        const next = bestEnd < to ? this.firstClass(bestEnd, open) : after;
        piece = this.wrap(mark, inner, tail, next);
        index = bestEnd;
      }
      out += piece;
      tail = piece.length >= 2 ? piece.slice(-2) : tail.slice(-1) + piece;
    }
    return out;
  }

  /** The class of the first character the leaf at `index` (or the span it starts) is written with. */
  private firstClass(index: number, open: readonly string[]): CharClass {
    const keys = this.keys[index] as ReadonlyMap<string, MarkJson>;
    for (const key of keys.keys()) if (!open.includes(key)) return 'punct';
    const leaf = this.leaves[index] as Leaf;
    // A hard break (`\` or `<br>`), a code span (a backtick) and an escaped character all start with punctuation.
    if (leaf.type === 'hardBreak' || leaf.marks?.some((mark) => mark.type === 'code')) return 'punct';
    const text = typeof leaf.text === 'string' ? leaf.text : '';
    // Line ends in text are written as character references, which start with `&`.
    if (text.startsWith('\n') || text.startsWith('\r')) return 'punct';
    return charClass(firstCodePoint(text));
  }

  private leaf(index: number): string {
    const leaf = this.leaves[index] as Leaf;
    if (leaf.type === 'hardBreak') {
      return this.context.breaksAsHtml || index === this.leaves.length - 1 ? '<br>' : '\\\n';
    }
    const text = typeof leaf.text === 'string' ? leaf.text : '';
    if (leaf.marks?.some((mark) => mark.type === 'code')) return codeSpan(text);
    return escapeText(
      text,
      leaf.marks?.some((mark) => mark.type === 'link' && isAllowedLinkHref(mark.attrs?.href)),
    );
  }

  private wrap(mark: MarkJson, inner: string, previous: string, next: CharClass): string {
    if (mark.type === 'link') return this.link(mark.attrs, inner);
    if (mark.type === 'underline') return htmlWrap('underline', inner);
    const delimiter = DELIMITERS[mark.type as string];
    // A mark the model does not know (a tree that skipped normalisation) leaves its text plain.
    if (delimiter === undefined || mark.type === 'code') return inner;
    const char = delimiter.charAt(0);
    const first = firstCodePoint(inner);
    const last = lastCodePoint(inner);
    const before = charClass(lastCodePoint(previous));
    const firstClass = charClass(first);
    const lastClass = charClass(last);
    const opens = firstClass !== 'space' && (firstClass !== 'punct' || before !== 'other');
    const closes = lastClass !== 'space' && (lastClass !== 'punct' || next !== 'other');
    const clash = inner.startsWith(char) || inner.endsWith(char) || previous.endsWith(char);
    if (opens && closes && !clash) return `${delimiter}${inner}${delimiter}`;
    return htmlWrap(mark.type as HtmlTagMark, inner);
  }

  private link(attrs: LinkAttrs | undefined, inner: string): string {
    const href = typeof attrs?.href === 'string' ? attrs.href : '';
    if (!isAllowedLinkHref(href)) return inner;
    const title = typeof attrs?.title === 'string' && attrs.title !== '' ? ` ${linkTitle(attrs.title)}` : '';
    return `[${inner}](${linkDestination(href)}${title})`;
  }
}

function htmlWrap(mark: HtmlTagMark, inner: string): string {
  const tag = MARK_HTML_TAGS[mark];
  return `<${tag}>${inner}</${tag}>`;
}

/**
 * The Markdown of a paragraph's or heading's content, with lines protected (see {@link protectLines}).
 * Headings write hard breaks as `<br>` (an ATX heading is one line); so does a paragraph's last one
 * (CommonMark ignores a backslash break at the end of a block).
 */
export function inlineMarkdown(content: readonly InlineJson[] | undefined, heading: boolean): string {
  const leaves = (content ?? []).filter((node) => node.type === 'text' || node.type === 'hardBreak');
  if (leaves.length === 0) return '';
  const writer = new InlineWriter(leaves, { breaksAsHtml: heading });
  return protectLines(writer.render(0, leaves.length, [], '', 'space'), !heading);
}
