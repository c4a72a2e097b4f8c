import Token from 'markdown-it/lib/token.mjs';
import { FormatError } from '../errors/format-error.js';
import { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES } from '../model/document-json.js';
import { isAllowedLinkHref } from '../model/link-href.js';
import { normalizeDocument } from '../model/normalize-document.js';
import { assertImportText, type FormatImportOptions } from './import-options.js';
import { counted, ImportNotes, type ImportResult, UNTITLED_IMPORT_SECTION } from './import-report.js';
import { type HtmlTagMark, inlineTagMeaning, markdownParser } from './markdown-syntax.js';

/** Longest Markdown text read, in UTF-16 code units (16 MiB): far past what 100,000 nodes can hold. */
export const MAX_MARKDOWN_LENGTH = 16 * 1024 * 1024;

/** Model depth of a block in a section or subsection body (doc 0, section 1, subsection 2). */
const TOP_BLOCK_DEPTH = 3;

/** Deepest block the importer builds: its text is one level deeper, within the model's 64 (M4). */
const MAX_BLOCK_DEPTH = MAX_DOCUMENT_DEPTH - 2;

/** A node of the loose tree handed to `normalizeDocument`. */
interface LooseNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: LooseNode[];
  text?: string;
  marks?: LooseMark[];
}

interface LooseMark {
  type: string;
  attrs?: Record<string, unknown>;
}

interface LinkState {
  href: string;
  title: string | null;
}

/** YAML front matter: `---` on the very first line, a non-blank line, and a closing `---` or `...`. */
const FRONT_MATTER = /^---[ \t]*\r?\n(?![ \t]*\r?\n)[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** A GFM task list item's checkbox at the start of its first paragraph's source. */
const TASK_BOX = /^\[([ xX])\](?:[ \t]|$)/;

/** A Markdown footnote reference `[^label]` (definitions start a line with one followed by `:`). */
const FOOTNOTE_REFERENCE = /\[\^[^\]\s]{1,200}\]/g;
const FOOTNOTE_DEFINITION_LINE = /^\\?\[\^[^\]\s]{1,200}\]:/gm;

/** A footnote definition at the start of a line outside code: read as text, not as a link definition. */
const FOOTNOTE_DEFINITION_START = /^( {0,3})\[\^([^\]\s]{1,200})\]:/;

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const HTML_RAW_TEXT = /<(script|style|textarea|title)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;
const HTML_TAG = /<\/?[A-Za-z!?][^>]*>?/g;

class MarkdownReader {
  readonly notes = new ImportNotes();
  private nodes = 0;
  /** Level-1 and level-2 headings inside quotes and lists (they become levels 3 and 4). */
  nestedHeadings = 0;
  /** Titles whose marks were dropped. */
  titleFormatting = 0;
  /** Quotes and lists nested too deep for the model, replaced by their content. */
  flattened = 0;
  private htmlBlocks = 0;
  private htmlTags = 0;
  /** The front matter's title, when the file has no level-1 heading: the one section's title (F7d). */
  untitledTitle = '';
  private footnoteDefinitions = 0;
  private footnoteReferences = 0;
  /** Images and inline tags dropped so far: a paragraph left blank by them is left out. */
  private droppedInline = 0;
  /** Closed comments inside raw HTML blocks that had text: dropped with it, and said so. */
  private htmlComments = 0;
  /** Comments opened with `<!--` and never closed, whose text was read as Markdown instead (F7a). */
  private unclosedComments = 0;

  private count(): void {
    this.nodes += 1;
    if (this.nodes > MAX_DOCUMENT_NODES) {
      throw new FormatError({
        reason: 'too_large',
        message: `The Markdown file is too large: a document holds at most ${MAX_DOCUMENT_NODES} nodes.`,
      });
    }
  }

