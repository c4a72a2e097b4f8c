import { isDeepStrictEqual } from 'node:util';
import { outlineOf } from '@planwright/sdk/model';
import { type OutlineSection, reconcileSections, type SettingsOverrides } from './reconcile-sections.js';
import type { SectionOutlineRow, SectionRow } from './section-rows.js';
import { type StructureEvent, structureEvents } from './structure-events.js';

/** What a write does to the rows of a document or blueprint, and what it tells the activity feed. */
export interface StructurePlan {
  /** The rows the new tree calls for. */
  rows: SectionRow[];
  /** Whether they differ from the stored ones (a plain text edit changes none). */
  rowsChanged: boolean;
  /** Sections and subsections added, removed, renamed, finalized or reopened. */
  events: StructureEvent[];
}

/** The outline stored rows tell: they are rebuilt from the tree on every write, so it is the tree's. */
export function outlineOfRows(rows: readonly SectionOutlineRow[]): OutlineSection[] {
  return rows.map((section) => ({
    uuid: section.uuid,
    blueprintUuid: section.blueprintUuid,
    title: section.title,
    subsections: section.subsections.map(({ uuid, blueprintUuid, title, finalized }) => ({
      uuid,
      blueprintUuid,
      title,
      finalized,
    })),
  }));
}

/**
 * Whether the tree `after` has a section or subsection that `existing` lacks and that names a
 * blueprint part: only then does planning need the blueprint's rows (`template`), as
 * {@link reconcileSections} matches sections with sections and subsections with subsections.
 */
export function needsTemplate(after: unknown, existing: readonly SectionOutlineRow[]): boolean {
  const sections = new Set(existing.map((section) => section.uuid));
  const subsections = new Set(existing.flatMap((section) => section.subsections.map((sub) => sub.uuid)));
  return outlineOf(after).sections.some(
    (section) =>
      (section.blueprintUuid !== null && !sections.has(section.uuid)) ||
      section.subsections.some((sub) => sub.blueprintUuid !== null && !subsections.has(sub.uuid)),
  );
}

/**
 * Plans the rows for the tree `after` (the stored tree when left out), replacing `before`: rebuilt
 * from `after`'s outline, keeping the settings of surviving uuids (see {@link reconcileSections}).
 * Without `before`, the stored tree's outline is read from `existing`, so the tree need not be read.
 */
export function planStructure(input: {
  before?: unknown;
  after?: unknown;
  existing: readonly SectionRow[];
  template?: readonly SectionRow[];
  overrides?: SettingsOverrides;
}): StructurePlan {
  const before =
    input.before === undefined ? outlineOfRows(input.existing) : outlineOf(input.before).sections;
  const after = input.after === undefined ? before : outlineOf(input.after).sections;
  const rows = reconcileSections(after, input.existing, input.template, input.overrides);
  return {
    rows,
    rowsChanged: !isDeepStrictEqual(rows, input.existing),
    events: structureEvents(before, after),
  };
}
