import { type DocumentDetail, documentTitle, formatProgressShort, progressPercent } from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';

/** One subsection in {@link ProgressReport}. */
export interface SubsectionProgress {
  uuid: string;
  title: string;
  finalized: boolean;
}

/** One section in {@link ProgressReport}: its own counts and its subsections in order. */
export interface SectionProgress {
  uuid: string;
  title: string;
  finalized: number;
  total: number;
  percent: number;
  subsections: SubsectionProgress[];
}

/** What `planwright progress --json` prints (T10). */
export interface ProgressReport {
  finalized: number;
  total: number;
  percent: number;
  sections: SectionProgress[];
}

/** The document's progress, counted from its outline as the web's progress bar counts it (T10). */
export function progressReport(document: Pick<DocumentDetail, 'sections'>): ProgressReport {
  const sections = document.sections.map((section): SectionProgress => {
    const finalized = section.subsections.filter((subsection) => subsection.finalized).length;
    const total = section.subsections.length;
    return {
      uuid: section.uuid,
      title: section.title,
      finalized,
      total,
      percent: progressPercent(finalized, total),
      subsections: section.subsections.map(({ uuid, title, finalized }) => ({ uuid, title, finalized })),
    };
  });
  const finalized = sections.reduce((sum, section) => sum + section.finalized, 0);
  const total = sections.reduce((sum, section) => sum + section.total, 0);
  return { finalized, total, percent: progressPercent(finalized, total), sections };
}

/** Spec 001 §2 "Sections sidebar": the texts for blank titles. */
const UNTITLED_SECTION = 'Untitled Section';
const UNTITLED_SUBSECTION = 'Untitled Subsection';

/** The widest a subsection title gets in a table before it ends in `…`. */
const TITLE_WIDTH = 60;

/**
 * `planwright progress` for people (T11): the document's line, then per section a heading with its
 * counts and a table of its subsections (`[x]` finalized). Every title is made safe for the terminal.
 */
export function progressLines(document: Pick<DocumentDetail, 'title' | 'sections'>): string[] {
  const report = progressReport(document);
  const lines = [
    `${terminalText(documentTitle(document))}: ${formatProgressShort(report)} subsections finalized`,
  ];
  if (report.sections.length === 0) return [...lines, '', 'No sections available'];
  report.sections.forEach((section, index) => {
    const title = terminalText(section.title).trim() || UNTITLED_SECTION;
    lines.push('', `${index + 1}. ${title}  ${formatProgressShort(section)}`);
    if (section.subsections.length === 0) {
      lines.push('   No subsections');
      return;
    }
    const table = formatTable(
      [
        { header: 'DONE', value: (row: SubsectionProgress) => (row.finalized ? '[x]' : '[ ]') },
        {
          header: 'SUBSECTION',
          value: (row) => row.title.trim() || UNTITLED_SUBSECTION,
          maxWidth: TITLE_WIDTH,
        },
        { header: 'UUID', value: (row) => row.uuid },
      ],
      section.subsections,
    );
    lines.push(...table.map((line) => `   ${line}`));
  });
  return lines;
}
