/** The query parameters that select what the editor shows (spec 001 §2 "Screens and routes"). */
export const SECTION_PARAM = 'section';
export const SUBSECTION_PARAM = 'subsection';

/** What is selected: a section, and optionally one of its subsections. */
export interface Selection {
  sectionUuid: string | null;
  subsectionUuid: string | null;
}

/** What the selection rules need of an outline: sections with their subsections, by uuid. */
export interface SelectableOutline {
  sections: ReadonlyArray<{ uuid: string; subsections: ReadonlyArray<{ uuid: string }> }>;
}

export const NO_SELECTION: Selection = Object.freeze({ sectionUuid: null, subsectionUuid: null });

/** The selection the URL asks for, as written (nothing checked yet). */
export function requestedSelection(params: URLSearchParams): Selection {
  const read = (name: string) => {
    const value = params.get(name);
    return value === null || value === '' ? null : value;
  };
  return { sectionUuid: read(SECTION_PARAM), subsectionUuid: read(SUBSECTION_PARAM) };
}

/**
 * W25: the section from the URL only if the outline has it, the subsection only if it belongs to that
 * section; otherwise the first section (and no subsection). An outline without sections selects nothing.
 */
export function resolveSelection(outline: SelectableOutline, requested: Selection): Selection {
  const asked = outline.sections.find((section) => section.uuid === requested.sectionUuid);
  const section = asked ?? outline.sections[0];
  if (!section) return NO_SELECTION;
  const subsection =
    asked && requested.subsectionUuid !== null
      ? section.subsections.find((candidate) => candidate.uuid === requested.subsectionUuid)
      : undefined;
  return { sectionUuid: section.uuid, subsectionUuid: subsection?.uuid ?? null };
}

/** Whether two selections are the same. */
export function sameSelection(a: Selection, b: Selection): boolean {
  return a.sectionUuid === b.sectionUuid && a.subsectionUuid === b.subsectionUuid;
}

/**
 * The query string for `selection`, keeping every other parameter of `current` as it was (W26). An empty
 * part is left out rather than written as `section=`.
 */
export function selectionSearch(current: URLSearchParams, selection: Selection): URLSearchParams {
  const next = new URLSearchParams(current);
  if (selection.sectionUuid === null) next.delete(SECTION_PARAM);
  else next.set(SECTION_PARAM, selection.sectionUuid);
  if (selection.subsectionUuid === null || selection.sectionUuid === null) next.delete(SUBSECTION_PARAM);
  else next.set(SUBSECTION_PARAM, selection.subsectionUuid);
  return next;
}

/**
 * W26: a new section is a new place to go Back from, so it pushes a history entry; a subsection of the
 * section already selected (or the section itself again) replaces it, so Back does not walk through every
 * subsection clicked.
 */
export function historyMode(previous: Selection, next: Selection): 'push' | 'replace' {
  return previous.sectionUuid === next.sectionUuid ? 'replace' : 'push';
}
