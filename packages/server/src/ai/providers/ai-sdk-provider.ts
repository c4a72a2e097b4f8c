import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, asSchema, generateText, type LanguageModel, streamText } from 'ai';
import type { AiConfig } from '../../config/config.js';
import {
  type AiFailureKind,
  type AiProvider,
  AiProviderError,
  type AiStreamEvent,
  type ChatPromptMessage,
  type ChatTurnRequest,
  type ExternalToolDefinition,
  type ProviderInfo,
  type TokenUsage,
  type TransformCall,
  type TransformResult,
} from './ai-provider.js';
import { isProposalToolName, proposalTools } from './proposal-tools.js';

/** A model of the AI SDK's provider specification v3 (what every provider package here makes). */
type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type ModelStreamOptions = Parameters<ModelV3['doStream']>[0];
type ModelPrompt = ModelStreamOptions['prompt'];
type ModelTools = NonNullable<ModelStreamOptions['tools']>;
type ModelToolSchema = Extract<ModelTools[number], { type: 'function' }>['inputSchema'];

/** The most external tool calls one answer makes when the request does not say (AP46). */
export const DEFAULT_MAX_EXTERNAL_CALLS = 8;

/** What one request to the model did: its text, whether it proposed, the external calls to run. */
interface StepResult {
  text: string;
  proposed: boolean;
  externalCalls: Array<{ toolCallId: string; toolName: string; input: unknown }>;
  finish: { usage: TokenUsage; finishReason: string } | null;
}

/** Waits `ms`; rejects as soon as `signal` aborts. */
export type SleepFunction = (ms: number, signal: AbortSignal) => Promise<void>;

/** Calls `onTimeout` after `ms` unless the returned cancel function is called first. */
export type TimerFunction = (ms: number, onTimeout: () => void) => () => void;

/** What tests (and only tests) replace: time, randomness and the network. */
export interface AiSdkProviderOptions {
  /** The backoff wait between retries (default: an abortable `setTimeout`). */
  sleep?: SleepFunction;
  /** Starts the per-call time-out (default: `setTimeout`). */
  setTimer?: TimerFunction;
  /** Passed to the AI SDK provider (default: the global `fetch`). */
  fetch?: typeof globalThis.fetch;
  /** The clock, for `retry-after` given as an HTTP date (default `Date.now`). */
  now?: () => number;
  /** In [0, 1), for the backoff jitter (default `Math.random`). */
  random?: () => number;
}

/** First retry waits this long; each further one twice as long. */
export const RETRY_BASE_DELAY_MS = 1000;
/** No backoff wait is longer than this. */
export const RETRY_MAX_DELAY_MS = 30_000;
/** A server's `retry-after` is honoured up to this long; a longer one falls back to the backoff. */
export const RETRY_AFTER_LIMIT_MS = 60_000;
/** Backoff waits vary by up to this fraction either way, so clients do not retry in lockstep. */
export const RETRY_JITTER = 0.2;

const PROVIDER_LABELS: Record<Exclude<AiConfig['provider'], 'offline'>, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible',
};

/** An abortable `setTimeout` wait. */
export const defaultSleep: SleepFunction = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

const defaultTimer: TimerFunction = (ms, onTimeout) => {
  const timer = setTimeout(onTimeout, ms);
  return () => clearTimeout(timer);
};

/**
 * The wait before retry number `attempt` (0 for the first retry): the server's `retry-after-ms` or
 * `retry-after` (seconds or an HTTP date) when given and at most {@link RETRY_AFTER_LIMIT_MS}, else
 * 1 s doubling up to 30 s with ±20 % jitter.
 */
export function retryDelayMs(
  attempt: number,
  headers: Record<string, string> | undefined,
  now: () => number,
  random: () => number,
): number {
  const told = retryAfterMs(headers, now);
  if (told !== undefined && told >= 0 && told <= RETRY_AFTER_LIMIT_MS) return told;
  const base = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** attempt);
  return Math.round(base * (1 + (random() * 2 - 1) * RETRY_JITTER));
}

function retryAfterMs(headers: Record<string, string> | undefined, now: () => number): number | undefined {
  if (!headers) return undefined;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value)) return value;
  }
  const after = headers['retry-after'];
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - now();
}