  /** The whole token stream: level-1 and level-2 headings at the top make sections and subsections. */
  read(tokens: Token[]): LooseNode {
    const sections: LooseNode[] = [];
    let section: LooseNode | undefined;
    let subsection: LooseNode | undefined;
    const currentSection = (): LooseNode => {
      if (section === undefined && this.untitledTitle !== '') {
        section = this.structural('section', 'sectionHeading', this.untitledTitle);
        sections.push(section);
      }
      if (section === undefined) {
        section = this.structural('section', 'sectionHeading', UNTITLED_IMPORT_SECTION);
        sections.push(section);
        this.notes.add(
          'untitled_section_added',
          () =>
            `Content before the first level-1 heading went into a section titled "${UNTITLED_IMPORT_SECTION}".`,
        );
      }
      return section;
    };
    const target = (): LooseNode[] => {
      const parent = subsection ?? currentSection();
      parent.content ??= [];
      return parent.content;
    };

    let index = 0;
    while (index < tokens.length) {
      const token = tokens[index] as Token;
      if (token.type === 'heading_open' && (token.tag === 'h1' || token.tag === 'h2')) {
        const title = this.titleText(tokens[index + 1]);
        index += 3;
        if (token.tag === 'h1') {
          section = this.structural('section', 'sectionHeading', title);
          subsection = undefined;
          sections.push(section);
        } else {
          const parent = currentSection();
          subsection = this.structural('subsection', 'subsectionHeading', title);
          parent.content?.push(subsection);
        }
        continue;
      }
      if (token.type === 'html_block' && this.reopenUnclosedComment(tokens, index)) continue;
      const [blocks, next] = this.readBlock(tokens, index, TOP_BLOCK_DEPTH);
      index = next;
      if (blocks.length > 0) append(target(), blocks);
    }
    return { type: 'doc', content: sections };
  }

  private structural(type: string, headingType: string, title: string): LooseNode {
    this.count();
    this.count();
    const heading: LooseNode = { type: headingType };
    if (title !== '') heading.content = [{ type: 'text', text: title }];
    return { type, content: [heading] };
  }

  /** Reads the block starting at `index`; returns its nodes (none, one, or a paragraph from HTML) and the next index. */
  private readBlock(tokens: Token[], index: number, depth: number): [LooseNode[], number] {
    const token = tokens[index] as Token;
    switch (token.type) {
      case 'paragraph_open': {
        const inline = tokens[index + 1];
        const dropped = this.droppedInline;
        if (inline?.content.includes('[^')) this.noteFootnotes(inline.content);
        const content = this.inlineContent(inline);
        // A paragraph that held only images (or dropped tags) would be an empty or space-only one (F7b).
        if (this.droppedInline > dropped && isBlankInline(content)) return [[], index + 3];
        this.count();
        return [[{ type: 'paragraph', content }], index + 3];
      }
      case 'heading_open': {
        const inline = tokens[index + 1];
        const rank = Number.parseInt(token.tag.slice(1), 10);
        if (rank <= 2) this.nestedHeadings += 1;
        if (rank > 4) {
          this.notes.add(
            'heading_demoted',
            (count) => `${counted(count, 'heading')} of level 5 or 6 became level 4.`,
          );
        }
        const level = rank === 3 || rank === 1 ? 3 : 4;
        this.count();
        return [[{ type: 'heading', attrs: { level }, content: this.inlineContent(inline) }], index + 3];
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const close = token.type === 'bullet_list_open' ? 'bullet_list_close' : 'ordered_list_close';
        // Past the model's depth the list gives way to its items' blocks, so their text is kept (F11).
        const flatten = depth + 2 > MAX_BLOCK_DEPTH;
        const items: LooseNode[] = [];
        let cursor = index + 1;
        while (cursor < tokens.length && tokens[cursor]?.type !== close) {
          if (tokens[cursor]?.type === 'list_item_open') {
            const [content, next] = this.readContainer(
              tokens,
              cursor + 1,
              'list_item_close',
              flatten ? depth : depth + 2,
            );
            this.taskItem(tokens, cursor + 1, content);
            if (flatten) {
              append(items, content);
            } else {
              this.count();
              items.push({ type: 'listItem', content });
            }
            cursor = next;
          } else {
            cursor += 1;
          }
        }
        if (flatten) {
          this.flattened += 1;
          return [items, cursor + 1];
        }
        this.count();
        const node: LooseNode =
          token.type === 'bullet_list_open'
            ? { type: 'bulletList', content: items }
            : { type: 'orderedList', attrs: { start: Number(token.attrGet('start') ?? 1) }, content: items };
        return [[node], cursor + 1];
      }
      case 'blockquote_open': {
        const flatten = depth + 1 > MAX_BLOCK_DEPTH;
        const [content, next] = this.readContainer(
          tokens,
          index + 1,
          'blockquote_close',
          flatten ? depth : depth + 1,
        );
        if (flatten) {
          this.flattened += 1;
          return [content, next];
        }
        this.count();
        return [[{ type: 'blockquote', content }], next];
      }
      case 'fence':
      case 'code_block': {
        const language =
          token.type === 'fence'
            ? (markdownParser().utils.unescapeAll(token.info).trim().split(/\s+/)[0] ?? '')
            : '';
        const text = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
        this.count();
        return [
          [
            {
              type: 'codeBlock',
              attrs: { language: language === '' ? null : language },
              content: text === '' ? [] : [{ type: 'text', text }],
            },
          ],
          index + 1,
        ];
      }
      case 'hr':
        this.count();
        return [[{ type: 'horizontalRule' }], index + 1];
      case 'html_block': {
        if (this.reopenUnclosedComment(tokens, index)) return [[], index];
        this.htmlBlocks += 1;
        this.htmlComments += commentsWithText(token.content);
        const text = htmlText(token.content);
        if (text === '') return [[], index + 1];
        this.count();
        return [[{ type: 'paragraph', content: [{ type: 'text', text }] }], index + 1];
      }
      default:
        return [[], index + 1];
    }
  }

