/** The limits every external tool call keeps (docs/ai.md "Tools"; TL5–TL7). Tests pass smaller ones. */
export interface ExternalToolLimits {
  /** One tool call (an MCP `tools/call`, a web search) is abandoned after this long. */
  callTimeoutMs: number;
  /** Connecting to an MCP server and listing its tools is abandoned after this long. */
  connectTimeoutMs: number;
  /** A result longer than this many characters is cut, with a note saying so, before the model reads it. */
  maxResultChars: number;
  /** The most external tool calls one answer makes; the model is told past it and must answer. */
  maxCallsPerTurn: number;
}

/** One tool call gets 15 s: long enough for a search or a slow API, short enough that the user is not left waiting. */
export const TOOL_CALL_TIMEOUT_MS = 15_000;
/** Connecting to an MCP server and listing its tools gets 10 s. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;
/** About 5,000 tokens: a tool result never crowds the plan out of the model's context. */
export const MAX_TOOL_RESULT_CHARS = 20_000;
/** Eight calls per answer: enough for a few searches and lookups, never a loop that runs until the time-out. */
export const MAX_TOOL_CALLS_PER_TURN = 8;
/** At most this many of an MCP server's tools are offered (the first ones it lists). */
export const MAX_MCP_TOOLS = 32;
/** An MCP tool's description is cut to this many characters. */
export const MAX_TOOL_DESCRIPTION_CHARS = 1_000;

export const DEFAULT_TOOL_LIMITS: ExternalToolLimits = {
  callTimeoutMs: TOOL_CALL_TIMEOUT_MS,
  connectTimeoutMs: MCP_CONNECT_TIMEOUT_MS,
  maxResultChars: MAX_TOOL_RESULT_CHARS,
  maxCallsPerTurn: MAX_TOOL_CALLS_PER_TURN,
};

/** The summary of a call cut off by Stop (or the answer's own time-out): no note is added for it. */
export const STOPPED_SUMMARY = 'stopped';

/** `text` cut to `max` characters (never half a surrogate pair), with a note the model reads. */
export function capResult(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let cut = text.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return {
    text: `${cut}\n\n[Result truncated: it was ${text.length.toLocaleString('en')} characters; only the first ${max.toLocaleString('en')} are shown.]`,
    truncated: true,
  };
}

/**
 * Runs `work` with its own abort signal that ends when `signal` does or after `ms`; resolves to `timeout`
 * when the time ran out first (the work is aborted).
 */
export async function withTimeLimit<T>(
  ms: number,
  signal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; timedOut: boolean; stopped: boolean; error: unknown }> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
      reject(new Error('timeout'));
    }, ms);
  });
  try {
    const value = await Promise.race([work(controller.signal), timeout]);
    return { ok: true, value };
  } catch (error) {
    // `stopped`: the caller's signal ended it (Stop), not this call's own time limit.
    return { ok: false, timedOut, stopped: !timedOut && signal.aborted, error };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
