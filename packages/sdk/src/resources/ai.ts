import * as z from 'zod';
import {
  type ChatAttachment,
  MAX_ATTACHMENT_CHARACTERS,
  MAX_ATTACHMENT_NAME_LENGTH,
} from '../chat/chat-messages.js';
import { ApiError } from '../errors/api-error.js';
import { AuthRequiredError } from '../errors/auth-required-error.js';
import { ERROR_CODES } from '../errors/error-codes.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import type { HttpClient } from '../http/http-client.js';
import { isBlob } from './blob.js';
import type { CallOptions } from './call-options.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { transformWithText } from './transform-stream.js';

/** The transform actions of spec 001 §7, in the order menus show them. */
export const TRANSFORM_ACTIONS = [
  'improve',
  'fix_grammar',
  'simplify',
  'extend',
  'shorten',
  'professional',
  'casual',
  'emojify',
] as const;

/** One of {@link TRANSFORM_ACTIONS}. */
export type TransformAction = (typeof TRANSFORM_ACTIONS)[number];

/** The words of spec 001 §5 and §8 the AI calls fail with. */
export const AI_TEXTS = {
  /** An empty selection: refused before anything is sent (AI10). */
  noTextSelected: 'No text selected',
  /** A failed transform whose answer carried no `detail` (AI12). */
  transformFailed: 'Failed to transform text',
  /** A refused attachment whose answer carried no `detail` (AI25). */
  attachmentFailed: 'Failed to read the file',
  /** An action the server cannot do without an AI model (409 `ai_model_required`, AI28). */
  modelRequired: 'This action needs an AI model. Ask your administrator to connect one.',
} as const;

/** Limits of one transform request, the server's own (checked before sending, AI11). */
export const TRANSFORM_LIMITS = {
  textMaxLength: 100_000,
  customPromptMaxLength: 4_000,
  maxItems: 100,
  titleMaxLength: 500,
  contentHtmlMaxLength: 200_000,
} as const;

/** The longest message {@link AiResource.context} assembles a prompt for. */
export const CONTEXT_MESSAGE_MAX_LENGTH = 20_000;

/** A file read for a chat message (`POST apps/ai/attachments/`, AI25): pass it on in `send`'s `attachments`. */
export interface ChatAttachmentFile extends ChatAttachment {
  /** What the server read it as; .docx comes back as Markdown. */
  format: 'md' | 'txt' | 'docx';
  /** Length of `content` (UTF-16 code units, as the chat's limits count). */
  characters: number;
  /** The text was cut at 100,000 characters. */
  truncated: boolean;
}

/** Who answers AI calls, as the UI labels it. */
export interface AiProviderSummary {
  /** `openai`, `anthropic`, `openai-compatible`, `offline`, or whatever the server said. */
  name: string;
  model: string;
  /** A human label, e.g. "Offline drafts (no AI model)". */
  label: string;
  /** True for the offline drafter: its output must never be presented as a model's. */
  offline: boolean;
}

/** What the provider can do. */
export interface AiProviderSupports {
  webAccess: boolean;
  research: boolean;
  tools: boolean;
}

/** Whether the server's provider does one transform action (AI28). */
export interface AiActionAvailability {
  action: TransformAction;
  /** The action can be asked for; when false the server answers 409 `ai_model_required`. */
  available: boolean;
  /** It runs without a model (the offline provider's rules). */
  offline: boolean;
}

/** `GET apps/ai/provider/`: the provider, what it supports and the per-user rate limit. */
export interface AiProviderInfo extends AiProviderSummary {
  supports: AiProviderSupports;
  /**
   * Every one of the eight transform actions, in {@link TRANSFORM_ACTIONS} order, with whether this server
   * does it: with no model connected only `fix_grammar`, `simplify` and `shorten` are available. A server
   * that does not say (older than this field) is taken to do all eight.
   */
  actions: AiActionAvailability[];
  /** AI calls one user may make a minute. */
  callsPerMinute: number;
}

/** AI calls and tokens over some period. */
export interface AiUsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** `GET apps/ai/usage/`: the caller's AI usage, in total and over the last 30 days. */
export interface AiUsage {
  /** The document the totals are for; `null` for all the caller's calls. */
  documentUuid: string | null;
  total: AiUsageTotals;
  last30Days: AiUsageTotals;
}

/** A plain-text transform. */
export interface TransformTextInput {
  /** The selected text; blank is refused with "No text selected" before anything is sent. */
  text: string;
  action: TransformAction;
  /** Extra instructions; blank counts as none. */
  customPrompt?: string | null;
  /** The document the text is from, for usage accounting; must be the caller's. */
  documentUuid?: string | null;
}

