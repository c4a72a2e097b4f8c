import type { Section } from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';

/** Spec 001 §2 "Sections sidebar": the texts for blank titles and an empty outline. */
const UNTITLED_SECTION = 'Untitled Section';
export const UNTITLED_SUBSECTION = 'Untitled Subsection';
const NO_SECTIONS = 'No sections available';

/** How a subsection is marked in the outline. */
export type SubsectionMark = 'finalized' | 'settings';

/**
 * The outline as indented lines: sections numbered `1.`, subsections `1.1`. With `finalized`, each
 * subsection starts with `[x]` (finalized) or `[ ]`; with `settings`, a set tool mode is shown as
 * `(web)`. Titles are made safe for the terminal.
 */
export function outlineLines(sections: readonly Section[], mark: SubsectionMark): string[] {
  if (sections.length === 0) return [`  ${NO_SECTIONS}`];
  const lines: string[] = [];
  sections.forEach((section, sectionIndex) => {
    const number = `${sectionIndex + 1}.`;
    lines.push(`  ${number} ${title(section.title, UNTITLED_SECTION)}${toolMode(section.tool_mode, mark)}`);
    section.subsections.forEach((subsection, subsectionIndex) => {
      const box = mark === 'finalized' ? (subsection.finalized ? '[x] ' : '[ ] ') : '';
      const label = `${sectionIndex + 1}.${subsectionIndex + 1}`;
      lines.push(
        `     ${box}${label} ${title(subsection.title, UNTITLED_SUBSECTION)}${toolMode(subsection.tool_mode, mark)}`,
      );
    });
  });
  return lines;
}

function title(value: string, untitled: string): string {
  const safe = terminalText(value).trim();
  return safe === '' ? untitled : safe;
}

function toolMode(mode: string, mark: SubsectionMark): string {
  return mark === 'settings' && mode !== '' ? ` (${mode})` : '';
}
