import type { SectionRow, SubsectionRow, ToolMode } from '../structure/section-rows.js';

/** The columns every section and subsection table shares, as drizzle reads them. */
export interface StoredPart {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  position: number;
  developerPrompt: string;
  userHint: string;
  toolMode: ToolMode;
  mcpUrl: string;
}

/** A stored subsection with its section (and `finalized` where the table has it). */
export interface StoredSubsection extends StoredPart {
  sectionUuid: string;
  finalized?: boolean;
}

// PostgreSQL allows 65,535 parameters per statement; a subsection row takes 11.
const ROWS_PER_INSERT = 1_000;

/** `rows` in slices small enough for one INSERT each. */
export function insertBatches<T>(rows: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    batches.push(rows.slice(start, start + ROWS_PER_INSERT));
  }
  return batches;
}

function partOf(row: StoredPart) {
  return {
    uuid: row.uuid,
    blueprintUuid: row.blueprintUuid,
    title: row.title,
    position: row.position,
    developerPrompt: row.developerPrompt,
    userHint: row.userHint,
    toolMode: row.toolMode,
    mcpUrl: row.mcpUrl,
  };
}

/** Section rows with their subsection rows nested, both in position order. */
export function nestSections(
  sections: readonly StoredPart[],
  subsections: readonly StoredSubsection[],
): SectionRow[] {
  const bySection = new Map<string, SubsectionRow[]>();
  for (const row of [...subsections].sort((a, b) => a.position - b.position)) {
    const list = bySection.get(row.sectionUuid) ?? [];
    list.push({ ...partOf(row), finalized: row.finalized ?? false });
    bySection.set(row.sectionUuid, list);
  }
  return [...sections]
    .sort((a, b) => a.position - b.position)
    .map((row) => ({ ...partOf(row), subsections: bySection.get(row.uuid) ?? [] }));
}

/** Flat rows to insert for `sections`, keyed to their parent by `parent`. */
export function flattenSections<P extends object>(parent: P, sections: readonly SectionRow[]) {
  const sectionRows = sections.map(({ subsections: _subsections, ...section }) => ({
    ...parent,
    ...section,
  }));
  const subsectionRows = sections.flatMap((section) =>
    section.subsections.map((subsection) => ({ ...parent, sectionUuid: section.uuid, ...subsection })),
  );
  return { sectionRows, subsectionRows };
}