/** Options of `transformText`. */
export interface TransformTextOptions extends CallOptions {
  /**
   * Receives the answer so far as the AI writes it (AI29; the server streams it as `application/x-ndjson`):
   * cumulative text, before the final clean-up the resolved answer has. A server that does not stream never
   * calls it.
   */
  onText?: (text: string) => void;
}

/** The answer of a plain-text transform. */
export interface TransformTextResult {
  transformedText: string;
  provider: AiProviderSummary;
}

/** One subsection of a structured transform. */
export interface TransformItemInput {
  subsectionUuid: string;
  /** Whether the title is transformed too. */
  includeTitle: boolean;
  titleText: string;
  contentHtml: string;
}

/** A structured transform: whole subsections, as HTML. */
export interface TransformStructuredInput {
  action: TransformAction;
  customPrompt?: string | null;
  documentUuid?: string | null;
  /** 1 to 100 items; when none has any text the call fails with "No text selected" before sending. */
  items: TransformItemInput[];
}

/** One transformed subsection. */
export interface TransformedItem {
  subsectionUuid: string;
  title: string;
  contentHtml: string;
}

/** The answer of a structured transform. */
export interface TransformStructuredResult {
  items: TransformedItem[];
  provider: AiProviderSummary;
}

/** Which prompt {@link AiResource.context} assembles. */
export interface AiContextQuery {
  sectionUuid?: string;
  subsectionUuid?: string;
  /** A chat of this document: the prompt then carries its history and the decisions on its proposals. */
  chatId?: string;
  /** The user's message the prompt ends with; `''` when left out. */
  message?: string;
  webAccess?: boolean;
  research?: boolean;
}

/** One tool call an assistant turn made. */
export interface AiContextToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** One tool result, as the user decided it. */
export interface AiContextToolResult {
  toolCallId: string;
  toolName: string;
  /** `accepted`, `rejected`, `pending`, `invalid`, or whatever the server said. */
  decision: string;
  detail?: string;
}

/** One message of the assembled prompt. */
export type AiContextMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: AiContextToolCall[] }
  | { role: 'tool'; results: AiContextToolResult[] };

/** One named part of the system prompt, with its size. */
export interface AiContextPart {
  name: string;
  tokens: number;
  truncated: boolean;
  text: string;
}

/** `GET documents/{uuid}/ai/context/`: the prompt a chat would send, for inspection by its owner. */
export interface AiContext {
  provider: AiProviderSummary & { supports: AiProviderSupports };
  budgetTokens: number;
  totalTokens: number;
  overBudget: boolean;
  system: string;
  messages: AiContextMessage[];
  parts: AiContextPart[];
}

/** The AI calls (spec 001 §7 "AI transform"; the provider, usage and context views). */
export interface AiResource {
  /** Who answers AI calls (`GET apps/ai/provider/`). */
  provider(options?: CallOptions): Promise<AiProviderInfo>;
  /** The caller's AI usage, optionally for one of their documents (`GET apps/ai/usage/`). */
  usage(query?: { documentUuid?: string }, options?: CallOptions): Promise<AiUsage>;
  /**
   * Transforms selected text (`POST apps/ai/transform/`). A blank selection rejects with an
   * `InvalidInputError` whose message is "No text selected", before sending; a failed call with an
   * `ApiError` whose message is the server's `detail`, else "Failed to transform text".
   */
  transformText(input: TransformTextInput, options?: TransformTextOptions): Promise<TransformTextResult>;
  /** Transforms whole subsections (`POST apps/ai/transform/`, mode `structured`); fails like {@link transformText}. */
  transformStructured(
    input: TransformStructuredInput,
    options?: CallOptions,
  ): Promise<TransformStructuredResult>;
  /** The prompt the context engine would send for a chat about the document (`GET documents/{uuid}/ai/context/`). */
  context(documentUuid: string, query?: AiContextQuery, options?: CallOptions): Promise<AiContext>;
  /**
   * Reads a .md, .txt or .docx file (at most 5 MB) as text for a chat message (`POST apps/ai/attachments/`,
   * AI25–AI27); the name is `options.name`, else the `File`'s. A refused file rejects with an `ApiError`
   * whose message is the server's `detail` ("Only .md, .txt and .docx files can be attached.", …).
   */
  readAttachment(file: Blob, options?: CallOptions & { name?: string }): Promise<ChatAttachmentFile>;
}

