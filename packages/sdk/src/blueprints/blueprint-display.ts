import type { BlueprintStatus, BlueprintVisibility } from '../resources/blueprints.js';
import type { ToolMode } from '../resources/section-schemas.js';
import { titleError } from '../resources/text-fields.js';
import {
  BLUEPRINT_TEXTS,
  BLUEPRINT_VERSION_MIN,
  PREFERRED_BLUEPRINT_TITLE,
  STUDIO_PUBLISHER,
} from './blueprint-texts.js';

/** The fields that say who made a blueprint, and whether the server marks it as the default. */
export interface BlueprintAuthorship {
  title: string;
  publisher: string | null;
  owner: { username: string } | null;
  user?: { username: string } | null;
  /** The server's own word that this is the seeded default (`docs/http-api.md` "Blueprints"). */
  is_default?: boolean | undefined;
}

/**
 * Whether `blueprint` is the seeded default of spec 000 §4 ("a fixed preferred blueprint"). The server says
 * so with `is_default: true`. For servers that do not send the flag it is recognised by its authorship;
 * the title alone is not enough, since anyone may call their own blueprint "Business Plan". The seeded one
 * is the only blueprint with no owner, published by the studio, and nobody can rename it or change its
 * publisher (only an owner may change a blueprint, and `publisher` is not writable over HTTP).
 */
export function isPreferredBlueprint(blueprint: BlueprintAuthorship): boolean {
  if (blueprint.is_default === true) return true;
  return (
    blueprint.title.trim() === PREFERRED_BLUEPRINT_TITLE &&
    blueprint.publisher?.trim() === STUDIO_PUBLISHER &&
    blueprint.owner === null &&
    (blueprint.user ?? null) === null
  );
}

/**
 * The default selection of the new-document modal (spec 000 §4): the blueprint the server marks
 * `is_default`, else (a server that does not send the flag) the one {@link isPreferredBlueprint}
 * recognises, else the first; `undefined` for an empty list.
 */
export function preferredBlueprint<T extends BlueprintAuthorship>(blueprints: readonly T[]): T | undefined {
  return (
    blueprints.find((blueprint) => blueprint.is_default === true) ??
    blueprints.find(isPreferredBlueprint) ??
    blueprints[0]
  );
}

/** Spec 000 §2, §3: the publisher, else the owner's username, else the studio's name. */
export function publisherLabel(blueprint: Pick<BlueprintAuthorship, 'publisher' | 'owner'>): string {
  const publisher = blueprint.publisher?.trim();
  if (publisher) return publisher;
  const owner = blueprint.owner?.username.trim();
  if (owner) return owner;
  return STUDIO_PUBLISHER;
}

/** The blueprint form's status and visibility, and when it is saved. */
export interface BlueprintPublicationInput {
  status: BlueprintStatus;
  visibility: BlueprintVisibility;
  /** The organisations chosen in the form (kept only for `restricted`). */
  allowedOrgs: readonly string[];
  /** The time of the save. */
  now: Date;
}

/** The two fields the blueprint form derives when saving. */
export interface BlueprintPublication {
  /** ISO 8601 of `now` when published; `null` for a draft. */
  published_at: string | null;
  allowed_orgs: string[];
}

/**
 * Spec 000 §4 "Blueprint status": saving as published sets `published_at` to the current time, otherwise
 * `null`; `allowed_orgs` is sent only when the visibility is `restricted`, otherwise it is empty.
 */
export function blueprintPublication(input: BlueprintPublicationInput): BlueprintPublication {
  return {
    published_at: input.status === 'published' ? input.now.toISOString() : null,
    allowed_orgs: input.visibility === 'restricted' ? [...new Set(input.allowedOrgs)] : [],
  };
}

/**
 * Spec 000 §5: the version must be a whole number of at least 1. Takes the number or the text of the
 * form's input; `undefined` when it is fine.
 */
export function versionError(version: number | string): string | undefined {
  const value =
    typeof version === 'string' ? (version.trim() === '' ? Number.NaN : Number(version)) : version;
  return Number.isSafeInteger(value) && value >= BLUEPRINT_VERSION_MIN
    ? undefined
    : BLUEPRINT_TEXTS.versionTooLow;
}

/**
 * Spec 001 §2: the MCP URL may only be set when `tool_mode` is `mcp` (`Enable MCP to set a URL.`), and then
 * must be an `http(s)` URL (as the server requires). `undefined` when it is fine.
 */
export function mcpUrlError(toolMode: ToolMode, url: string): string | undefined {
  const value = url.trim();
  if (toolMode !== 'mcp') return value === '' ? undefined : BLUEPRINT_TEXTS.enableMcp;
  if (value === '') return BLUEPRINT_TEXTS.mcpUrlRequired;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return BLUEPRINT_TEXTS.mcpUrlInvalid;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    return BLUEPRINT_TEXTS.mcpUrlInvalid;
  }
  return undefined;
}

/** Spec 000 §5, spec 001 §5: a blueprint title cannot be empty (`Title cannot be empty`); see `titleError`. */
export function validateBlueprintTitle(title: string): string | undefined {
  return titleError(title);
}

/** The title to show: the blueprint's, or `Untitled Blueprint` when it has none. */
export function blueprintTitle(blueprint: { title: string }): string {
  return blueprint.title.trim() === '' ? BLUEPRINT_TEXTS.untitled : blueprint.title;
}
