import pdfMake from 'pdfmake';
import type {
  Content,
  ContentText,
  StyleDictionary,
  TDocumentDefinitions,
  TFontDictionary,
} from 'pdfmake/interfaces.js';
import type {
  BlockJson,
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
  PRODUCT_FOOTER,
  sectionsOf,
  sectionTitle,
  subsectionTitle,
} from './export-blocks.js';
import { standardFontText, unbrokenPieces } from './pdf-export-text.js';

/** Options of {@link documentToPdf}. */
export type PdfExportOptions = FileExportOptions;

/** One paragraph indent level: 24 px = 18 pt. */
const INDENT_STEP_PT = 18;
const QUOTE_INDENT_PT = 18;
/** Quotes deeper than this stop moving in, so their text keeps room on the page (F73). */
const MAX_QUOTE_INDENTS = 8;
const PAGE_MARGINS: [number, number, number, number] = [56, 56, 56, 64];

// The standard 14 fonts: built into every PDF reader, so nothing is embedded, downloaded or read from disk.
const STANDARD_FONTS: TFontDictionary = {
  Helvetica: {
    normal: 'Helvetica',
    bold: 'Helvetica-Bold',
    italics: 'Helvetica-Oblique',
    bolditalics: 'Helvetica-BoldOblique',
  },
  Courier: {
    normal: 'Courier',
    bold: 'Courier-Bold',
    italics: 'Courier-Oblique',
    bolditalics: 'Courier-BoldOblique',
  },
};
const STANDARD_FONT_NAMES = new Set(
  Object.values(STANDARD_FONTS).flatMap((family) => [
    family.normal,
    family.bold,
    family.italics,
    family.bolditalics,
  ]),
);

const ORDERED_TYPES: Readonly<Record<string, 'lower-alpha' | 'upper-alpha' | 'lower-roman' | 'upper-roman'>> =
  {
    a: 'lower-alpha',
    A: 'upper-alpha',
    i: 'lower-roman',
    I: 'upper-roman',
  };

const STYLES: StyleDictionary = {
  title: { fontSize: 30, bold: true, color: '#1F3864', alignment: 'center', margin: [0, 200, 0, 12] },
  subtitle: { fontSize: 12, color: '#666666', alignment: 'center' },
  contents: { fontSize: 20, bold: true, color: '#1F3864', margin: [0, 0, 0, 16] },
  sectionHeading: { fontSize: 20, bold: true, color: '#1F3864', margin: [0, 0, 0, 10] },
  subsectionHeading: { fontSize: 15, bold: true, color: '#1F3864', margin: [0, 14, 0, 6] },
  heading3: { fontSize: 13, bold: true, margin: [0, 10, 0, 4] },
  heading4: { fontSize: 11.5, bold: true, margin: [0, 8, 0, 4] },
  paragraph: { margin: [0, 0, 0, 6] },
  code: { font: 'Courier', fontSize: 9, margin: [0, 2, 0, 8], preserveLeadingSpaces: true },
  quote: { italics: true, color: '#444444' },
  link: { color: '#0563C1', decoration: 'underline' },
  footer: { fontSize: 8, color: '#777777' },
  tocSection: { fontSize: 11, bold: true },
  tocSubsection: { fontSize: 10 },
};

function inlineTexts(content: readonly InlineJson[] | undefined): ContentText[] {
  const parts: ContentText[] = [];
  for (const inline of content ?? []) {
    if (inline.type === 'hardBreak') {
      parts.push({ text: '\n' });
      continue;
    }
    const marks = inline.marks;
    const decoration = [
      ...(hasMark(marks, 'underline') ? (['underline'] as const) : []),
      ...(hasMark(marks, 'strike') ? (['lineThrough'] as const) : []),
    ];
    const href = linkHrefOf(marks);
    // The PDF has no named destinations for a `#anchor`, and a viewer would resolve it as a file: text.
    const linked = href !== undefined && isExportableLinkHref(href) && !isInDocumentLinkHref(href);
    const style = {
      ...(hasMark(marks, 'bold') ? { bold: true } : {}),
      ...(hasMark(marks, 'italic') ? { italics: true } : {}),
      ...(hasMark(marks, 'code') ? { font: 'Courier', fontSize: 9.5 } : {}),
      ...(linked ? { link: href, style: 'link' } : {}),
      ...(decoration.length > 0 ? { decoration: linked ? ['underline', ...decoration] : decoration } : {}),
    } satisfies Omit<ContentText, 'text'>;
    // Over-long words in pieces keep layout linear (see unbrokenPieces).
    for (const text of unbrokenPieces(standardFontText(inline.text))) parts.push({ text, ...style });
  }
  // pdfmake lays out an empty paragraph as nothing; a space keeps its line.
  return parts.length > 0 ? parts : [{ text: ' ' }];
}

function listItem(item: ListItemJson, quoteDepth: number): Content {
  const blocks = item.content.map((child) => block(child, quoteDepth));
  return blocks.length === 1 && blocks[0] !== undefined ? blocks[0] : { stack: blocks };
}

