import { z } from 'zod';
import { isUuid } from '../db/uuid.js';
import { HttpError } from '../http/http-error.js';
import { optionalBody } from '../http/optional-body.js';
import { longTextInput, PROMPT_MAX_LENGTH, titleInput } from '../http/text-fields.js';
import { type SectionSettings, TOOL_MODES } from './section-rows.js';

// PostgreSQL's integer; an order past the end is clamped anyway, so the bound only keeps the cast safe.
const MAX_ORDER = 2_147_483_647;

const order = z
  .number({ error: 'order must be a whole number of at least 1' })
  .int('order must be a whole number of at least 1')
  .min(1, 'order must be a whole number of at least 1')
  .max(MAX_ORDER, 'order is too large');

/** Prompts keep their paragraphs; edges are trimmed like every other text field. */
const settingText = (label: string) => longTextInput(label, PROMPT_MAX_LENGTH);

const settingsFields = {
  developer_prompt: settingText('Developer prompt').optional(),
  user_hint: settingText('User hint').optional(),
  tool_mode: z
    .enum(TOOL_MODES, { error: `tool_mode must be one of ${TOOL_MODES.map((m) => `"${m}"`).join(', ')}` })
    .optional(),
  mcp_url: z.string({ error: 'mcp_url must be text' }).max(2048, 'mcp_url is too long').optional(),
};

/** The settings fields of a section or subsection write, as sent. */
export interface SettingsPatch {
  developer_prompt?: string | undefined;
  user_hint?: string | undefined;
  tool_mode?: SectionSettings['toolMode'] | undefined;
  mcp_url?: string | undefined;
}

/** `POST …/sections/`: `{title?, order?, after?}`. */
export const newSectionInput = optionalBody(
  z.object({
    title: titleInput.nullish(),
    order: order.nullish(),
    after: z
      .string({ error: 'after must be a section uuid' })
      .refine(isUuid, 'after must be a section uuid')
      .transform((value) => value.toLowerCase())
      .nullish(),
  }),
);

/** `POST …/subsections/`: `{title?, order?}`. */
export const newSubsectionInput = optionalBody(
  z.object({ title: titleInput.nullish(), order: order.nullish() }),
);

/** `PATCH`/`PUT …/sections/{sid}/`: any of title, order and the settings. */
export const sectionPatchInput = z.object({
  title: titleInput.optional(),
  order: order.optional(),
  ...settingsFields,
});

/** `PATCH`/`PUT …/subsections/{sub}/`; `finalized` is refused on blueprints by the route. */
export const subsectionPatchInput = sectionPatchInput.extend({
  finalized: z.boolean({ error: 'finalized must be true or false' }).optional(),
});

function mcpUrlError(code: string, message: string): HttpError {
  return new HttpError(400, 'invalid', 'Invalid input: mcp_url', [{ param: 'mcp_url', code, message }]);
}

function isHttpUrl(value: string): boolean {
  // URL parsing would quietly drop tabs and newlines; a URL with any whitespace is not what was meant.
  if (/[\s\p{Cc}\p{Cs}]/u.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * `current` with `patch` applied, under the MCP rule of `docs/http-api.md`: `mcp_url` is an http(s)
 * URL when `tool_mode` is `mcp` (empty while not yet set) and `''` otherwise; a non-empty URL with
 * another mode answers 400 "Enable MCP to set a URL.".
 */
export function applySettingsPatch(current: SectionSettings, patch: SettingsPatch): SectionSettings {
  const toolMode = patch.tool_mode ?? current.toolMode;
  const sentUrl = patch.mcp_url?.trim();
  if (sentUrl !== undefined && sentUrl !== '') {
    if (toolMode !== 'mcp') throw mcpUrlError('mcp_disabled', 'Enable MCP to set a URL.');
    if (!isHttpUrl(sentUrl)) throw mcpUrlError('invalid_url', 'Enter an http or https URL.');
  }
  return {
    developerPrompt: patch.developer_prompt ?? current.developerPrompt,
    userHint: patch.user_hint ?? current.userHint,
    toolMode,
    mcpUrl: toolMode === 'mcp' ? (sentUrl ?? current.mcpUrl) : '',
  };
}

/** Whether a write body touches any setting. */
export function touchesSettings(patch: SettingsPatch): boolean {
  return (
    patch.developer_prompt !== undefined ||
    patch.user_hint !== undefined ||
    patch.tool_mode !== undefined ||
    patch.mcp_url !== undefined
  );
}