  /**
   * An HTML block holding a `<!--` with no `-->` after it runs to the end of the file (or of its quote or
   * list item), so the comment would swallow everything after it (F7a). The opener is dropped and what
   * follows it is parsed again as Markdown, its tokens put in place of the block; the next `<!--`s are
   * escaped, so this happens once per block and the time stays linear. Returns whether it did.
   */
  reopenUnclosedComment(tokens: Token[], index: number): boolean {
    const token = tokens[index] as Token;
    const opener = unclosedCommentAt(token.content);
    if (opener === -1) return false;
    this.unclosedComments += 1;
    const before = token.content.slice(0, opener);
    const rest = token.content.slice(opener + 4).replace(/<!--/g, '\\<!--');
    const replacement: Token[] = [];
    if (htmlText(before) !== '') {
      const head = new Token('html_block', '', 0);
      head.content = before;
      replacement.push(head);
    }
    for (const next of markdownParser().parse(rest, {})) replacement.push(next);
    spliceTokens(tokens, index, replacement);
    return true;
  }

  /**
   * A GFM task list item (`- [ ] x`, `- [x] x`, judged on the source so an escaped `\\[ ]` stays text) has its
   * checkbox written as ☐ / ☑ (F6a): documents have no checkboxes, and `[ ]` read as text says nothing.
   */
  private taskItem(tokens: Token[], start: number, content: LooseNode[]): void {
    if (tokens[start]?.type !== 'paragraph_open') return;
    const box = TASK_BOX.exec(tokens[start + 1]?.content ?? '');
    const first = content[0]?.content?.[0];
    if (
      box === null ||
      first?.type !== 'text' ||
      first.text === undefined ||
      !first.text.startsWith(box[0].trimEnd())
    )
      return;
    first.text = `${box[1] === ' ' ? '☐' : '☑'}${first.text.slice(3)}`;
    this.notes.add(
      'task_list_converted',
      (count) =>
        `${counted(count, 'task list item')} kept ${count === 1 ? 'its' : 'their'} checkbox as a ☐ / ☑ character: documents have no checkboxes.`,
    );
  }

  /** Counts Markdown footnote references and definitions in a paragraph's source (F7c). */
  noteFootnotes(source: string): void {
    const definitions = (source.match(FOOTNOTE_DEFINITION_LINE) ?? []).length;
    const references = (source.match(FOOTNOTE_REFERENCE) ?? []).length - definitions;
    this.footnoteDefinitions += definitions;
    this.footnoteReferences += Math.max(0, references);
  }

  /** One `footnote_as_text` note when the file used footnote syntax. */
  noteFootnoteText(): void {
    const count = this.footnoteDefinitions + this.footnoteReferences;
    if (count === 0) return;
    this.notes.add(
      'footnote_as_text',
      () =>
        `Footnotes were kept as plain text where they were written (${counted(this.footnoteReferences, 'reference')} such as "[^1]", ${counted(this.footnoteDefinitions, 'footnote')} as "[^1]: …" paragraphs): documents have no footnotes.`,
      count,
    );
  }

