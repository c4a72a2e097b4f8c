import {
  DeletedTextRun,
  Document,
  HeadingLevel,
  InsertedTextRun,
  Packer,
  Paragraph,
  type ParagraphChild,
  TextRun,
} from 'docx';
import type { DiffLabels, DocumentDiff, SectionDiff, SubsectionDiff, WordChange } from '../document-diff.js';
import { xmlSafeText } from './export-blocks.js';

/** Options of {@link diffToDocx}. */
export interface DiffDocxOptions {
  /** Who the tracked changes are by, as Word shows them (default "Planwright"). */
  author?: string;
  /** When the changes were made, as Word shows them (default: now). */
  date?: Date;
}

// Text Word cannot hold (control characters, lone surrogates) is left out, as in the plan's own export.
const xmlText = xmlSafeText;

/**
 * The word runs of a changed text as Word paragraphs: runs kept as plain text, added ones as tracked
 * insertions (`w:ins`) and removed ones as tracked deletions (`w:del`), a blank line starting a new paragraph.
 */
function runParagraphs(
  words: readonly WordChange[],
  track: () => { id: number; author: string; date: string },
) {
  const paragraphs: Paragraph[] = [];
  let children: ParagraphChild[] = [];
  const flush = () => {
    paragraphs.push(new Paragraph({ children }));
    children = [];
  };
  for (const run of words) {
    const pieces = xmlText(run.text).split(/\n{2,}/);
    pieces.forEach((piece, index) => {
      if (index > 0) flush();
      const lines = piece.split('\n');
      lines.forEach((line, lineIndex) => {
        if (line === '' && lineIndex === 0 && lines.length === 1) return;
        const breakBefore = lineIndex > 0 ? 1 : 0;
        if (run.kind === 'same') children.push(new TextRun({ text: line, break: breakBefore }));
        else if (run.kind === 'added')
          children.push(new InsertedTextRun({ ...track(), text: line, break: breakBefore }));
        else children.push(new DeletedTextRun({ ...track(), text: line, break: breakBefore }));
      });
    });
  }
  if (children.length > 0 || paragraphs.length === 0) flush();
  return paragraphs;
}

function notes(part: SectionDiff | SubsectionDiff): string[] {
  const said: string[] = [];
  if (part.status === 'added') said.push('Added.');
  if (part.status === 'removed') said.push('Removed.');
  if (part.renamed) said.push(`Renamed from “${part.title.from ?? ''}”.`);
  if (part.moved) said.push('Moved.');
  if ('finalized' in part && part.finalized.from !== null && part.finalized.to !== null) {
    if (!part.finalized.from && part.finalized.to) said.push('Finalized.');
    if (part.finalized.from && !part.finalized.to) said.push('No longer finalized.');
  }
  return said;
}

/**
 * A diff as a Word file an advisor reads with Review › Track Changes (docs/versions.md "Comparing"): a title and
 * the summary, then each changed section (Heading 1) and subsection (Heading 2) with what happened to it, and its
 * text with the added words as tracked insertions and the removed ones as tracked deletions, which Word and
 * LibreOffice show, and let one accept or reject.
 */
export async function diffToDocx(
  diff: DocumentDiff,
  labels: DiffLabels,
  options: DiffDocxOptions = {},
): Promise<Uint8Array> {
  const author = xmlText(options.author ?? 'Planwright');
  const date = (options.date ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  let id = 0;
  const track = () => ({ id: ++id, author, date });
  const title = xmlText(`Changes from ${labels.from} to ${labels.to}`);
  const { added, removed, changed, unchanged } = diff.summary;
  const children: Paragraph[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(title)] }),
    new Paragraph({
      children: [
        new TextRun(
          `Subsections: ${changed} changed, ${added} added, ${removed} removed, ${unchanged} unchanged.`,
        ),
      ],
    }),
  ];
  const part = (level: 'section' | 'subsection', at: SectionDiff | SubsectionDiff) => {
    children.push(
      new Paragraph({
        heading: level === 'section' ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
        children: [new TextRun(xmlText(at.title.to ?? at.title.from ?? ''))],
      }),
    );
    const said = notes(at);
    if (said.length > 0)
      children.push(new Paragraph({ children: [new TextRun({ text: said.join(' '), italics: true })] }));
    if (at.words) children.push(...runParagraphs(at.words, track));
  };
  for (const section of diff.sections) {
    if (section.status === 'unchanged') continue;
    part('section', section);
    for (const subsection of section.subsections)
      if (subsection.status !== 'unchanged') part('subsection', subsection);
  }
  if (diff.sections.every((section) => section.status === 'unchanged')) {
    children.push(new Paragraph({ children: [new TextRun('Nothing changed.')] }));
  }
  const file = new Document({
    title,
    creator: 'Planwright',
    lastModifiedBy: 'Planwright',
    description: 'Made with Planwright',
    sections: [{ children }],
  });
  return new Uint8Array(await Packer.toArrayBuffer(file));
}