/** Our system prompt and history in the provider specification's prompt shape (tool results carry the user's decision as JSON). */
export function toModelPrompt(system: string, messages: readonly ChatPromptMessage[]): ModelPrompt {
  const prompt: ModelPrompt = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    if (message.role === 'user') {
      prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
    } else if (message.role === 'assistant') {
      prompt.push({
        role: 'assistant',
        content: [
          ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
          ...message.toolCalls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            input: call.input ?? {},
          })),
        ],
      });
    } else {
      prompt.push({
        role: 'tool',
        content: message.results.map((result) => ({
          type: 'tool-result' as const,
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          output: {
            type: 'json' as const,
            value:
              result.detail === undefined
                ? { decision: result.decision }
                : { decision: result.decision, detail: result.detail },
          },
        })),
      });
    }
  }
  return prompt;
}

let toolDefinitions: Promise<ModelTools> | undefined;
/** The two proposal tools as function definitions with JSON schemas (built once). */
function proposalToolDefinitions(): Promise<ModelTools> {
  toolDefinitions ??= Promise.all(
    Object.entries(proposalTools()).map(async ([name, definition]) => ({
      type: 'function' as const,
      name,
      description: definition.description,
      inputSchema: await asSchema(definition.inputSchema).jsonSchema,
    })),
  );
  return toolDefinitions;
}

/** A tool call's arguments as the model streamed them: JSON text, passed on as text when it is not JSON. */
function parseToolInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function usageOf(
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined,
): TokenUsage {
  return { inputTokens: usage?.inputTokens ?? null, outputTokens: usage?.outputTokens ?? null };
}

/** A failure sorted out: what to tell, and whether trying again may help. */
interface ClassifiedFailure {
  kind: AiFailureKind;
  status: number | undefined;
  retryable: boolean;
  headers: Record<string, string> | undefined;
  detail: string;
}

const BAD_DATA_ERRORS = new Set([
  'AI_InvalidResponseDataError',
  'AI_JSONParseError',
  'AI_TypeValidationError',
  'AI_NoContentGeneratedError',
  'AI_EmptyResponseBodyError',
  'AI_NoOutputGeneratedError',
  'AI_InvalidPromptError',
  'AI_UnsupportedFunctionalityError',
]);

function classify(error: unknown): ClassifiedFailure {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const kind: AiFailureKind =
      status === 429
        ? 'rate_limited'
        : status === undefined || status >= 500 || error.isRetryable
          ? 'unavailable'
          : 'bad_response';
    return {
      kind,
      status,
      retryable: error.isRetryable,
      headers: error.responseHeaders,
      detail: error.message,
    };
  }
  const name = error instanceof Error ? error.name : '';
  const detail = error instanceof Error ? error.message : String(error);
  // Malformed answers are the model's fault; anything else (a reset socket, a DNS failure) is the network's.
  const kind: AiFailureKind = BAD_DATA_ERRORS.has(name) ? 'bad_response' : 'unavailable';
  return { kind, status: undefined, retryable: false, headers: undefined, detail };
}

/** One call's abort controller: the caller's signal (Stop) and the time-out both end it, with a reason. */
class CallControl {
  readonly controller = new AbortController();
  private cause: 'cancelled' | 'timeout' | null = null;
  private readonly cancelTimer: () => void;
  private readonly onCallerAbort = () => this.end('cancelled');

