import type { SectionOutlineRow, SectionRow, SubsectionRow } from './section-rows.js';

/** Which parent a section belongs to: blueprint subsections have no `finalized`. */
export type ParentKind = 'document' | 'blueprint';

function settingsView(row: SectionRow | SubsectionRow) {
  return {
    developer_prompt: row.developerPrompt,
    user_hint: row.userHint,
    tool_mode: row.toolMode,
    mcp_url: row.mcpUrl,
  };
}

/** A subsection as answered (`docs/http-api.md`). */
export function subsectionView(row: SubsectionRow, kind: ParentKind) {
  return {
    uuid: row.uuid,
    blueprint_uuid: row.blueprintUuid,
    title: row.title,
    order: row.position,
    ...(kind === 'document' ? { finalized: row.finalized } : {}),
    ...settingsView(row),
  };
}

/** A section with its settings and subsections, as answered. */
export function sectionView(row: SectionRow, kind: ParentKind) {
  return {
    uuid: row.uuid,
    blueprint_uuid: row.blueprintUuid,
    title: row.title,
    order: row.position,
    ...settingsView(row),
    subsections: row.subsections.map((subsection) => subsectionView(subsection, kind)),
  };
}

/**
 * A section's place in the outline, as list items answer it: `uuid`, `title`, `order` and its
 * subsections' (with `finalized` in documents), no settings (`docs/http-api.md`).
 */
export function sectionOutlineView(row: SectionOutlineRow, kind: ParentKind) {
  return {
    uuid: row.uuid,
    title: row.title,
    order: row.position,
    subsections: row.subsections.map((subsection) => ({
      uuid: subsection.uuid,
      title: subsection.title,
      order: subsection.position,
      ...(kind === 'document' ? { finalized: subsection.finalized } : {}),
    })),
  };
}
