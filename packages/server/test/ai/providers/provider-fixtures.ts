import type {
  AiStreamEvent,
  ChatPromptMessage,
  ChatTurnRequest,
  ScopeBlock,
  ScopeBrief,
  ScopeSubsection,
} from '../../../src/ai/providers/ai-provider.js';
import type { AiConfig } from '../../../src/config/config.js';

/** The API key the tests configure; no error message may ever contain it. */
export const TEST_API_KEY = 'sk-test-9f8e7d6c5b4a-SECRET-do-not-leak';

/** A provider configuration pointing at the local test server. */
export function aiConfig(overrides: Partial<AiConfig> = {}): AiConfig {
  return {
    provider: 'openai-compatible',
    model: 'test-model',
    baseUrl: undefined,
    apiKey: TEST_API_KEY,
    timeoutMs: 120_000,
    maxRetries: 2,
    contextTokens: 24_000,
    callsPerMinute: 20,
    search: null,
    mcp: { allowedUrls: [], allowPrivateNetwork: false },
    ...overrides,
  };
}

/** The blocks of some Markdown as the context engine gives them: one per blank-line-separated part, ids n1, n2… */
export function blocksOf(markdown: string): ScopeBlock[] {
  return markdown
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== '')
    .map((part, index) => ({
      nodeId: `n${index + 1}`,
      type: /^#{1,6} /.test(part)
        ? 'heading'
        : /^[-*+] /.test(part)
          ? 'bulletList'
          : /^\d+[.)] /.test(part)
            ? 'orderedList'
            : /^> /.test(part)
              ? 'blockquote'
              : 'paragraph',
      markdown: part,
    }));
}

export function subsection(overrides: Partial<ScopeSubsection> = {}): ScopeSubsection {
  const markdown = overrides.markdown ?? '';
  return {
    uuid: '11111111-1111-4111-8111-111111111111',
    title: 'Market size',
    userHint: 'How many customers could buy this? Name the sources.',
    developerPrompt: 'Give TAM, SAM and SOM with numbers.',
    finalized: false,
    markdown,
    blocks: blocksOf(markdown),
    ...overrides,
  };
}

export function scope(overrides: Partial<ScopeBrief> = {}): ScopeBrief {
  return {
    documentTitle: 'Bakery plan',
    target: 'section',
    section: {
      uuid: 'section-1',
      title: 'Market',
      userHint: 'Who buys bread?',
      developerPrompt: 'Be concrete.',
    },
    subsections: [subsection()],
    ...overrides,
  };
}

/** A chat turn with a fresh (never aborted) signal unless one is given. */
export function chatTurn(overrides: Partial<ChatTurnRequest> = {}): ChatTurnRequest {
  const messages: ChatPromptMessage[] = [{ role: 'user', content: 'Please draft the market size.' }];
  return {
    system: 'You help write business plans.',
    messages,
    tools: true,
    options: { webAccess: false, research: false },
    scope: scope(),
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Every event of a stream, or the error it ended with (and the events before it). */
export async function collect(
  stream: AsyncIterable<AiStreamEvent>,
): Promise<{ events: AiStreamEvent[]; error: unknown }> {
  const events: AiStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

/** The text a stream's events spell out. */
export function textOf(events: readonly AiStreamEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.delta : '')).join('');
}

/** A `sleep` that never waits but records what it was asked to wait. */
export function recordingSleep(): {
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  waits: number[];
} {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (signal.aborted) throw signal.reason;
    },
  };
}

/** A timer the test fires by hand (for the per-call time-out). */
export function manualTimer(): {
  setTimer: (ms: number, onTimeout: () => void) => () => void;
  timers: Array<{ ms: number; fire: () => void; cancelled: boolean }>;
} {
  const timers: Array<{ ms: number; fire: () => void; cancelled: boolean }> = [];
  return {
    timers,
    setTimer: (ms, onTimeout) => {
      const timer = { ms, fire: onTimeout, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  };
}
