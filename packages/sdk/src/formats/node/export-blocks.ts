import {
  type DocumentJson,
  type InlineJson,
  type MarkJson,
  type SectionJson,
  type SubsectionJson,
  UNTITLED_SECTION,
  UNTITLED_SUBSECTION,
} from '../../model/document-json.js';

/** A title for exports whose document has none. */
export const UNTITLED_DOCUMENT = 'Untitled Document';

/** What the .docx and PDF exports write on every title page and (PDF) every page (spec 000 §1). */
export const PRODUCT_FOOTER = 'Made with Planwright';

// C0 controls but tab and newline, lone surrogates and the two non-characters: XML 1.0 cannot hold them.
const XML_INVALID =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text with the characters XML 1.0 (and so a .docx) cannot carry removed (F64). */
export function xmlSafeText(text: string): string {
  return text.replace(XML_INVALID, '');
}

/** The plain text of a heading's inline children. */
export function inlineText(content: readonly InlineJson[] | undefined): string {
  let text = '';
  for (const child of content ?? []) text += child.type === 'text' ? child.text : '\n';
  return text;
}

/** A section's title as exports write it: trimmed, "Untitled Section" when blank (F62). */
export function sectionTitle(section: SectionJson): string {
  const title = inlineText(section.content[0].content).trim();
  return title === '' ? UNTITLED_SECTION : title;
}

/** A subsection's title as exports write it: trimmed, "Untitled Subsection" when blank (F62). */
export function subsectionTitle(subsection: SubsectionJson): string {
  const title = inlineText(subsection.content[0].content).trim();
  return title === '' ? UNTITLED_SUBSECTION : title;
}

/** The export title: the one given, trimmed, else "Untitled Document". */
export function documentTitle(title: string | undefined): string {
  const trimmed = title?.trim() ?? '';
  return trimmed === '' ? UNTITLED_DOCUMENT : trimmed;
}

/** The subsections of a section, in order. */
export function subsectionsOf(section: SectionJson): SubsectionJson[] {
  return section.content.filter((child): child is SubsectionJson => child.type === 'subsection');
}

/** The sections of a document (an empty list for an empty tree). */
export function sectionsOf(document: DocumentJson): SectionJson[] {
  return document.content ?? [];
}

/** Whether the marks include one named `type`. */
export function hasMark(marks: readonly MarkJson[] | undefined, type: MarkJson['type']): boolean {
  return marks?.some((mark) => mark.type === type) ?? false;
}

/** The href of a text's link mark, or undefined. */
export function linkHrefOf(marks: readonly MarkJson[] | undefined): string | undefined {
  for (const mark of marks ?? []) if (mark.type === 'link') return mark.attrs.href;
  return undefined;
}

/** Options of the file exports (.docx, PDF and `exportDocument`). */
export interface FileExportOptions {
  /** The document's title: the title page, the file's properties, HTML's `<title>`. "Untitled Document" when blank. */
  title?: string;
  /**
   * The creation (and modification) date written into the file; now when left out. Fixing it makes the
   * output the same bytes for the same document (F68, F77).
   */
  creationDate?: Date;
}
