import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  type ILevelsOptions,
  InternalHyperlink,
  LevelFormat,
  Packer,
  Paragraph,
  type ParagraphChild,
  TextRun,
} from 'docx';
import { unzipSync, zipSync } from 'fflate';
import type {
  BlockJson,
  CodeBlockJson,
  DocumentJson,
  InlineJson,
  ListItemJson,
  OrderedListJson,
  SubsectionJson,
} from '../../model/document-json.js';
import { isExportableLinkHref, isInDocumentLinkHref } from '../../model/link-href.js';
import {
  documentTitle,
  type FileExportOptions,
  hasMark,
  linkHrefOf,
  sectionsOf,
  sectionTitle,
  subsectionTitle,
  xmlSafeText,
} from './export-blocks.js';

/** Options of {@link documentToDocx}. */
export type DocxExportOptions = FileExportOptions;

/** One paragraph indent level (24 px = 18 pt) in twentieths of a point. */
const INDENT_STEP_TWIPS = 360;
/** How far each list level and each quote moves its text in (half an inch). */
const NEST_STEP_TWIPS = 720;
const MAX_LIST_LEVEL = 8;
const MONOSPACE_FONT = 'Courier New';
const QUOTE_STYLE = 'Quote';
const CODE_STYLE = 'SourceCode';
const CODE_CHAR_STYLE = 'VerbatimChar';
const BULLET_REFERENCE = 'planwright-bullet';
const BULLET_SYMBOLS = ['•', '◦', '▪'] as const;

const HEADING_LEVELS = {
  3: HeadingLevel.HEADING_3,
  4: HeadingLevel.HEADING_4,
} as const;

const ORDERED_FORMATS: Readonly<Record<string, (typeof LevelFormat)[keyof typeof LevelFormat]>> = {
  '1': LevelFormat.DECIMAL,
  a: LevelFormat.LOWER_LETTER,
  A: LevelFormat.UPPER_LETTER,
  i: LevelFormat.LOWER_ROMAN,
  I: LevelFormat.UPPER_ROMAN,
};

function levelIndent(level: number): { left: number; hanging: number } {
  return { left: NEST_STEP_TWIPS * (level + 1), hanging: 360 };
}

function bulletLevels(): ILevelsOptions[] {
  return Array.from({ length: MAX_LIST_LEVEL + 1 }, (_, level) => ({
    level,
    format: LevelFormat.BULLET,
    text: BULLET_SYMBOLS[level % BULLET_SYMBOLS.length] ?? '•',
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: levelIndent(level) } },
  }));
}

function orderedLevels(
  format: (typeof LevelFormat)[keyof typeof LevelFormat],
  start: number,
): ILevelsOptions[] {
  return Array.from({ length: MAX_LIST_LEVEL + 1 }, (_, level) => ({
    level,
    format,
    text: `%${level + 1}.`,
    start,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: levelIndent(level) } },
  }));
}

/** Where a block sits: how far it is indented, whether inside a quote, how deep in lists. */
interface BlockContext {
  indent: number;
  quote: boolean;
  quoteDepth: number;
  listLevel: number;
}

/** Quotes deeper than this stop moving in, so their text keeps room on the page (F65). */
const MAX_QUOTE_INDENTS = 8;
const TOP_LEVEL: BlockContext = { indent: 0, quote: false, quoteDepth: 0, listLevel: 0 };

/**
 * Walks a document once and builds the paragraphs, collecting the numbering definitions the lists
 * need (one per ordered start and format; every list its own instance so numbering restarts).
 */
class DocxBuilder {
  readonly paragraphs: Paragraph[] = [];
  private readonly orderedConfigs = new Map<string, ILevelsOptions[]>();
  private nextInstance = 1;

  numberingConfig(): { reference: string; levels: ILevelsOptions[] }[] {
    return [
      { reference: BULLET_REFERENCE, levels: bulletLevels() },
      ...[...this.orderedConfigs].map(([reference, levels]) => ({ reference, levels })),
    ];
  }