  /** Blocks up to the `close` token; returns them and the index after it. */
  private readContainer(tokens: Token[], start: number, close: string, depth: number): [LooseNode[], number] {
    const blocks: LooseNode[] = [];
    let index = start;
    while (index < tokens.length) {
      // Nested containers are read whole by `readBlock`, so the first `close` seen here is ours.
      if (tokens[index]?.type === close) return [blocks, index + 1];
      const [nodes, next] = this.readBlock(tokens, index, depth);
      append(blocks, nodes);
      index = next;
    }
    return [blocks, index];
  }

  /** A title's plain text: marks dropped (and counted), breaks become spaces, images dropped. */
  private titleText(inline: Token | undefined): string {
    let text = '';
    let formatted = false;
    for (const child of inline?.children ?? []) {
      switch (child.type) {
        case 'text':
          text += child.content;
          break;
        case 'code_inline':
          formatted = true;
          text += child.content;
          break;
        case 'softbreak':
        case 'hardbreak':
          text += ' ';
          break;
        case 'image':
          this.imageDropped();
          break;
        case 'html_inline': {
          const meaning = inlineTagMeaning(child.content);
          if (meaning.kind === 'hardBreak') text += ' ';
          else if (meaning.kind === 'other') this.markupDropped();
          else formatted = true;
          break;
        }
        case 'link_open':
          if (!isAllowedLinkHref(child.attrGet('href') ?? '')) this.linkRemoved();
          formatted = true;
          break;
        case 'strong_open':
        case 'em_open':
        case 's_open':
          formatted = true;
          break;
        default:
          break;
      }
    }
    if (formatted) this.titleFormatting += 1;
    return text;
  }

  private imageDropped(): void {
    this.droppedInline += 1;
    this.notes.add(
      'image_dropped',
      (count) =>
        `${counted(count, 'image was', 'images were')} dropped (with their alt text): documents hold text only.`,
    );
  }

  private markupDropped(): void {
    this.droppedInline += 1;
    this.htmlTags += 1;
  }

  /** One `markup_dropped` note for front matter, HTML blocks and inline tags together. */
  noteMarkup(frontMatter: boolean): void {
    const parts: string[] = [];
    if (frontMatter) parts.push('the front matter');
    if (this.htmlBlocks > 0)
      parts.push(
        `the tags of ${counted(this.htmlBlocks, 'raw HTML block')} (their text was kept${
          this.htmlComments > 0
            ? `, but not that of ${counted(this.htmlComments, 'HTML comment')} in them`
            : ''
        })`,
      );
    if (this.htmlTags > 0) parts.push(counted(this.htmlTags, 'inline HTML tag'));
    if (this.unclosedComments > 0)
      parts.push(
        `the opening "<!--" of ${counted(this.unclosedComments, 'HTML comment')} never closed with "-->" (the text after ${
          this.unclosedComments === 1 ? 'it' : 'them'
        } was kept)`,
      );
    const count = (frontMatter ? 1 : 0) + this.htmlBlocks + this.htmlTags + this.unclosedComments;
    if (count > 0) this.notes.add('markup_dropped', () => `Dropped ${parts.join(', ')}.`, count);
  }

  private linkRemoved(): void {
    this.notes.add(
      'link_removed',
      (count) =>
        `${counted(count, 'link')} with an address that is not allowed kept ${count === 1 ? 'its' : 'their'} text but lost the link.`,
    );
  }

