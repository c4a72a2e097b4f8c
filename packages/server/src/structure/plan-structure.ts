import { isDeepStrictEqual } from 'node:util';
import { outlineOf } from '@planwright/sdk/model';
import { reconcileSections, type SettingsOverrides } from './reconcile-sections.js';
import type { SectionRow } from './section-rows.js';
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

/**
 * Plans the rows for the tree `after`, replacing `before`: rebuilt from `after`'s outline, keeping
 * the settings of surviving uuids (see {@link reconcileSections}).
 */
export function planStructure(input: {
  before: unknown;
  after: unknown;
  existing: readonly SectionRow[];
  template?: readonly SectionRow[];
  overrides?: SettingsOverrides;
}): StructurePlan {
  const before = outlineOf(input.before).sections;
  const after = outlineOf(input.after).sections;
  const rows = reconcileSections(after, input.existing, input.template, input.overrides);
  return {
    rows,
    rowsChanged: !isDeepStrictEqual(rows, input.existing),
    events: structureEvents(before, after),
  };
}