  title(title: string): void {
    this.paragraphs.push(
      new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(xmlSafeText(title))] }),
    );
  }

  document(document: DocumentJson): void {
    for (const section of sectionsOf(document)) {
      // Each section starts a page, the first one right after the title page (F61).
      this.paragraphs.push(
        new Paragraph({
          heading: HeadingLevel.HEADING_1,
          pageBreakBefore: true,
          children: [new TextRun(xmlSafeText(sectionTitle(section)))],
        }),
      );
      for (const child of section.content.slice(1)) {
        if (child.type === 'subsection') this.subsection(child);
        else if (child.type !== 'sectionHeading') this.block(child, TOP_LEVEL);
      }
    }
  }

  private subsection(subsection: SubsectionJson): void {
    this.paragraphs.push(
      new Paragraph({
        heading: HeadingLevel.HEADING_2,
        children: [new TextRun(xmlSafeText(subsectionTitle(subsection)))],
      }),
    );
    for (const block of subsection.content.slice(1)) {
      if (block.type !== 'subsectionHeading') this.block(block, TOP_LEVEL);
    }
  }

  private block(block: BlockJson, context: BlockContext): void {
    switch (block.type) {
      case 'paragraph':
        this.paragraphs.push(
          new Paragraph({
            ...(context.quote ? { style: QUOTE_STYLE } : {}),
            indent: { left: context.indent + block.attrs.indent * INDENT_STEP_TWIPS },
            children: inlineRuns(block.content),
          }),
        );
        return;
      case 'heading':
        this.paragraphs.push(
          new Paragraph({
            heading: HEADING_LEVELS[block.attrs.level],
            ...(context.indent > 0 ? { indent: { left: context.indent } } : {}),
            children: inlineRuns(block.content),
          }),
        );
        return;
      case 'bulletList':
        for (const item of block.content) this.listItem(item, BULLET_REFERENCE, 0, context);
        return;
      case 'orderedList': {
        const reference = this.orderedReference(block);
        const instance = this.nextInstance++;
        for (const item of block.content) this.listItem(item, reference, instance, context);
        return;
      }
      case 'blockquote':
        for (const child of block.content) {
          const step = context.quoteDepth < MAX_QUOTE_INDENTS ? NEST_STEP_TWIPS : 0;
          this.block(child, {
            ...context,
            indent: context.indent + step,
            quote: true,
            quoteDepth: context.quoteDepth + 1,
          });
        }
        return;
      case 'codeBlock':
        this.paragraphs.push(
          new Paragraph({
            style: CODE_STYLE,
            ...(context.indent > 0 ? { indent: { left: context.indent } } : {}),
            children: codeRuns(block),
          }),
        );
        return;
      case 'horizontalRule':
        this.paragraphs.push(
          new Paragraph({
            border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'auto', space: 1 } },
            children: [],
          }),
        );
        return;
    }
  }

  private orderedReference(list: OrderedListJson): string {
    const type = list.attrs.type !== null && list.attrs.type in ORDERED_FORMATS ? list.attrs.type : '1';
    const start = Number.isSafeInteger(list.attrs.start) && list.attrs.start >= 0 ? list.attrs.start : 1;
    // Word's case-insensitive style names would merge `a` and `A`; spell the case out.
    const reference = `planwright-ordered-${type === type.toLowerCase() ? 'lower' : 'upper'}-${type}-${start}`;
    if (!this.orderedConfigs.has(reference)) {
      this.orderedConfigs.set(reference, orderedLevels(ORDERED_FORMATS[type] ?? LevelFormat.DECIMAL, start));
    }
    return reference;
  }

  private listItem(item: ListItemJson, reference: string, instance: number, context: BlockContext): void {
    const level = Math.min(context.listLevel, MAX_LIST_LEVEL);
    const [first, ...rest] = item.content;
    this.paragraphs.push(
      new Paragraph({
        ...(context.quote ? { style: QUOTE_STYLE } : {}),
        numbering: { reference, level, instance },
        // The level's own indent, moved in by any quote around the list.
        indent: { left: context.indent + levelIndent(level).left, hanging: levelIndent(level).hanging },
        children: inlineRuns(first.content),
      }),
    );
    const inner: BlockContext = { ...context, listLevel: context.listLevel + 1 };
    for (const block of rest) {
      if (block.type === 'bulletList' || block.type === 'orderedList') this.block(block, inner);
      else this.block(block, { ...inner, indent: context.indent + levelIndent(level).left });
    }
  }
}