  /** Text, hard breaks and marks of a paragraph or heading. */
  private inlineContent(inline: Token | undefined): LooseNode[] {
    const content: LooseNode[] = [];
    const tagMarks = new Map<HtmlTagMark, number>();
    const syntaxMarks = new Map<HtmlTagMark, number>();
    const links: (LinkState | null)[] = [];
    const bump = (map: Map<HtmlTagMark, number>, mark: HtmlTagMark, by: number) => {
      map.set(mark, Math.max(0, (map.get(mark) ?? 0) + by));
    };
    const marks = (code: boolean): LooseMark[] => {
      const result: LooseMark[] = [];
      const link = links[links.length - 1];
      if (link) {
        result.push({ type: 'link', attrs: { href: link.href, title: link.title } });
      }
      for (const mark of ['bold', 'italic', 'underline', 'strike'] as const) {
        if ((tagMarks.get(mark) ?? 0) > 0 || (syntaxMarks.get(mark) ?? 0) > 0) result.push({ type: mark });
      }
      if (code) result.push({ type: 'code' });
      return result;
    };
    const push = (node: LooseNode) => {
      this.count();
      content.push(node);
    };
    const pushText = (text: string, code: boolean) => {
      if (text !== '') push({ type: 'text', text, marks: marks(code) });
    };
    for (const child of inline?.children ?? []) {
      switch (child.type) {
        case 'text':
          pushText(child.content, false);
          break;
        case 'code_inline':
          pushText(child.content, true);
          break;
        case 'softbreak':
          pushText(' ', false);
          break;
        case 'hardbreak':
          push({ type: 'hardBreak', marks: marks(false) });
          break;
        case 'strong_open':
        case 'strong_close':
          bump(syntaxMarks, 'bold', child.nesting);
          break;
        case 'em_open':
        case 'em_close':
          bump(syntaxMarks, 'italic', child.nesting);
          break;
        case 's_open':
        case 's_close':
          bump(syntaxMarks, 'strike', child.nesting);
          break;
        case 'link_open': {
          const href = child.attrGet('href') ?? '';
          if (isAllowedLinkHref(href)) {
            const title = child.attrGet('title');
            links.push({ href, title: title === null || title === '' ? null : title });
          } else {
            this.linkRemoved();
            links.push(null);
          }
          break;
        }
        case 'link_close':
          links.pop();
          break;
        case 'image':
          this.imageDropped();
          break;
        case 'html_inline': {
          const meaning = inlineTagMeaning(child.content);
          if (meaning.kind === 'hardBreak') push({ type: 'hardBreak', marks: marks(false) });
          else if (meaning.kind === 'open') bump(tagMarks, meaning.mark, 1);
          else if (meaning.kind === 'close') bump(tagMarks, meaning.mark, -1);
          else this.markupDropped();
          break;
        }
        default:
          break;
      }
    }
    return content;
  }
}

/** Inline content with no visible text: nothing, white space and line breaks only. */
function isBlankInline(content: readonly { type: string; text?: string }[] | undefined): boolean {
  return (content ?? []).every(
    (node) => node.type === 'hardBreak' || (node.type === 'text' && /^\s*$/.test(node.text ?? '')),
  );
}

/** Appends without spreading, so a list of any length cannot overflow the call stack. */
function append(target: LooseNode[], nodes: readonly LooseNode[]): void {
  for (const node of nodes) target.push(node);
}

/**
 * `[^1]: note` of one word would be a CommonMark link reference definition: it would vanish and turn every
 * `[^1]` into a link to "note". Escaping its `[` keeps it a paragraph of text (F7c). Fenced code is left
 * alone (indented code cannot match: at most three spaces).
 */
