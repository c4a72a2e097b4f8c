/// <reference types="node" />
import mammoth from 'mammoth';
import { FormatError } from '../../errors/format-error.js';
import { documentFromHtmlDom } from '../html-import-document.js';
import type { FormatImportOptions } from '../import-options.js';
import { counted, ImportNotes, type ImportResult } from '../import-report.js';
import { equationsAsText } from './docx-import-equations.js';
import { type GuessElement, guessDirectHeadings } from './docx-import-headings.js';
import { moveNotesToSections, unwrapInternalLinks } from './docx-import-notes.js';
import {
  type ParagraphCategory,
  planwrightStyleMap,
  readParagraphStyles,
  runCategory,
  STYLE_ID_PREFIX,
  StyleMeanings,
  TITLE_CLASS,
} from './docx-import-styles.js';
import { parseHtmlInNode } from './html-dom.js';
import { inspectDocxZip, type ZipLimits } from './zip-guard.js';

/** Options of {@link docxToDocument}. */
export interface DocxImportOptions extends FormatImportOptions {
  /** Limits for the archive check that runs before anything parses the file (defaults: `DEFAULT_ZIP_LIMITS`). */
  limits?: Partial<ZipLimits>;
}

/** The part of mammoth's document tree the transform reads and relabels. */
interface MammothElement {
  type: string;
  children?: MammothElement[];
  styleId?: string | null;
  styleName?: string | null;
  isSmallCaps?: boolean;
  isAllCaps?: boolean;
  verticalAlignment?: string;
  highlight?: string | null;
  value?: string;
}

const formattingMessage = (n: number): string =>
  `${counted(n, 'piece')} of Word formatting the model has no place for (styles, small caps, superscript…) dropped; the text stays.`;

/** What the public `docxToDocument` (lazy-converters.ts, documented there) runs once it has loaded this module. */
export async function docxToDocument(
  bytes: Uint8Array,
  options: DocxImportOptions = {},
): Promise<ImportResult> {
  const zip = inspectDocxZip(bytes, options.limits);
  const text = (name: string): string | undefined => {
    const part = zip.xmlParts.get(name);
    return part ? new TextDecoder().decode(part) : undefined;
  };
  const notes = new ImportNotes();
  const meanings = new StyleMeanings(readParagraphStyles(text('word/styles.xml')));
  let formatting = 0;
  let guessed = new Map<GuessElement, ParagraphCategory>();
  const relabel = (element: MammothElement): MammothElement => {
    if (element.type === 'paragraph') {
      const category =
        guessed.get(element) ?? meanings.paragraph(element.styleId ?? null, element.styleName ?? null);
      if (category) element.styleId = `${STYLE_ID_PREFIX}${category}`;
    } else if (element.type === 'run') {
      const category = runCategory(element.styleName ?? null);
      if (category) element.styleId = `${STYLE_ID_PREFIX}${category}`;
      // Only runs with text count: a footnote's own superscript number mark has none.
      const visible = element.children?.some(
        (child) => child.type === 'text' && (child.value ?? '').trim() !== '',
      );
      if (visible && (element.isSmallCaps || element.isAllCaps || element.highlight)) formatting += 1;
      if (element.verticalAlignment && element.verticalAlignment !== 'baseline') {
        if (visible) formatting += 1;
        element.verticalAlignment = 'baseline';
      }
    }
    for (const child of element.children ?? []) relabel(child);
    return element;
  };

  let html: string;
  let messages: { type: string; message: string }[];
  try {
    const read = equationsAsText(bytes, zip.xmlParts, notes);
    const result = await mammoth.convertToHtml(
      // mammoth's Node build reads `buffer` only.
      { buffer: Buffer.from(read.buffer, read.byteOffset, read.byteLength) },
      {
        styleMap: planwrightStyleMap(),
        includeDefaultStyleMap: false,
        includeEmbeddedStyleMap: false,
        externalFileAccess: false,
        ignoreEmptyParagraphs: true,
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
        transformDocument: (document: MammothElement) => {
          guessed = guessDirectHeadings(document, (paragraph) =>
            meanings.paragraph((paragraph as MammothElement).styleId ?? null, paragraph.styleName ?? null),
          );
          return relabel(document);
        },
      },
    );
    html = result.value;
    messages = result.messages;
  } catch (error) {
    throw new FormatError({
      reason: 'not_a_docx',
      message: 'The file could not be read as a Word document.',
      cause: error,
    });
  }

  const inferred = [...guessed.values()].filter((category) => category !== 'Title').length;
  notes.add(
    'heading_inferred',
    (n) =>
      `${counted(n, 'heading was', 'headings were')} recognised from direct formatting (bold, larger or numbered paragraphs; the file uses no Heading styles): check the sections.`,
    inferred,
  );
  let unrecognisedStyles = 0;
  let ignored = 0;
  for (const message of messages) {
    if (/^Unrecognised (?:paragraph|run) style/.test(message.message)) unrecognisedStyles += 1;
    // Undefined styles are read by id already (Heading7); table styles do not matter once tables are flattened.
    else if (!/^Unrecognised table style|referenced but not defined/.test(message.message)) ignored += 1;
  }
  notes.add('formatting_dropped', formattingMessage, formatting + unrecognisedStyles);
  notes.add(
    'markup_dropped',
    (n) =>
      `${counted(n, 'part')} of the Word file with no place in a document (fields, unknown elements) left out.`,
    ignored,
  );
  const comments = text('word/comments.xml')?.match(/<w:comment[\s>]/g)?.length ?? 0;
  notes.add('comment_dropped', (n) => `${counted(n, 'comment')} left out.`, comments);
  const deletions = text('word/document.xml')?.match(/<w:del\s[^>]*[^/]>/g)?.length ?? 0;
  notes.add(
    'tracked_deletion_dropped',
    (n) => `${counted(n, 'tracked deletion')} left out; tracked insertions are kept as text.`,
    deletions,
  );

  const dom = parseHtmlInNode(html);
  const body = dom.body ?? dom.documentElement;
  // The first "Title" paragraph titles the file (a title page), not a section of it (F52).
  const titleElement = body.querySelector(`h1.${TITLE_CLASS}`);
  const title = titleElement?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  titleElement?.remove();
  moveNotesToSections(body, notes);
  unwrapInternalLinks(body);
  const result = documentFromHtmlDom(dom, notes, 'docx', options, title);
  return title === '' ? result : { ...result, title };
}