const chatAttachmentFileSchema: z.ZodType<ChatAttachmentFile> = z.object({
  name: z.string().max(MAX_ATTACHMENT_NAME_LENGTH),
  format: z.enum(['md', 'txt', 'docx']),
  content: z.string().max(MAX_ATTACHMENT_CHARACTERS),
  characters: z.number().int().nonnegative(),
  truncated: z.boolean(),
});

const providerSummaryWire = z.object({
  name: z.string(),
  model: z.string(),
  label: z.string(),
  offline: z.boolean(),
});

const supportsWire = z
  .object({ web_access: z.boolean(), research: z.boolean(), tools: z.boolean() })
  .transform(
    (wire): AiProviderSupports => ({
      webAccess: wire.web_access,
      research: wire.research,
      tools: wire.tools,
    }),
  );

const providerSummarySchema = providerSummaryWire.transform(
  (wire): AiProviderSummary => ({
    name: wire.name,
    model: wire.model,
    label: wire.label,
    offline: wire.offline,
  }),
);

const actionsWire = z.array(
  z.object({ action: z.string(), available: z.boolean(), offline: z.boolean() }).loose(),
);

/** The actions as answered, in {@link TRANSFORM_ACTIONS} order; an action not named is taken to be available. */
function actionsOf(wire: z.infer<typeof actionsWire> | undefined, offline: boolean): AiActionAvailability[] {
  return TRANSFORM_ACTIONS.map((action) => {
    const said = wire?.find((entry) => entry.action === action);
    return said
      ? { action, available: said.available, offline: said.offline }
      : { action, available: true, offline };
  });
}

/** What `GET apps/ai/provider/` answers, normalised. */
export const aiProviderInfoSchema: z.ZodType<AiProviderInfo> = providerSummaryWire
  .extend({
    supports: supportsWire,
    calls_per_minute: z.number().int().nonnegative(),
    actions: actionsWire.optional(),
  })
  .transform(
    (wire): AiProviderInfo => ({
      name: wire.name,
      model: wire.model,
      label: wire.label,
      offline: wire.offline,
      supports: wire.supports,
      callsPerMinute: wire.calls_per_minute,
      actions: actionsOf(wire.actions, wire.offline),
    }),
  );

const count = z.number().int().nonnegative();
const totalsWire = z.object({ calls: count, input_tokens: count, output_tokens: count }).transform(
  (wire): AiUsageTotals => ({
    calls: wire.calls,
    inputTokens: wire.input_tokens,
    outputTokens: wire.output_tokens,
  }),
);

/** What `GET apps/ai/usage/` answers, normalised. */
export const aiUsageSchema: z.ZodType<AiUsage> = z
  .object({ document_uuid: z.string().nullish(), total: totalsWire, last_30_days: totalsWire })
  .transform(
    (wire): AiUsage => ({
      documentUuid: wire.document_uuid ?? null,
      total: wire.total,
      last30Days: wire.last_30_days,
    }),
  );

const transformTextAnswer = z
  .object({ transformed_text: z.string(), provider: providerSummarySchema })
  .transform(
    (wire): TransformTextResult => ({ transformedText: wire.transformed_text, provider: wire.provider }),
  );

const transformStructuredAnswer = z
  .object({
    items: z.array(
      z.object({ subsection_uuid: z.string(), title: z.string(), content_html: z.string() }).transform(
        (wire): TransformedItem => ({
          subsectionUuid: wire.subsection_uuid,
          title: wire.title,
          contentHtml: wire.content_html,
        }),
      ),
    ),
    provider: providerSummarySchema,
  })
  .transform((wire): TransformStructuredResult => ({ items: wire.items, provider: wire.provider }));

const contextMessageWire = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    tool_calls: z
      .array(z.object({ tool_call_id: z.string(), tool_name: z.string(), input: z.unknown() }))
      .nullish(),
  }),
  z.object({
    role: z.literal('tool'),
    results: z.array(
      z.object({
        tool_call_id: z.string(),
        tool_name: z.string(),
        decision: z.string(),
        detail: z.string().nullish(),
      }),
    ),
  }),
]);

function contextMessage(wire: z.output<typeof contextMessageWire>): AiContextMessage {
  switch (wire.role) {
    case 'user':
      return { role: 'user', content: wire.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: wire.content,
        toolCalls: (wire.tool_calls ?? []).map((call) => ({
          toolCallId: call.tool_call_id,
          toolName: call.tool_name,
          input: call.input,
        })),
      };
    default:
      return {
        role: 'tool',
        results: wire.results.map((result) => ({
          toolCallId: result.tool_call_id,
          toolName: result.tool_name,
          decision: result.decision,
          ...(typeof result.detail === 'string' ? { detail: result.detail } : {}),
        })),
      };
  }
}

