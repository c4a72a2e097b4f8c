import type { Section, Subsection } from '@planwright/sdk';
import { terminalText } from '../display/terminal-text.js';
import { NotFoundError, UsageError } from '../errors/cli-error.js';

/** A section found by `--section`. */
export interface SectionTarget {
  readonly section: Section;
}

/** A subsection found by `--subsection`, with the section holding it. */
export interface SubsectionTarget {
  readonly section: Section;
  readonly subsection: Subsection;
}

/** How a title is compared (T3): trimmed, case-insensitive, so `--subsection "market size"` finds "Market Size". */
function titleKey(title: string): string {
  return title.trim().toLocaleLowerCase('en');
}

const outlineHint = (documentUuid: string) =>
  `Run \`planwright progress ${terminalText(documentUuid)}\` to see the sections and subsections.`;

/**
 * The section `--section` names, by uuid first, else by title (T1–T4).
 *
 * @throws UsageError when a title matches several sections (listed with their uuids, on one line).
 * @throws NotFoundError when nothing matches.
 */
export function findSection(
  sections: readonly Section[],
  identifier: string,
  documentUuid: string,
): SectionTarget {
  const wanted = identifier.trim();
  const byUuid = sections.find((section) => section.uuid === wanted);
  if (byUuid) return { section: byUuid };
  const matches = sections.filter((section) => titleKey(section.title) === titleKey(wanted));
  if (matches.length === 1 && matches[0]) return { section: matches[0] };
  if (matches.length > 1) {
    throw new UsageError(
      `--section: "${terminalText(wanted)}" matches ${matches.length} sections: ${matches
        .map((section) => `${terminalText(section.uuid)} ("${terminalText(section.title)}")`)
        .join(', ')}`,
      { suggestion: 'Pass the uuid of the one you mean.' },
    );
  }
  throw new NotFoundError(`Section not found: "${terminalText(wanted)}".`, {
    suggestion: outlineHint(documentUuid),
  });
}

/** How {@link findSubsection} words its refusals for a command. */
export interface SubsectionSearch {
  /**
   * Whether the command has `--section`, to narrow a title several subsections share (chat, finalize: the
   * default). `comment` has not, so its hint asks for the uuid alone.
   */
  sectionOption?: boolean;
  /**
   * Name the titles there are when nothing matches (`comment`), instead of pointing to `planwright progress`:
   * someone commenting from a script wants the right words now, not a second command.
   */
  listTitles?: boolean;
}

/**
 * The subsection `--subsection` names, by uuid first, else by title; within `within` when `--section`
 * was given, else anywhere in the document (T1–T4); `search` words the refusals for `comment` (T5).
 *
 * @throws UsageError when a title matches several subsections (listed with their uuids, on one line).
 * @throws NotFoundError when nothing matches.
 */
export function findSubsection(
  sections: readonly Section[],
  identifier: string,
  documentUuid: string,
  within?: Section,
  search: SubsectionSearch = {},
): SubsectionTarget {
  const wanted = identifier.trim();
  const places = (within ? [within] : sections).flatMap((section) =>
    section.subsections.map((subsection) => ({ section, subsection })),
  );
  const byUuid = places.find((place) => place.subsection.uuid === wanted);
  if (byUuid) return byUuid;
  const matches = places.filter((place) => titleKey(place.subsection.title) === titleKey(wanted));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(
      `--subsection: "${terminalText(wanted)}" matches ${matches.length} subsections: ${matches
        .map(
          ({ section, subsection }) =>
            `${terminalText(subsection.uuid)} ("${terminalText(section.title)} > ${terminalText(subsection.title)}")`,
        )
        .join(', ')}`,
      {
        suggestion:
          search.sectionOption === false
            ? 'Pass the uuid of the one you mean.'
            : 'Pass the uuid of the one you mean (or --section to narrow the search).',
      },
    );
  }
  const titles = search.listTitles ? titleList(places.map((place) => place.subsection.title)) : '';
  throw new NotFoundError(
    `Subsection not found: "${terminalText(wanted)}"${within ? ` in "${terminalText(within.title)}"` : ''}.`,
    { suggestion: titles === '' ? outlineHint(documentUuid) : `The subsections are: ${titles}.` },
  );
}

/** `"Overview", "Goals"`: the titles a title may name (blank ones cannot be typed; each once), made safe. */
function titleList(titles: readonly string[]): string {
  const named = titles.map((title) => terminalText(title).trim()).filter((title) => title !== '');
  return [...new Set(named)].map((title) => `"${title}"`).join(', ');
}