function protectFootnoteDefinitions(markdown: string): string {
  if (!/^ {0,3}\[\^/m.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  let fence: string | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (
        marker !== undefined &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        /^ {0,3}[`~]+[ \t]*$/.test(line)
      )
        fence = null;
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    lines[index] = line.replace(FOOTNOTE_DEFINITION_START, '$1\\[^$2]:');
  }
  return lines.join('\n');
}

/**
 * The `title:` of YAML front matter (F7d): a top-level key, its value plain (a ` #` comment cut off),
 * 'single-quoted' ('' for ') or "double-quoted" (JSON escapes). Block scalars and anything else give ''.
 */
function frontMatterTitle(frontMatter: string): string {
  const value = /^title:[ \t]*(.*?)[ \t]*\r?$/m.exec(frontMatter)?.[1] ?? '';
  let title = '';
  if (value.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      title = typeof parsed === 'string' ? parsed : '';
    } catch {
      title = '';
    }
  } else if (value.startsWith("'")) {
    title = /^'((?:[^']|'')*)'$/.exec(value)?.[1]?.replaceAll("''", "'") ?? '';
  } else if (!/^[|>&*!%@`{[]/.test(value)) {
    title = value.replace(/[ \t]+#.*$/, '');
  }
  return title.replace(/\s+/g, ' ').trim();
}

/** Where the first `<!--` with no `-->` anywhere after it starts; -1 when every comment is closed. */
function unclosedCommentAt(html: string): number {
  let from = 0;
  for (;;) {
    const open = html.indexOf('<!--', from);
    if (open === -1) return -1;
    const close = html.indexOf('-->', open + 4);
    if (close === -1) return open;
    from = close + 3;
  }
}

/** How many closed comments of a raw HTML block have text in them (dropped with it). */
function commentsWithText(html: string): number {
  let count = 0;
  for (const match of html.matchAll(/<!--([\s\S]*?)-->/g)) if ((match[1] ?? '').trim() !== '') count += 1;
  return count;
}

/** Replaces one token by several without spreading them into arguments (no call-stack limit). */
function spliceTokens(tokens: Token[], index: number, replacement: readonly Token[]): void {
  const tail = tokens.splice(index + 1);
  tokens.length = index;
  for (const token of replacement) tokens.push(token);
  for (const token of tail) tokens.push(token);
}

/** The visible text of a block of raw HTML: comments, scripts and tags removed, entities decoded. */
function htmlText(html: string): string {
  const stripped = html.replace(HTML_COMMENT, ' ').replace(HTML_RAW_TEXT, ' ').replace(HTML_TAG, ' ');
  return decodeEntities(stripped).replace(/\s+/g, ' ').trim();
}

/** Character references decoded as CommonMark decodes them (backslashes are left alone). */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (entity) =>
    markdownParser().utils.unescapeAll(entity),
  );
}

/**
 * Reads CommonMark (plus `~~strike~~`) into a document (spec 001 §5, `formats/SPEC.md` F1–F12):
 * level-1 headings start sections, level-2 headings subsections, 3–4 stay headings, 5–6 become
 * level 4; content before the first level-1 heading goes into an "Untitled" section. Images, raw
 * HTML, front matter and refused links are dropped and reported.
 *
 * @throws FormatError `too_large` past `MAX_MARKDOWN_LENGTH` characters or the model's node
 *   limit, `invalid_document` when the result cannot be a document.
 */
export function markdownToDocument(markdown: string, options: FormatImportOptions = {}): ImportResult {
  assertImportText(markdown, 'Markdown', MAX_MARKDOWN_LENGTH);
  const reader = new MarkdownReader();
  // A byte-order mark would otherwise stand before the first heading and turn it into text.
  const text = markdown.startsWith('\uFEFF') ? markdown.slice(1) : markdown;
  const frontMatter = FRONT_MATTER.exec(text);
  const source = frontMatter === null ? text : text.slice(frontMatter[0].length);
  const title = frontMatter === null ? '' : frontMatterTitle(frontMatter[0]);
  const tokens = markdownParser().parse(protectFootnoteDefinitions(source), {});
  // Like a .docx's Title paragraph (F52): a file with no level-1 heading is one section with that title.
  if (
    title !== '' &&
    !tokens.some((token) => token.type === 'heading_open' && token.tag === 'h1' && token.level === 0)
  )
    reader.untitledTitle = title;
  const tree = reader.read(tokens);
  reader.noteMarkup(frontMatter !== null);
  reader.noteFootnoteText();
  const result = normalizeDocument(tree, { generateId: options.generateId });
  if (!result.ok) {
    const tooLarge = result.error.problem.includes('nodes and marks');
    throw new FormatError({
      reason: tooLarge ? 'too_large' : 'invalid_document',
      message: `The Markdown file cannot be read as a document: ${result.error.message}`,
      cause: result.error,
    });
  }
  const { report } = result;
  const repaired =
    report.restructuredNodes +
    report.flattenedNodes +
    report.fixedAttributes +
    reader.nestedHeadings +
    reader.flattened;
  if (repaired > 0) {
    reader.notes.add(
      'content_repaired',
      (count) =>
        `${counted(count, 'part')} of the file ${count === 1 ? 'was' : 'were'} rearranged to fit the document's structure.`,
      repaired,
    );
  }
  const formatting = report.droppedMarks + reader.titleFormatting;
  if (formatting > 0) {
    reader.notes.add(
      'formatting_dropped',
      (count) =>
        `Formatting was dropped in ${counted(count, 'place')}: titles are plain text, and code cannot be combined with other marks.`,
      formatting,
    );
  }
  const imported: ImportResult = {
    document: result.doc,
    report: { format: 'md', notes: reader.notes.list() },
  };
  return title === '' ? imported : { ...imported, title };
}