/** What `GET documents/{uuid}/ai/context/` answers, normalised. */
export const aiContextSchema: z.ZodType<AiContext> = z
  .object({
    provider: providerSummaryWire.extend({ supports: supportsWire }),
    budget_tokens: count,
    total_tokens: count,
    over_budget: z.boolean(),
    system: z.string(),
    messages: z.array(contextMessageWire),
    parts: z.array(z.object({ name: z.string(), tokens: count, truncated: z.boolean(), text: z.string() })),
  })
  .transform(
    (wire): AiContext => ({
      provider: {
        name: wire.provider.name,
        model: wire.provider.model,
        label: wire.provider.label,
        offline: wire.provider.offline,
        supports: wire.provider.supports,
      },
      budgetTokens: wire.budget_tokens,
      totalTokens: wire.total_tokens,
      overBudget: wire.over_budget,
      system: wire.system,
      messages: wire.messages.map(contextMessage),
      parts: wire.parts,
    }),
  );

const identifier = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty');
const action = z.enum(TRANSFORM_ACTIONS, { error: `Choose one of: ${TRANSFORM_ACTIONS.join(', ')}.` });
const customPrompt = z
  .string({ error: 'must be text' })
  .max(TRANSFORM_LIMITS.customPromptMaxLength, {
    message: `Use at most ${TRANSFORM_LIMITS.customPromptMaxLength} characters.`,
  })
  .nullish()
  .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value));

const textInputSchema = z.object({
  text: z.string({ error: AI_TEXTS.noTextSelected }).max(TRANSFORM_LIMITS.textMaxLength, {
    message: `Select at most ${TRANSFORM_LIMITS.textMaxLength} characters.`,
  }),
  action,
  customPrompt,
  documentUuid: identifier.nullish(),
});

const itemInputSchema = z.object({
  subsectionUuid: identifier,
  includeTitle: z.boolean({ error: 'must be true or false' }),
  titleText: z.string({ error: 'must be text' }).max(TRANSFORM_LIMITS.titleMaxLength, {
    message: `Use at most ${TRANSFORM_LIMITS.titleMaxLength} characters.`,
  }),
  contentHtml: z.string({ error: 'must be text' }).max(TRANSFORM_LIMITS.contentHtmlMaxLength, {
    message: `Use at most ${TRANSFORM_LIMITS.contentHtmlMaxLength} characters.`,
  }),
});

const structuredInputSchema = z.object({
  action,
  customPrompt,
  documentUuid: identifier.nullish(),
  items: z
    .array(itemInputSchema, { error: 'must be a list' })
    .max(TRANSFORM_LIMITS.maxItems, { message: `Send at most ${TRANSFORM_LIMITS.maxItems} items.` }),
});

const contextQuerySchema = z.object({
  sectionUuid: identifier.optional(),
  subsectionUuid: identifier.optional(),
  chatId: identifier.optional(),
  message: z
    .string({ error: 'must be text' })
    .max(CONTEXT_MESSAGE_MAX_LENGTH, { message: `Use at most ${CONTEXT_MESSAGE_MAX_LENGTH} characters.` })
    .optional(),
  webAccess: z.boolean().optional(),
  research: z.boolean().optional(),
});

/** The "No text selected" failure (AI10): an `InvalidInputError` whose message is exactly those words. */
function noTextSelected(field: string): InvalidInputError {
  const error = new InvalidInputError({
    issues: [{ code: 'custom', path: [field], message: AI_TEXTS.noTextSelected, input: undefined }],
    subject: 'transform',
  });
  // Spec 001 §8 words it for the user as it is; the generic "Invalid transform: …" would not be.
  error.message = AI_TEXTS.noTextSelected;
  return error;
}

/** Whether HTML holds any text once tags are gone: the server's own cheap check, so both agree. */
function hasVisibleText(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ')
      .trim() !== ''
  );
}

/** Runs a call; a failed answer's message becomes its `detail`, else the fallback (AI12, AI26). */
async function transformCall<T>(
  call: () => Promise<T>,
  fallback: string = AI_TEXTS.transformFailed,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Both type guards name the same shape, so the sign-in case is tested first, apart from narrowing.
    const signInNeeded = AuthRequiredError.isInstance(error);
    if (signInNeeded || !ApiError.isInstance(error)) throw error;
    const detail = error.detail?.trim() ? error.detail : fallback;
    // No model for this action (AI28): its own code, so a client can hide the action instead of retrying.
    const modelRequired = error.serverCode === 'ai_model_required';
    throw new ApiError(
      {
        status: error.status,
        statusText: error.statusText,
        data: error.data,
        method: error.method,
        url: error.url,
        cause: error,
      },
      modelRequired
        ? {
            message: error.detail?.trim() ? error.detail : AI_TEXTS.modelRequired,
            code: ERROR_CODES.AI_MODEL_REQUIRED,
            isRetryable: false,
            suggestion: 'Connect an AI model to the server, or use an action that works offline.',
          }
        : { message: detail },
    );
  }
}