function textRun(text: string, marks: InlineJson['marks']): TextRun {
  const code = hasMark(marks, 'code');
  return new TextRun({
    text: xmlSafeText(text),
    ...(hasMark(marks, 'bold') ? { bold: true } : {}),
    ...(hasMark(marks, 'italic') ? { italics: true } : {}),
    ...(hasMark(marks, 'underline') ? { underline: {} } : {}),
    ...(hasMark(marks, 'strike') ? { strike: true } : {}),
    ...(code ? { style: CODE_CHAR_STYLE, font: MONOSPACE_FONT } : {}),
  });
}

/** Runs for inline content; neighbouring texts with the same allowed link share one hyperlink (F63). */
function inlineRuns(content: readonly InlineJson[] | undefined): ParagraphChild[] {
  const children: ParagraphChild[] = [];
  let link: { href: string; runs: TextRun[] } | undefined;
  const flush = () => {
    if (link) {
      // An in-document link jumps to a bookmark of that name (Word ignores it when there is none).
      children.push(
        isInDocumentLinkHref(link.href)
          ? new InternalHyperlink({ anchor: link.href.trim().slice(1), children: link.runs })
          : new ExternalHyperlink({ link: link.href, children: link.runs }),
      );
    }
    link = undefined;
  };
  for (const inline of content ?? []) {
    const href = linkHrefOf(inline.marks);
    const run = inline.type === 'hardBreak' ? new TextRun({ break: 1 }) : textRun(inline.text, inline.marks);
    if (href === undefined || !isExportableLinkHref(href)) {
      flush();
      children.push(run);
      continue;
    }
    if (link?.href !== href) {
      flush();
      link = { href: xmlSafeText(href), runs: [] };
    }
    link.runs.push(
      inline.type === 'hardBreak' ? run : new TextRun({ ...linkRunOptions(inline.text, inline.marks) }),
    );
  }
  flush();
  return children;
}

function linkRunOptions(text: string, marks: InlineJson['marks']) {
  return {
    text: xmlSafeText(text),
    style: 'Hyperlink',
    ...(hasMark(marks, 'bold') ? { bold: true } : {}),
    ...(hasMark(marks, 'italic') ? { italics: true } : {}),
    ...(hasMark(marks, 'strike') ? { strike: true } : {}),
    ...(hasMark(marks, 'code') ? { font: MONOSPACE_FONT } : {}),
  };
}

/** A code block's lines as runs with line breaks between them, so every line stays its own. */
function codeRuns(block: CodeBlockJson): TextRun[] {
  const text = (block.content ?? []).map((child) => child.text).join('');
  return xmlSafeText(text)
    .split('\n')
    .map((line, index) => new TextRun({ text: line, ...(index > 0 ? { break: 1 } : {}) }));
}

const HEADING_SIZES = [32, 26, 24, 22] as const;

function headingStyle(level: 0 | 1 | 2 | 3) {
  return {
    run: { bold: true, size: HEADING_SIZES[level], color: '1F3864' },
    paragraph: {
      outlineLevel: level,
      keepNext: true,
      spacing: { before: level === 0 ? 0 : 240, after: 120 },
    },
  };
}

/** The W3CDTF form `docProps/core.xml` uses: no milliseconds. */
function w3cDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * Gives the hyperlinks' relationships ids counted in document order: `docx` draws random ones, which
 * alone would make two exports of one document differ.
 */