function orderedList(list: OrderedListJson, quoteDepth: number): Content {
  const type = list.attrs.type === null ? undefined : ORDERED_TYPES[list.attrs.type];
  return {
    ol: list.content.map((item) => listItem(item, quoteDepth)),
    start: Number.isSafeInteger(list.attrs.start) ? list.attrs.start : 1,
    ...(type ? { type } : {}),
    margin: [0, 0, 0, 6],
  };
}

function block(node: BlockJson, quoteDepth = 0): Content {
  switch (node.type) {
    case 'paragraph':
      return {
        text: inlineTexts(node.content),
        style: 'paragraph',
        ...(node.attrs.indent > 0 ? { margin: [node.attrs.indent * INDENT_STEP_PT, 0, 0, 6] } : {}),
      };
    case 'heading':
      return { text: inlineTexts(node.content), style: node.attrs.level === 3 ? 'heading3' : 'heading4' };
    case 'bulletList':
      return { ul: node.content.map((item) => listItem(item, quoteDepth)), margin: [0, 0, 0, 6] };
    case 'orderedList':
      return orderedList(node, quoteDepth);
    case 'blockquote':
      return {
        stack: node.content.map((child) => block(child, quoteDepth + 1)),
        style: 'quote',
        margin: [quoteDepth < MAX_QUOTE_INDENTS ? QUOTE_INDENT_PT : 0, 2, 0, 6],
      };
    case 'codeBlock': {
      const code = standardFontText((node.content ?? []).map((child) => child.text).join(''));
      return {
        text: code === '' ? ' ' : unbrokenPieces(code).map((text) => ({ text })),
        style: 'code',
      };
    }
    case 'horizontalRule':
      return {
        canvas: [{ type: 'line', x1: 0, y1: 6, x2: 483, y2: 6, lineWidth: 0.5, lineColor: '#999999' }],
        margin: [0, 0, 0, 12],
      };
  }
}

function subsectionContent(subsection: SubsectionJson): Content[] {
  const title = standardFontText(subsectionTitle(subsection));
  const content: Content[] = [
    {
      text: title,
      style: 'subsectionHeading',
      tocItem: true,
      tocStyle: 'tocSubsection',
      tocMargin: [16, 2, 0, 0],
    },
  ];
  for (const child of subsection.content.slice(1)) {
    if (child.type !== 'subsectionHeading') content.push(block(child));
  }
  return content;
}

/** The pdfmake definition of a whole document: title page, contents, sections, footer (F70–F74). */
function pdfDefinition(document: DocumentJson, title: string, creationDate: Date): TDocumentDefinitions {
  const shownTitle = standardFontText(title);
  const content: Content[] = [
    { text: shownTitle, style: 'title' },
    { text: PRODUCT_FOOTER, style: 'subtitle' },
    {
      toc: { title: { text: 'Contents', style: 'contents' }, textMargin: [0, 2, 0, 0] },
      pageBreak: 'before',
    },
  ];
  for (const section of sectionsOf(document)) {
    content.push({
      text: standardFontText(sectionTitle(section)),
      style: 'sectionHeading',
      tocItem: true,
      tocStyle: 'tocSection',
      tocMargin: [0, 8, 0, 0],
      pageBreak: 'before',
    });
    for (const child of section.content.slice(1)) {
      if (child.type === 'subsection') content.push(...subsectionContent(child));
      else if (child.type !== 'sectionHeading') content.push(block(child));
    }
  }
  return {
    info: {
      // The properties are Unicode strings in the file: the title stays as written there.
      title,
      creator: 'Planwright',
      producer: 'Planwright',
      creationDate,
      modDate: creationDate,
    },
    pageSize: 'A4',
    pageMargins: PAGE_MARGINS,
    defaultStyle: { font: 'Helvetica', fontSize: 10.5, lineHeight: 1.2 },
    styles: STYLES,
    content,
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: PRODUCT_FOOTER, style: 'footer' },
        { text: `Page ${currentPage} of ${pageCount}`, style: 'footer', alignment: 'right' },
      ],
      margin: [PAGE_MARGINS[0], 24, PAGE_MARGINS[2], 0],
    }),
  };
}

/** What the public `documentToPdf` (lazy-converters.ts, documented there) runs once it has loaded this module. */
export async function documentToPdf(
  document: DocumentJson,
  options: PdfExportOptions = {},
): Promise<Uint8Array> {
  const definition = pdfDefinition(
    document,
    documentTitle(options.title),
    options.creationDate ?? new Date(),
  );
  // pdfmake is one shared instance: set its fonts and policies right before the (synchronous) createPdf
  // call, which copies them, so nothing another caller set can leak into this file.
  pdfMake.setFonts(STANDARD_FONTS);
  pdfMake.setUrlAccessPolicy(() => false);
  pdfMake.setLocalAccessPolicy((path) => STANDARD_FONT_NAMES.has(path));
  const buffer = await pdfMake.createPdf(definition).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
