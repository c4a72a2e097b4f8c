import type {
  SectionOutlineRow,
  SectionRow,
  SubsectionOutlineRow,
  SubsectionRow,
  ToolMode,
} from '../structure/section-rows.js';

/** The outline columns every section and subsection table shares, as drizzle reads them. */
export interface StoredOutlinePart {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  position: number;
}

/** A stored subsection's outline columns, with its section (and `finalized` where the table has it). */
export interface StoredOutlineSubsection extends StoredOutlinePart {
  sectionUuid: string;
  finalized?: boolean;
}

/** The columns every section and subsection table shares, as drizzle reads them. */
export interface StoredPart extends StoredOutlinePart {
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

function outlinePartOf(row: StoredOutlinePart) {
  return { uuid: row.uuid, blueprintUuid: row.blueprintUuid, title: row.title, position: row.position };
}

function partOf(row: StoredPart) {
  return {
    ...outlinePartOf(row),
    developerPrompt: row.developerPrompt,
    userHint: row.userHint,
    toolMode: row.toolMode,
    mcpUrl: row.mcpUrl,
  };
}

const byPosition = (a: StoredOutlinePart, b: StoredOutlinePart) => a.position - b.position;

/** Sections with their subsections nested, both in position order, each made by its mapper. */
function nestParts<S extends StoredOutlinePart, U extends StoredOutlineSubsection, SectionOut, SubsectionOut>(
  sections: readonly S[],
  subsections: readonly U[],
  toSection: (row: S, subsections: SubsectionOut[]) => SectionOut,
  toSubsection: (row: U) => SubsectionOut,
): SectionOut[] {
  const bySection = new Map<string, SubsectionOut[]>();
  for (const row of [...subsections].sort(byPosition)) {
    const list = bySection.get(row.sectionUuid) ?? [];
    list.push(toSubsection(row));
    bySection.set(row.sectionUuid, list);
  }
  return [...sections].sort(byPosition).map((row) => toSection(row, bySection.get(row.uuid) ?? []));
}

/** Section rows with their subsection rows nested, both in position order. */
export function nestSections(
  sections: readonly StoredPart[],
  subsections: readonly StoredSubsection[],
): SectionRow[] {
  return nestParts(
    sections,
    subsections,
    (row, nested: SubsectionRow[]) => ({ ...partOf(row), subsections: nested }),
    (row) => ({ ...partOf(row), finalized: row.finalized ?? false }),
  );
}

/** The outline of stored rows (no settings), nested and in position order like {@link nestSections}. */
export function nestOutline(
  sections: readonly StoredOutlinePart[],
  subsections: readonly StoredOutlineSubsection[],
): SectionOutlineRow[] {
  return nestParts(
    sections,
    subsections,
    (row, nested: SubsectionOutlineRow[]) => ({ ...outlinePartOf(row), subsections: nested }),
    (row) => ({ ...outlinePartOf(row), finalized: row.finalized ?? false }),
  );
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