function renameHyperlinkIds(files: Record<string, Uint8Array>): void {
  const documentXml = files['word/document.xml'];
  const relsXml = files['word/_rels/document.xml.rels'];
  if (documentXml === undefined || relsXml === undefined) return;
  const names = new Map<string, string>();
  const body = new TextDecoder()
    .decode(documentXml)
    .replace(/(<w:hyperlink\b[^>]*\br:id=")([^"]+)"/g, (_match, head: string, id: string) => {
      let name = names.get(id);
      if (name === undefined) {
        name = `rIdLink${names.size + 1}`;
        names.set(id, name);
      }
      return `${head}${name}"`;
    });
  const rels = new TextDecoder()
    .decode(relsXml)
    .replace(/(<Relationship\b[^>]*\bId=")([^"]+)"/g, (match, head: string, id: string) => {
      const name = names.get(id);
      return name === undefined ? match : `${head}${name}"`;
    });
  files['word/document.xml'] = new TextEncoder().encode(body);
  files['word/_rels/document.xml.rels'] = new TextEncoder().encode(rels);
}

/**
 * Rewrites the package with the given date in its properties and on every zip entry (`docx` stamps
 * both with the current time and has no option for either) and with counted hyperlink ids.
 */
function withFixedDate(bytes: Uint8Array, date: Date): Uint8Array {
  const files = unzipSync(bytes);
  const core = files['docProps/core.xml'];
  if (core !== undefined) {
    const stamp = w3cDate(date);
    const xml = new TextDecoder()
      .decode(core)
      .replace(
        /(<dcterms:(created|modified)\b[^>]*>)[^<]*(<\/dcterms:\2>)/g,
        (_match, open: string, _name: string, close: string) => `${open}${stamp}${close}`,
      );
    files['docProps/core.xml'] = new TextEncoder().encode(xml);
  }
  renameHyperlinkIds(files);
  // DOS dates cannot go before 1980; such a date keeps the properties but not the zip times.
  const mtime = date.getUTCFullYear() >= 1980 ? date : new Date(Date.UTC(1980, 0, 1));
  return zipSync(files, { level: 6, mtime });
}

/** What the public `documentToDocx` (lazy-converters.ts, documented there) runs once it has loaded this module. */
export async function documentToDocx(
  document: DocumentJson,
  options: DocxExportOptions = {},
): Promise<Uint8Array> {
  const title = documentTitle(options.title);
  const builder = new DocxBuilder();
  builder.title(title);
  builder.document(document);
  const file = new Document({
    title: xmlSafeText(title),
    creator: 'Planwright',
    lastModifiedBy: 'Planwright',
    description: 'Made with Planwright',
    styles: {
      default: {
        document: { run: { font: 'Calibri', size: 22 } },
        title: {
          run: { size: 56, bold: true, color: '1F3864' },
          paragraph: { spacing: { before: 2400, after: 240 } },
        },
        heading1: headingStyle(0),
        heading2: headingStyle(1),
        heading3: headingStyle(2),
        heading4: headingStyle(3),
      },
      paragraphStyles: [
        {
          id: QUOTE_STYLE,
          name: 'Quote',
          basedOn: 'Normal',
          next: 'Normal',
          quickFormat: true,
          run: { italics: true, color: '404040' },
          paragraph: {
            indent: { left: NEST_STEP_TWIPS },
            border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'A6A6A6', space: 8 } },
          },
        },
        {
          id: CODE_STYLE,
          name: 'Source Code',
          basedOn: 'Normal',
          quickFormat: true,
          run: { font: MONOSPACE_FONT, size: 20 },
          paragraph: { spacing: { before: 120, after: 120 } },
        },
      ],
      characterStyles: [
        {
          id: CODE_CHAR_STYLE,
          name: 'Verbatim Char',
          basedOn: 'DefaultParagraphFont',
          run: { font: MONOSPACE_FONT },
        },
      ],
    },
    numbering: { config: builder.numberingConfig() },
    sections: [{ children: builder.paragraphs }],
  });
  const bytes = new Uint8Array(await Packer.toArrayBuffer(file));
  return withFixedDate(bytes, options.creationDate ?? new Date());
}
