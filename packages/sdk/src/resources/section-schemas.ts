import * as z from 'zod';
import {
  identityFields,
  missingUuid,
  optionalText,
  pickTitle,
  pickUuid,
  textOrEmpty,
} from './wire-fields.js';

/** Spec 001 §2: what the AI may use for a section or subsection (`''` for none). */
export const TOOL_MODES = ['', 'web', 'research', 'fact_check', 'mcp'] as const;

/** One of {@link TOOL_MODES}. */
export type ToolMode = (typeof TOOL_MODES)[number];

/** The AI settings every section and subsection carries (spec 001 §2, `docs/http-api.md`). */
export interface SectionSettings {
  /** Hidden instructions for the AI. */
  developer_prompt: string;
  /** Guidance shown to the writer. */
  user_hint: string;
  tool_mode: ToolMode;
  /** The MCP server's URL; `''` unless `tool_mode` is `mcp`. */
  mcp_url: string;
}

/** A subsection (level-2 part of a section). */
export interface Subsection extends SectionSettings {
  uuid: string;
  /** The blueprint subsection it was made from, if any. */
  blueprint_uuid: string | null;
  /** `''` when the server sent none (shown as "Untitled Subsection"). */
  title: string;
  /** 1-based position in its section. */
  order: number;
  /** Whether the writer marked it done (documents only; always `false` in blueprints). */
  finalized: boolean;
}

/** A section (level-1 part of a document or blueprint) with its subsections. */
export interface Section extends SectionSettings {
  uuid: string;
  /** The blueprint section it was made from, if any. */
  blueprint_uuid: string | null;
  /** `''` when the server sent none (shown as "Untitled Section"). */
  title: string;
  /** 1-based position in the document. */
  order: number;
  subsections: Subsection[];
}

/** A section or subsection as answered by a section endpoint, with its parent's new revision. */
export type WithRevision<T> = T & {
  /** The document's (or blueprint's) revision after the call, from the answer's `ETag`; `null` if none. */
  revision: number | null;
};

const settingsWire = {
  developer_prompt: textOrEmpty,
  user_hint: textOrEmpty,
  tool_mode: z
    .enum(TOOL_MODES)
    .nullish()
    .transform((value) => value ?? ''),
  mcp_url: textOrEmpty,
};

const partWire = z.object({
  ...identityFields,
  blueprint_uuid: optionalText,
  order: z.number().int().nullish(),
  ...settingsWire,
});

const subsectionWire = partWire.extend({ finalized: z.boolean().nullish() });

function toSubsection(wire: z.output<typeof subsectionWire>, uuid: string, index: number): Subsection {
  return {
    uuid,
    blueprint_uuid: wire.blueprint_uuid,
    title: pickTitle(wire),
    order: wire.order ?? index + 1,
    finalized: wire.finalized ?? false,
    developer_prompt: wire.developer_prompt,
    user_hint: wire.user_hint,
    tool_mode: wire.tool_mode,
    mcp_url: wire.mcp_url,
  };
}

/**
 * Spec 001 §2 "only sections with a uuid are listed": in an outline, parts without an identifier are
 * left out rather than failing the whole answer; a missing `order` is the 1-based position.
 */
function outline<W extends { uuid?: string | null; id?: string | null }, T>(
  items: readonly W[] | null | undefined,
  make: (wire: W, uuid: string, index: number) => T,
): T[] {
  const result: T[] = [];
  for (const wire of items ?? []) {
    const uuid = pickUuid(wire);
    if (uuid !== undefined) result.push(make(wire, uuid, result.length));
  }
  return result;
}

const sectionWire = partWire.extend({ subsections: z.array(subsectionWire).nullish() });

function toSection(wire: z.output<typeof sectionWire>, uuid: string, index: number): Section {
  return {
    uuid,
    blueprint_uuid: wire.blueprint_uuid,
    title: pickTitle(wire),
    order: wire.order ?? index + 1,
    developer_prompt: wire.developer_prompt,
    user_hint: wire.user_hint,
    tool_mode: wire.tool_mode,
    mcp_url: wire.mcp_url,
    subsections: outline(wire.subsections, toSubsection),
  };
}

/** The `sections` of a document or blueprint answer: an outline, `[]` when absent. */
export const sectionsOutlineSchema = z
  .array(sectionWire)
  .nullish()
  .transform((items): Section[] => outline(items, toSection));

/** One subsection answer (`GET …/subsections/{sub}/`); it must name itself. */
export const subsectionSchema = subsectionWire.transform((wire, ctx): Subsection => {
  const uuid = pickUuid(wire);
  return uuid === undefined ? missingUuid(ctx, wire) : toSubsection(wire, uuid, 0);
});

/** One section answer (`GET …/sections/{sid}/`); it must name itself. */
export const sectionSchema = sectionWire.transform((wire, ctx): Section => {
  const uuid = pickUuid(wire);
  return uuid === undefined ? missingUuid(ctx, wire) : toSection(wire, uuid, 0);
});
