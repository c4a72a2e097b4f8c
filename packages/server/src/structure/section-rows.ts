/** How the AI may reach outside the plan while writing a section (spec 001 §2); `''` for not at all. */
export const TOOL_MODES = ['', 'web', 'research', 'fact_check', 'mcp'] as const;

/** One of {@link TOOL_MODES}. */
export type ToolMode = (typeof TOOL_MODES)[number];

/**
 * The AI settings of a section or subsection. They live only in the rows, never in the content tree,
 * so reconciliation carries them over by `uuid`.
 */
export interface SectionSettings {
  developerPrompt: string;
  userHint: string;
  toolMode: ToolMode;
  mcpUrl: string;
}

/** A subsection row (blueprint subsections always have `finalized: false`). */
export interface SubsectionRow extends SectionSettings {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  /** 1-based within its section. */
  position: number;
  finalized: boolean;
}

/** A section row with its subsection rows, in order. */
export interface SectionRow extends SectionSettings {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  /** 1-based within the document or blueprint. */
  position: number;
  subsections: SubsectionRow[];
}

/** A subsection's place in the outline: its row without the settings (what lists answer). */
export type SubsectionOutlineRow = Omit<SubsectionRow, keyof SectionSettings>;

/** A section's place in the outline, with its subsections', without settings (what lists answer). */
export interface SectionOutlineRow extends Omit<SectionRow, keyof SectionSettings | 'subsections'> {
  subsections: SubsectionOutlineRow[];
}

/** Settings of a section or subsection nobody has configured. */
export const EMPTY_SETTINGS: SectionSettings = Object.freeze({
  developerPrompt: '',
  userHint: '',
  toolMode: '',
  mcpUrl: '',
});

/** Just the settings of a row. */
export function settingsOf(row: SectionSettings): SectionSettings {
  return {
    developerPrompt: row.developerPrompt,
    userHint: row.userHint,
    toolMode: row.toolMode,
    mcpUrl: row.mcpUrl,
  };
}
