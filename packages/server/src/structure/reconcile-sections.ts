import {
  EMPTY_SETTINGS,
  type SectionRow,
  type SectionSettings,
  type SubsectionRow,
  settingsOf,
} from './section-rows.js';

/** A subsection as the content tree's outline tells it. */
export interface OutlineSubsection {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  finalized: boolean;
}

/** A section as the content tree's outline tells it. */
export interface OutlineSection {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  subsections: readonly OutlineSubsection[];
}

/** Settings to set on named sections or subsections while reconciling (a settings write). */
export type SettingsOverrides = ReadonlyMap<string, SectionSettings>;

function indexSettings(rows: readonly SectionRow[]) {
  const sections = new Map<string, SectionSettings>();
  const subsections = new Map<string, SectionSettings>();
  for (const section of rows) {
    sections.set(section.uuid, settingsOf(section));
    for (const subsection of section.subsections) subsections.set(subsection.uuid, settingsOf(subsection));
  }
  return { sections, subsections };
}

/**
 * The section and subsection rows a content tree calls for: structure, titles, order and `finalized`
 * from the tree (the single source of truth); settings carried over from `existing` for every uuid that
 * survives; a new part takes the settings of the `template` part its `blueprintUuid` names (the
 * blueprint a document was made from), else none. `overrides` win over all of those.
 */
export function reconcileSections(
  outline: readonly OutlineSection[],
  existing: readonly SectionRow[],
  template: readonly SectionRow[] = [],
  overrides: SettingsOverrides = new Map(),
): SectionRow[] {
  const kept = indexSettings(existing);
  const fromTemplate = indexSettings(template);
  const settingsFor = (
    uuid: string,
    blueprintUuid: string | null,
    survivors: Map<string, SectionSettings>,
    templates: Map<string, SectionSettings>,
  ): SectionSettings =>
    overrides.get(uuid) ??
    survivors.get(uuid) ??
    (blueprintUuid === null ? undefined : templates.get(blueprintUuid)) ??
    EMPTY_SETTINGS;

  return outline.map((section, sectionIndex) => ({
    uuid: section.uuid,
    blueprintUuid: section.blueprintUuid,
    title: section.title,
    position: sectionIndex + 1,
    ...settingsFor(section.uuid, section.blueprintUuid, kept.sections, fromTemplate.sections),
    subsections: section.subsections.map(
      (subsection, subsectionIndex): SubsectionRow => ({
        uuid: subsection.uuid,
        blueprintUuid: subsection.blueprintUuid,
        title: subsection.title,
        position: subsectionIndex + 1,
        finalized: subsection.finalized,
        ...settingsFor(subsection.uuid, subsection.blueprintUuid, kept.subsections, fromTemplate.subsections),
      }),
    ),
  }));
}