  constructor(
    private readonly callerSignal: AbortSignal,
    timeoutMs: number,
    setTimer: TimerFunction,
  ) {
    this.cancelTimer = setTimer(timeoutMs, () => this.end('timeout'));
    if (callerSignal.aborted) this.end('cancelled');
    else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private end(cause: 'cancelled' | 'timeout') {
    if (this.cause !== null) return;
    this.cause = cause;
    this.controller.abort(cause);
  }

  /** The error for an aborted call, or null while it runs. */
  abortError(label: string, timeoutMs: number): AiProviderError | null {
    if (this.cause === 'timeout') {
      return new AiProviderError(
        'timeout',
        `${label} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
      );
    }
    if (this.cause === 'cancelled') return new AiProviderError('cancelled', 'The AI call was cancelled.');
    return null;
  }

  /** Stops the timer and any request still running (a consumer that stopped reading). */
  dispose() {
    this.cancelTimer();
    this.callerSignal.removeEventListener('abort', this.onCallerAbort);
    if (this.cause === null) {
      this.cause = 'cancelled';
      this.controller.abort('done');
    }
  }
}

function languageModelOf(config: AiConfig, fetchImpl: typeof globalThis.fetch | undefined): ModelV3 {
  const common = {
    apiKey: config.apiKey,
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  };
  switch (config.provider) {
    case 'openai':
      // The Chat Completions model, not the Responses one, so any OpenAI-style base URL works.
      return createOpenAI(common).chat(config.model);
    case 'anthropic':
      return createAnthropic(common)(config.model);
    case 'openai-compatible':
      if (!config.baseUrl) throw new Error('The openai-compatible AI provider needs PLANWRIGHT_AI_BASE_URL.');
      return createOpenAICompatible({
        ...common,
        baseURL: config.baseUrl,
        name: 'openai-compatible',
        includeUsage: true,
      })(config.model);
    default:
      throw new Error(`The AI SDK provider does not serve "${config.provider}".`);
  }
}

/**
 * The provider for a model reached through the AI SDK (OpenAI, Anthropic, or any OpenAI-compatible
 * server). The AI SDK's own retries are off: this provider retries 429 and 5xx answers itself, only
 * before anything was streamed, with a backoff of 1 s doubling to 30 s (±20 %) or the server's
 * `retry-after`. Every failure is an {@link AiProviderError} whose message never holds the API key.
 */
export function createAiSdkProvider(config: AiConfig, options: AiSdkProviderOptions = {}): AiProvider {
  if (config.provider === 'offline') throw new Error('Use createOfflineProvider for the offline provider.');
  const model = languageModelOf(config, options.fetch);
  const sleep = options.sleep ?? defaultSleep;
  const setTimer = options.setTimer ?? defaultTimer;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const providerLabel = PROVIDER_LABELS[config.provider];
  const info: ProviderInfo = {
    name: config.provider,
    model: config.model,
    label: `${providerLabel} · ${config.model}`,
    offline: false,
    // Web access is the `web_search` tool, which needs a search service (AP47).
    supports: { webAccess: config.search !== null, research: config.search !== null, tools: true },
  };
  const serviceName = `The AI service (${info.label})`;

  const redact = (text: string): string => {
    const key = config.apiKey;
    let out = text.length > 500 ? `${text.slice(0, 500)}…` : text;
    if (key && key.length >= 4) out = out.split(key).join('[redacted]');
    return out;
  };

  const failure = (found: ClassifiedFailure, attempts: number): AiProviderError => {
    const status = found.status === undefined ? '' : ` (HTTP ${found.status})`;
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    const said = found.detail ? `: ${redact(found.detail)}` : '.';
    const message =
      found.kind === 'rate_limited'
        ? `${serviceName} is rate limiting requests${status}${tries}${said}`
        : found.kind === 'unavailable'
          ? `${serviceName} is unavailable${status}${tries}${said}`
          : `${serviceName} gave an unusable answer${status}${said}`;
    return new AiProviderError(found.kind, message, found.status);
  };

  /** Waits before the next attempt; false when no attempt is left or the failure is final. */
  const shouldRetry = async (found: ClassifiedFailure, attempt: number, control: CallControl) => {
    if (!found.retryable || attempt >= config.maxRetries) return false;
    await sleep(retryDelayMs(attempt, found.headers, now, random), control.signal);
    return true;
  };

  return {
    info,

    async *streamChat(request: ChatTurnRequest): AsyncGenerator<AiStreamEvent> {
      const control = new CallControl(request.signal, config.timeoutMs, setTimer);
      const aborted = () => control.abortError(serviceName, config.timeoutMs);
      // A tool named like a proposal tool never shadows it; the first of two with one name wins.
      const external = new Map<string, ExternalToolDefinition>();
      for (const tool of request.externalTools ?? []) {
        if (!isProposalToolName(tool.name) && !external.has(tool.name)) external.set(tool.name, tool);
      }
      const maxCalls = request.maxExternalCalls ?? DEFAULT_MAX_EXTERNAL_CALLS;
      const prompt = toModelPrompt(request.system, request.messages);
      const total: { inputTokens: number | null; outputTokens: number | null } = {
        inputTokens: null,
        outputTokens: null,
      };
      let callsMade = 0;
      let textSoFar = '';

      /** One request to the model (with retries before anything streamed); yields its events, returns what it did. */
      const streamStep = async function* (tools: ModelTools): AsyncGenerator<AiStreamEvent, StepResult> {
        for (let attempt = 0; ; attempt += 1) {
          let yielded = false;
          const step: StepResult = { text: '', proposed: false, externalCalls: [], finish: null };
          try {
            // The model's own stream (the AI SDK provider's doStream), not streamText: streamText's step and
            // tool machinery costs about five times as much per chunk, and the relay forwards every chunk.
            const { stream } = await model.doStream({
              prompt,
              ...(tools.length > 0 ? { tools } : {}),
              abortSignal: control.signal,
            });
            const reader = stream.getReader();
            // The ids of proposal tool calls in this step, whose argument deltas are forwarded.
            const proposalInputs = new Set<string>();
            try {
              for (;;) {
                const next = await reader.read();
                if (next.done) break;
                const part = next.value;
                if (part.type === 'text-delta') {
                  if (part.delta === '') continue;
                  // A step after tool calls starts a new paragraph of the one answer the user reads.
                  if (step.text === '' && textSoFar !== '' && !textSoFar.endsWith('\n')) {
                    yield { type: 'text', delta: '\n\n' };
                    textSoFar += '\n\n';
                  }
                  yielded = true;
                  step.text += part.delta;
                  textSoFar += part.delta;
                  yield { type: 'text', delta: part.delta };
                } else if (part.type === 'tool-input-start') {
                  if (!isProposalToolName(part.toolName)) continue;
                  yielded = true;
                  proposalInputs.add(part.id);
                  yield { type: 'tool-generating', toolCallId: part.id, toolName: part.toolName };
                } else if (part.type === 'tool-input-delta') {
                  // Only a proposal's arguments stream to the user (an external tool's are the server's business).
                  if (part.delta === '' || !proposalInputs.has(part.id)) continue;
                  yield { type: 'tool-input', toolCallId: part.id, delta: part.delta };
                } else if (part.type === 'tool-call') {
                  if (external.has(part.toolName) && tools.some((tool) => tool.name === part.toolName)) {
                    step.externalCalls.push({
                      toolCallId: part.toolCallId,
                      toolName: part.toolName,
                      input: parseToolInput(part.input),
                    });
                    continue;
                  }
                  // A tool the model invented is dropped; ours go to the caller, which validates the input.
                  if (!isProposalToolName(part.toolName)) continue;
                  yielded = true;
                  step.proposed = true;
                  yield {
                    type: 'tool-call',
                    toolCallId: part.toolCallId,
                    toolName: part.toolName,
                    input: parseToolInput(part.input),
                  };
                } else if (part.type === 'finish') {
                  step.finish = {
                    usage: {
                      inputTokens: part.usage.inputTokens.total ?? null,
                      outputTokens: part.usage.outputTokens.total ?? null,
                    },
                    finishReason: part.finishReason.unified,
                  };
                } else if (part.type === 'error') {
                  throw part.error;
                }
              }
            } finally {
              reader.releaseLock();
            }
            const stopped = aborted();
            if (stopped) throw stopped;
            if (!step.finish)
              throw new AiProviderError('bad_response', `${serviceName} ended its answer without finishing.`);
            return step;
          } catch (error) {
            const stopped = aborted();
            if (stopped) throw stopped;
            if (error instanceof AiProviderError) throw error;
            const found = classify(error);
            if (yielded) throw failure({ ...found, retryable: false }, attempt + 1);
            try {
              if (await shouldRetry(found, attempt, control)) continue;
            } catch {
              throw aborted() ?? failure(found, attempt + 1);
            }
            throw failure(found, attempt + 1);
          }
        }
      };

      try {
        const proposalDefinitions = request.tools ? await proposalToolDefinitions() : [];
        const externalDefinitions: ModelTools = [...external.values()].map((tool) => ({
          type: 'function' as const,
          name: tool.name,
          description: tool.description,
          // A JSON Schema object as the MCP server listed it (TL7); the provider passes it on as it is.
          inputSchema: tool.inputSchema as ModelToolSchema,
        }));
        for (;;) {
          // Past the limit the external tools are no longer offered, so the model must answer (AP46).
          const offered = callsMade < maxCalls ? externalDefinitions : [];
          const step = yield* streamStep([...proposalDefinitions, ...offered]);
          const usage = step.finish?.usage;
          if (usage?.inputTokens != null) total.inputTokens = (total.inputTokens ?? 0) + usage.inputTokens;
          if (usage?.outputTokens != null)
            total.outputTokens = (total.outputTokens ?? 0) + usage.outputTokens;
          // A proposal ends the turn as it always did: the user decides before the model goes on (AP45).
          if (step.proposed || step.externalCalls.length === 0) {
            yield { type: 'finish', usage: total, finishReason: step.finish?.finishReason ?? 'unknown' };
            return;
          }
          prompt.push({
            role: 'assistant',
            content: [
              ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
              ...step.externalCalls.map((call) => ({
                type: 'tool-call' as const,
                toolCallId: call.toolCallId,
                toolName: call.toolName,
                input: call.input ?? {},
              })),
            ],
          });
          const results: Array<{
            type: 'tool-result';
            toolCallId: string;
            toolName: string;
            output: { type: 'text' | 'error-text'; value: string };
          }> = [];
          for (const call of step.externalCalls) {
            const tool = external.get(call.toolName);
            if (!tool || callsMade >= maxCalls) {
              results.push({
                type: 'tool-result',
                toolCallId: call.toolCallId,
                toolName: call.toolName,
                output: {
                  type: 'error-text',
                  value: `Not run: this answer already made ${maxCalls} tool calls, the most one answer may make. Answer with what you have.`,
                },
              });
              continue;
            }
            callsMade += 1;
            const labels = {
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              source: tool.source,
              server: tool.server,
            };
            yield { type: 'external-call-start', ...labels };
            const startedAt = now();
            const outcome = await tool.execute(call.input, control.signal);
            yield {
              type: 'external-call-end',
              ...labels,
              outcome,
              durationMs: Math.max(0, now() - startedAt),
            };
            const stopped = aborted();
            if (stopped) throw stopped;
            results.push({
              type: 'tool-result',
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              output: { type: outcome.ok ? 'text' : 'error-text', value: outcome.output },
            });
          }
          prompt.push({ role: 'tool', content: results });
        }
      } finally {
        control.dispose();
      }
    },

    async transform(call: TransformCall): Promise<TransformResult> {
      const control = new CallControl(call.signal, config.timeoutMs, setTimer);
      let streamed = false;
      const aborted = () => control.abortError(serviceName, config.timeoutMs);
      try {
        for (let attempt = 0; ; attempt += 1) {
          try {
            const result = call.onText
              ? await streamTransform(model, call, control.signal, call.onText, () => {
                  streamed = true;
                })
              : await generateText({
                  model,
                  system: call.system,
                  prompt: call.prompt,
                  maxRetries: 0,
                  abortSignal: control.signal,
                });
            if (result.text.trim() === '') {
              throw new AiProviderError('bad_response', `${serviceName} answered with no text.`);
            }
            return { text: result.text, usage: usageOf(result.usage) };
          } catch (error) {
            const stopped = aborted();
            if (stopped) throw stopped;
            if (error instanceof AiProviderError) throw error;
            const found = classify(error);
            // Text the user already saw is never asked for again (as in a chat turn).
            if (streamed) throw failure(found, attempt + 1);
            try {
              if (await shouldRetry(found, attempt, control)) continue;
            } catch {
              throw aborted() ?? failure(found, attempt + 1);
            }
            throw failure(found, attempt + 1);
          }
        }
      } finally {
        control.dispose();
      }
    },
  };
}

/**
 * A transform whose text goes to `onText` as the model writes it (TR57), through the AI SDK's `streamText`: the
 * stream's error part is thrown (it would otherwise only be logged), so retries and failures work as with
 * `generateText`.
 */
async function streamTransform(
  model: LanguageModel,
  call: TransformCall,
  signal: AbortSignal,
  onText: (delta: string) => void,
  onFirst: () => void,
): Promise<{ text: string; usage: Parameters<typeof usageOf>[0] }> {
  const result = streamText({
    model,
    system: call.system,
    prompt: call.prompt,
    maxRetries: 0,
    abortSignal: signal,
    // Thrown below instead: the default would only log it.
    onError: () => {},
  });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'error') throw part.error;
    if (part.type !== 'text-delta' || part.text === '') continue;
    if (text === '') onFirst();
    text += part.text;
    onText(part.text);
  }
  return { text, usage: await result.usage };
}