const onOff = (value: boolean | undefined) => (value === undefined ? undefined : value ? 'on' : 'off');

/** The AI resource over a request helper. */
export function createAiResource(http: HttpClient): AiResource {
  return {
    provider: async (options = {}) =>
      http.get('apps/ai/provider/', { schema: aiProviderInfoSchema, signal: options.signal }),
    usage: async (query = {}, options = {}) => {
      const asked = parseInput(z.object({ documentUuid: identifier.optional() }), query, 'usage query');
      return http.get('apps/ai/usage/', {
        params: { document_uuid: asked.documentUuid },
        schema: aiUsageSchema,
        signal: options.signal,
      });
    },
    transformText: async (input, options = {}) => {
      // The empty selection is the one error worded for the user, so it is checked first (AI10).
      const text: unknown = (input as { text?: unknown } | null | undefined)?.text;
      if (text === undefined || text === null || (typeof text === 'string' && text.trim() === '')) {
        throw noTextSelected('text');
      }
      const asked = parseInput(textInputSchema, input, 'transform');
      const body = {
        text: asked.text,
        action: asked.action,
        ...(asked.customPrompt === null ? {} : { custom_prompt: asked.customPrompt }),
        ...(asked.documentUuid ? { document_uuid: asked.documentUuid } : {}),
      };
      const { onText } = options;
      if (onText === undefined) {
        return transformCall(() =>
          http.post('apps/ai/transform/', body, { schema: transformTextAnswer, signal: options.signal }),
        );
      }
      return transformCall(async () => {
        const answer = await transformWithText(http, 'apps/ai/transform/', body, options.signal, onText);
        const parsed = transformTextAnswer.safeParse(answer);
        if (parsed.success) return parsed.data;
        throw new ResponseValidationError({
          issues: parsed.error.issues,
          data: answer,
          method: 'POST',
          url: 'apps/ai/transform/',
          cause: parsed.error,
        });
      });
    },
    transformStructured: async (input, options = {}) => {
      const asked = parseInput(structuredInputSchema, input, 'transform');
      const nothing = asked.items.every(
        (item) => (!item.includeTitle || item.titleText.trim() === '') && !hasVisibleText(item.contentHtml),
      );
      if (nothing) throw noTextSelected('items');
      const body = {
        mode: 'structured',
        action: asked.action,
        ...(asked.customPrompt === null ? {} : { custom_prompt: asked.customPrompt }),
        ...(asked.documentUuid ? { document_uuid: asked.documentUuid } : {}),
        items: asked.items.map((item) => ({
          subsection_uuid: item.subsectionUuid,
          include_title: item.includeTitle,
          title_text: item.titleText,
          content_html: item.contentHtml,
        })),
      };
      return transformCall(() =>
        http.post('apps/ai/transform/', body, { schema: transformStructuredAnswer, signal: options.signal }),
      );
    },
    readAttachment: async (file, options = {}) => {
      if (!isBlob(file)) {
        throw new InvalidInputError({
          issues: [{ code: 'custom', path: ['file'], message: 'must be a File or Blob', input: undefined }],
          subject: 'attachment',
        });
      }
      const named = (file as Partial<File>).name;
      const name = options.name ?? (typeof named === 'string' && named !== '' ? named : 'attachment');
      const form = new FormData();
      form.set('file', file, name);
      return transformCall(
        () =>
          http.post('apps/ai/attachments/', form, {
            schema: chatAttachmentFileSchema,
            signal: options.signal,
          }),
        AI_TEXTS.attachmentFailed,
      );
    },
    context: async (documentUuid, query = {}, options = {}) => {
      const path = `documents/${pathSegment(documentUuid, 'documentUuid')}/ai/context/`;
      const asked = parseInput(contextQuerySchema, query, 'context query');
      return http.get(path, {
        params: {
          section: asked.sectionUuid,
          subsection: asked.subsectionUuid,
          chat: asked.chatId,
          message: asked.message,
          web_access: onOff(asked.webAccess),
          research: onOff(asked.research),
        },
        schema: aiContextSchema,
        signal: options.signal,
      });
    },
  };
}
