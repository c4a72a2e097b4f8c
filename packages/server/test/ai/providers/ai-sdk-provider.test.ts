import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../../tests/support/corpus-path.mjs';
import {
  type OpenAiStreamServer,
  startOpenAiStreamServer,
} from '../../../../../tests/support/openai-stream-server.mjs';
import { AiProviderError, type AiStreamEvent } from '../../../src/ai/providers/ai-provider.js';
import { createAiSdkProvider, retryDelayMs } from '../../../src/ai/providers/ai-sdk-provider.js';
import {
  aiConfig,
  chatTurn,
  collect,
  manualTimer,
  recordingSleep,
  TEST_API_KEY,
  textOf,
} from './provider-fixtures.js';

let server: OpenAiStreamServer;

beforeAll(async () => {
  server = await startOpenAiStreamServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.script();
  server.requests.length = 0;
});

const fullSubsectionInput = {
  subsection_uuid: '11111111-1111-4111-8111-111111111111',
  format: 'markdown',
  content: '## Market\n\nAbout **42 000** households — “quoted” text, émojis 🍞 and a \\ backslash.',
  title: 'Market size',
  notes: 'First draft.',
};
const partialEditsInput = {
  edits: [
    {
      targetNodeId: 'n-abc',
      mode: 'replace',
      format: 'markdown',
      content: 'New paragraph.',
      reason: 'Clearer',
    },
    { targetNodeId: 'n-def', mode: 'delete', format: 'markdown' },
  ],
  notes: 'Two edits.',
};

function provider(
  overrides: Parameters<typeof aiConfig>[0] = {},
  options: Parameters<typeof createAiSdkProvider>[1] = {},
) {
  return createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl, ...overrides }), options);
}

/** The parsed JSON body of a recorded request (fails the test when there was none). */
function requestBody<T>(index = 0): T {
  const request = server.requests[index];
  if (!request) throw new Error(`the server got no request #${index}`);
  return request.body as T;
}

function expectProviderError(error: unknown, kind: AiProviderError['kind']): AiProviderError {
  expect(error).toBeInstanceOf(AiProviderError);
  const failure = error as AiProviderError;
  expect(failure.kind).toBe(kind);
  expect(failure.message).not.toContain(TEST_API_KEY);
  return failure;
}

describe('openai-compatible provider against the local SSE server', () => {
  it('AP1 streams text deltas in order, then finish with the usage the server reported', async () => {
    server.script({
      type: 'answer',
      text: ['Hello', ', ', 'plan', ' writer.'],
      usage: { prompt_tokens: 31, completion_tokens: 4 },
    });
    const { events, error } = await collect(provider().streamChat(chatTurn()));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual([
      'Hello',
      ', ',
      'plan',
      ' writer.',
    ]);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      usage: { inputTokens: 31, outputTokens: 4 },
      finishReason: 'stop',
    });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.model).toBe('test-model');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });

  it('AP2 streamed tool-call arguments arrive as one tool-call event with parsed input (both tools)', async () => {
    server.script({
      type: 'answer',
      text: 'Here you go.',
      toolCalls: [
        { id: 'call_full', name: 'propose_full_subsection', arguments: fullSubsectionInput, pieces: 7 },
        { id: 'call_partial', name: 'propose_partial_edits', arguments: partialEditsInput, pieces: 5 },
      ],
    });
    const { events, error } = await collect(provider().streamChat(chatTurn()));
    expect(error).toBeUndefined();
    const kinds = events.map((e) => e.type);
    expect(kinds.filter((k) => k === 'tool-call')).toHaveLength(2);
    expect(events).toContainEqual({
      type: 'tool-generating',
      toolCallId: 'call_full',
      toolName: 'propose_full_subsection',
    });
    expect(events).toContainEqual({
      type: 'tool-generating',
      toolCallId: 'call_partial',
      toolName: 'propose_partial_edits',
    });
    expect(events).toContainEqual({
      type: 'tool-call',
      toolCallId: 'call_full',
      toolName: 'propose_full_subsection',
      input: fullSubsectionInput,
    });
    expect(events).toContainEqual({
      type: 'tool-call',
      toolCallId: 'call_partial',
      toolName: 'propose_partial_edits',
      input: partialEditsInput,
    });
    // tool-generating comes before its tool-call
    expect(kinds.indexOf('tool-generating')).toBeLessThan(kinds.indexOf('tool-call'));
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
    expect(textOf(events)).toBe('Here you go.');
    const body = server.requests[0]?.body as {
      tools: Array<{ type: string; function: { name: string; parameters: unknown } }>;
    };
    expect(body.tools.map((t) => t.function.name)).toEqual([
      'propose_full_subsection',
      'propose_partial_edits',
    ]);
    expect(body.tools[0]?.function.parameters).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['subsection_uuid', 'format', 'content']),
    });
  });

  it('AP3 offers no tools when the request does not ask for them', async () => {
    server.script({ type: 'answer', text: 'Just text.' });
    await collect(provider().streamChat(chatTurn({ tools: false })));
    expect(requestBody<Record<string, unknown>>().tools).toBeUndefined();
  });

  it('AP4 sends history with tool calls and tool results in the OpenAI shape', async () => {
    server.script({ type: 'answer', text: 'Thanks.' });
    await collect(
      provider().streamChat(
        chatTurn({
          system: 'SYSTEM PROMPT',
          messages: [
            { role: 'user', content: 'Draft it.' },
            {
              role: 'assistant',
              content: 'Proposing a draft.',
              toolCalls: [
                { toolCallId: 'call_1', toolName: 'propose_full_subsection', input: fullSubsectionInput },
              ],
            },
            {
              role: 'tool',
              results: [{ toolCallId: 'call_1', toolName: 'propose_full_subsection', decision: 'rejected' }],
            },
            { role: 'assistant', content: 'Plain answer.', toolCalls: [] },
            {
              role: 'tool',
              results: [
                {
                  toolCallId: 'call_2',
                  toolName: 'propose_partial_edits',
                  decision: 'invalid',
                  detail: 'Unknown node n-x',
                },
              ],
            },
            { role: 'user', content: 'Try again.' },
          ],
        }),
      ),
    );
    const messages = requestBody<{ messages: unknown[] }>().messages;
    expect(messages[0]).toEqual({ role: 'system', content: 'SYSTEM PROMPT' });
    expect(messages[1]).toEqual({ role: 'user', content: 'Draft it.' });
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: 'Proposing a draft.',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'propose_full_subsection', arguments: JSON.stringify(fullSubsectionInput) },
        },
      ],
    });
    expect(messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: JSON.stringify({ decision: 'rejected' }),
    });
    expect(messages[4]).toMatchObject({ role: 'assistant', content: 'Plain answer.' });
    expect(messages[5]).toEqual({
      role: 'tool',
      tool_call_id: 'call_2',
      content: JSON.stringify({ decision: 'invalid', detail: 'Unknown node n-x' }),
    });
    expect(messages[6]).toEqual({ role: 'user', content: 'Try again.' });
  });
});

describe('retries and failures', () => {
  it('AP5 retries a 429 before anything was streamed, waiting through the injected sleep', async () => {
    server.script(
      { type: 'error', status: 429, message: 'Slow down' },
      { type: 'answer', text: 'Second time lucky.' },
    );
    const { sleep, waits } = recordingSleep();
    const { events, error } = await collect(
      provider({ maxRetries: 2 }, { sleep, random: () => 0.5 }).streamChat(chatTurn()),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('Second time lucky.');
    expect(waits).toEqual([1000]);
    expect(server.requests).toHaveLength(2);
  });

  it('AP5 honours retry-after-ms and retry-after (≤ 60 s) from the server', async () => {
    server.script(
      { type: 'error', status: 429, retryAfterMs: 1234 },
      { type: 'error', status: 503, retryAfter: '7' },
      { type: 'answer', text: 'ok' },
    );
    const { sleep, waits } = recordingSleep();
    const { error } = await collect(
      provider({ maxRetries: 3 }, { sleep, random: () => 0.5 }).streamChat(chatTurn()),
    );
    expect(error).toBeUndefined();
    expect(waits).toEqual([1234, 7000]);
  });

  it('AP6 backoff: 1 s doubling, capped at 30 s, ±20 % jitter, long retry-after ignored', () => {
    const now = () => 0;
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, undefined, now, () => 0.5))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(retryDelayMs(0, undefined, now, () => 0)).toBe(800);
    expect(retryDelayMs(0, undefined, now, () => 0.999999)).toBe(1200);
    expect(retryDelayMs(1, { 'retry-after': '120' }, now, () => 0.5)).toBe(2000);
    expect(retryDelayMs(1, { 'retry-after-ms': '90000' }, now, () => 0.5)).toBe(2000);
    expect(retryDelayMs(1, { 'retry-after': new Date(5000).toUTCString() }, now, () => 0.5)).toBe(5000);
  });

  it('AP7 a 429 that persists past maxRetries is rate_limited, with maxRetries + 1 requests', async () => {
    server.script(
      { type: 'error', status: 429, message: `Rate limit for key ${TEST_API_KEY}` },
      { type: 'error', status: 429, message: `Rate limit for key ${TEST_API_KEY}` },
      { type: 'error', status: 429, message: `Rate limit for key ${TEST_API_KEY}` },
    );
    const { sleep, waits } = recordingSleep();
    const { events, error } = await collect(
      provider({ maxRetries: 2 }, { sleep, random: () => 0.5 }).streamChat(chatTurn()),
    );
    expect(events).toEqual([]);
    const failure = expectProviderError(error, 'rate_limited');
    expect(failure.status).toBe(429);
    expect(failure.message).toContain('[redacted]');
    expect(waits).toEqual([1000, 2000]);
    expect(server.requests).toHaveLength(3);
  });

  it('AP7 500s beyond maxRetries become unavailable', async () => {
    server.script(
      { type: 'error', status: 500, message: 'boom' },
      { type: 'error', status: 500, message: 'boom' },
      { type: 'error', status: 500, message: 'boom' },
    );
    const { sleep, waits } = recordingSleep();
    const { error } = await collect(
      provider({ maxRetries: 1 }, { sleep, random: () => 0.5 }).streamChat(chatTurn()),
    );
    const failure = expectProviderError(error, 'unavailable');
    expect(failure.status).toBe(500);
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it('AP7 a 4xx other than 429 is bad_response at once, and never shows the API key', async () => {
    server.script({
      type: 'error',
      status: 401,
      message: `Incorrect API key provided: ${TEST_API_KEY}.`,
      errorType: 'invalid_request_error',
    });
    const { sleep, waits } = recordingSleep();
    const { error } = await collect(provider({}, { sleep }).streamChat(chatTurn()));
    const failure = expectProviderError(error, 'bad_response');
    expect(failure.status).toBe(401);
    expect(failure.message).toContain('Incorrect API key provided: [redacted]');
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('AP8 a stream dropped after text is an error and is not retried', async () => {
    server.script(
      { type: 'drop', text: ['Half ', 'an ', 'answer'] },
      { type: 'answer', text: 'never asked for' },
    );
    const { sleep, waits } = recordingSleep();
    const { events, error } = await collect(provider({ maxRetries: 3 }, { sleep }).streamChat(chatTurn()));
    expect(textOf(events)).toBe('Half an answer');
    expect(events.some((e) => e.type === 'finish')).toBe(false);
    expectProviderError(error, 'unavailable');
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('AP8 an unreachable server is unavailable (retried, then given up)', async () => {
    const closed = await startOpenAiStreamServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const { sleep, waits } = recordingSleep();
    const { error } = await collect(
      createAiSdkProvider(aiConfig({ baseUrl, maxRetries: 1 }), { sleep, random: () => 0.5 }).streamChat(
        chatTurn(),
      ),
    );
    expectProviderError(error, 'unavailable');
    expect(waits).toEqual([1000]);
  });
});

describe('cancellation and time-out', () => {
  async function firstTextThen(stream: AsyncIterable<AiStreamEvent>, act: () => void) {
    const events: AiStreamEvent[] = [];
    try {
      for await (const event of stream) {
        events.push(event);
        if (event.type === 'text') act();
      }
      return { events, error: undefined as unknown };
    } catch (error) {
      return { events, error };
    }
  }

  it('AP9 aborting the signal ends the stream as cancelled and the server sees the client disconnect', async () => {
    server.script({ type: 'hang', text: ['Thinking', ' hard'] });
    const controller = new AbortController();
    const { events, error } = await firstTextThen(
      provider().streamChat(chatTurn({ signal: controller.signal })),
      () => controller.abort(),
    );
    expect(events.length).toBeGreaterThan(0);
    expectProviderError(error, 'cancelled');
    await server.waitForClientDisconnect(0);
    expect(server.requests[0]?.clientDisconnected).toBe(true);
  });

  it('AP9 an already aborted signal is cancelled without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await collect(provider().streamChat(chatTurn({ signal: controller.signal })));
    expectProviderError(error, 'cancelled');
  });

  it('AP10 the per-call time-out (injected timer) ends a hanging stream as timeout', async () => {
    server.script({ type: 'hang', text: ['Still', ' going'] });
    const { setTimer, timers } = manualTimer();
    const { events, error } = await firstTextThen(
      provider({ timeoutMs: 5000 }, { setTimer }).streamChat(chatTurn()),
      () => timers[0]?.fire(),
    );
    expect(timers.map((t) => t.ms)).toEqual([5000]);
    expect(textOf(events).length).toBeGreaterThan(0);
    const failure = expectProviderError(error, 'timeout');
    expect(failure.message).toContain('5 s');
    await server.waitForClientDisconnect(0);
  });

  it('AP10 a time-out during the backoff wait ends the call as timeout', async () => {
    server.script({ type: 'error', status: 503 }, { type: 'answer', text: 'too late' });
    const { setTimer, timers } = manualTimer();
    const sleep = (_ms: number, signal: AbortSignal) => {
      timers[0]?.fire();
      return Promise.reject(signal.reason);
    };
    const { error } = await collect(provider({}, { setTimer, sleep }).streamChat(chatTurn()));
    expectProviderError(error, 'timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('AP10 the timer is cancelled when a call ends normally', async () => {
    server.script({ type: 'answer', text: 'done' });
    const { setTimer, timers } = manualTimer();
    await collect(provider({}, { setTimer }).streamChat(chatTurn()));
    expect(timers[0]?.cancelled).toBe(true);
  });
});

describe('transform (generateText, non-streaming)', () => {
  it('AP11 returns the text and usage of a chat.completion', async () => {
    server.script({
      type: 'answer',
      text: 'Better text.',
      usage: { prompt_tokens: 20, completion_tokens: 3 },
    });
    const result = await provider().transform({
      action: 'improve',
      text: 'bad text',
      customPrompt: null,
      system: 'You improve text.',
      prompt: 'Improve: bad text',
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ text: 'Better text.', usage: { inputTokens: 20, outputTokens: 3 } });
    const body = server.requests[0]?.body as { stream?: boolean; messages: unknown[] };
    expect(body.stream).toBeFalsy();
    expect(body.messages).toEqual([
      { role: 'system', content: 'You improve text.' },
      { role: 'user', content: 'Improve: bad text' },
    ]);
  });

  it('AP11 retries a 503 and maps persistent 429 to rate_limited', async () => {
    server.script({ type: 'error', status: 503 }, { type: 'answer', text: 'ok' });
    const { sleep, waits } = recordingSleep();
    const call = {
      action: 'shorten' as const,
      text: 'x',
      customPrompt: null,
      system: 's',
      prompt: 'p',
      signal: new AbortController().signal,
    };
    expect((await provider({}, { sleep, random: () => 0.5 }).transform(call)).text).toBe('ok');
    expect(waits).toEqual([1000]);
    server.script({ type: 'error', status: 429 }, { type: 'error', status: 429 });
    const error = await provider({ maxRetries: 1 }, { sleep })
      .transform(call)
      .catch((e: unknown) => e);
    expectProviderError(error, 'rate_limited');
  });

  it('AP11 an empty answer is bad_response; a cancelled transform is cancelled', async () => {
    server.script({ type: 'answer', text: [] });
    const call = {
      action: 'improve' as const,
      text: 'x',
      customPrompt: null,
      system: 's',
      prompt: 'p',
      signal: new AbortController().signal,
    };
    expectProviderError(
      await provider()
        .transform(call)
        .catch((e: unknown) => e),
      'bad_response',
    );
    server.script({ type: 'hang' });
    const controller = new AbortController();
    const pending = provider()
      .transform({ ...call, signal: controller.signal })
      .catch((e: unknown) => e);
    await server.waitForRequests(2);
    controller.abort();
    expectProviderError(await pending, 'cancelled');
    await server.waitForClientDisconnect(1);
  });
});

describe('provider info and the openai provider', () => {
  it('AP12 info names the provider and model and never claims to be offline', () => {
    expect(provider().info).toEqual({
      name: 'openai-compatible',
      model: 'test-model',
      label: 'OpenAI-compatible · test-model',
      offline: false,
      supports: { webAccess: false, research: false, tools: true },
    });
    expect(createAiSdkProvider(aiConfig({ provider: 'openai', model: 'gpt-4.1-mini' })).info.label).toBe(
      'OpenAI · gpt-4.1-mini',
    );
  });

  it('AP13 the openai provider (chat model) speaks the same wire format with a base URL', async () => {
    server.script({
      type: 'answer',
      text: 'From OpenAI.',
      toolCalls: [{ id: 'call_o', name: 'propose_full_subsection', arguments: fullSubsectionInput }],
      usage: { prompt_tokens: 9, completion_tokens: 5 },
    });
    const openai = createAiSdkProvider(
      aiConfig({ provider: 'openai', model: 'gpt-4.1-mini', baseUrl: server.baseUrl }),
    );
    const { events, error } = await collect(openai.streamChat(chatTurn()));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('From OpenAI.');
    expect(events).toContainEqual({
      type: 'tool-call',
      toolCallId: 'call_o',
      toolName: 'propose_full_subsection',
      input: fullSubsectionInput,
    });
    expect(events.at(-1)).toEqual({
      type: 'finish',
      usage: { inputTokens: 9, outputTokens: 5 },
      finishReason: 'tool-calls',
    });
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(requestBody<{ model: string }>().model).toBe('gpt-4.1-mini');
  });
});

describe('untrusted model output', () => {
  it('AP14 a schema-violating proposal is still forwarded (the caller validates); an invented tool is dropped', async () => {
    server.script({
      type: 'answer',
      toolCalls: [
        { id: 'call_bad', name: 'propose_full_subsection', arguments: { subsection_uuid: 5, format: 'pdf' } },
        { id: 'call_evil', name: 'delete_everything', arguments: { all: true } },
      ],
    });
    const { events, error } = await collect(provider().streamChat(chatTurn()));
    expect(error).toBeUndefined();
    const calls = events.filter((e) => e.type === 'tool-call' || e.type === 'tool-generating');
    expect(calls.every((e) => 'toolName' in e && e.toolName === 'propose_full_subsection')).toBe(true);
    expect(events).toContainEqual({
      type: 'tool-call',
      toolCallId: 'call_bad',
      toolName: 'propose_full_subsection',
      input: { subsection_uuid: 5, format: 'pdf' },
    });
    expect(events.at(-1)?.type).toBe('finish');
  });

  it('AP14 tool arguments that are not JSON reach the caller as the raw text, and the stream finishes', async () => {
    server.script({
      type: 'answer',
      text: 'Trying.',
      toolCalls: [
        { id: 'call_broken', name: 'propose_partial_edits', arguments: '{"edits": [ {"targetNodeId": ' },
      ],
    });
    const { events, error } = await collect(provider().streamChat(chatTurn()));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('Trying.');
    expect(events).toContainEqual({
      type: 'tool-call',
      toolCallId: 'call_broken',
      toolName: 'propose_partial_edits',
      input: '{"edits": [ {"targetNodeId": ',
    });
    expect(events.at(-1)?.type).toBe('finish');
  });

  it('AP9 a consumer that stops reading early aborts the request', async () => {
    server.script({ type: 'hang', text: ['one', ' two'] });
    for await (const event of provider().streamChat(chatTurn())) {
      if (event.type === 'text') break;
    }
    await server.waitForClientDisconnect(0);
    expect(server.requests[0]?.clientDisconnected).toBe(true);
  });
});

describe('anthropic provider against the same server (Anthropic Messages SSE)', () => {
  const anthropic = (
    overrides: Parameters<typeof aiConfig>[0] = {},
    options: Parameters<typeof createAiSdkProvider>[1] = {},
  ) =>
    createAiSdkProvider(
      aiConfig({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: server.baseUrl, ...overrides }),
      options,
    );

  it('AP15 streams text and a tool call, and sends system, history and tools in the Anthropic shape', async () => {
    server.script({
      type: 'answer',
      text: 'Drafting now.',
      toolCalls: [
        { id: 'toolu_1', name: 'propose_full_subsection', arguments: fullSubsectionInput, pieces: 6 },
      ],
      usage: { prompt_tokens: 40, completion_tokens: 12 },
    });
    const { events, error } = await collect(
      anthropic().streamChat(
        chatTurn({
          system: 'SYSTEM',
          messages: [
            { role: 'user', content: 'Draft.' },
            {
              role: 'assistant',
              content: '',
              toolCalls: [
                { toolCallId: 'toolu_0', toolName: 'propose_partial_edits', input: partialEditsInput },
              ],
            },
            {
              role: 'tool',
              results: [{ toolCallId: 'toolu_0', toolName: 'propose_partial_edits', decision: 'accepted' }],
            },
            { role: 'user', content: 'Now the whole subsection.' },
          ],
        }),
      ),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('Drafting now.');
    expect(events).toContainEqual({
      type: 'tool-generating',
      toolCallId: 'toolu_1',
      toolName: 'propose_full_subsection',
    });
    expect(events).toContainEqual({
      type: 'tool-call',
      toolCallId: 'toolu_1',
      toolName: 'propose_full_subsection',
      input: fullSubsectionInput,
    });
    expect(events.at(-1)).toEqual({
      type: 'finish',
      usage: { inputTokens: 40, outputTokens: 12 },
      finishReason: 'tool-calls',
    });
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe(TEST_API_KEY);
    const body = request?.body as {
      system: unknown;
      messages: unknown[];
      tools: Array<{ name: string }>;
      stream: boolean;
    };
    expect(body.stream).toBe(true);
    expect(JSON.stringify(body.system)).toContain('SYSTEM');
    expect(body.tools.map((t) => t.name)).toEqual(['propose_full_subsection', 'propose_partial_edits']);
    expect(body.messages[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_0', name: 'propose_partial_edits', input: partialEditsInput }],
    });
    expect(body.messages[2]).toMatchObject({
      role: 'user',
      // Anthropic wants alternating roles: the tool result and the next user message share one user turn.
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_0', content: JSON.stringify({ decision: 'accepted' }) },
        { type: 'text', text: 'Now the whole subsection.' },
      ],
    });
  });

  it('AP15 a 529-style overload is retried, then unavailable; the key never shows', async () => {
    server.script(
      { type: 'error', status: 529, errorType: 'overloaded_error', message: `Overloaded (${TEST_API_KEY})` },
      { type: 'error', status: 529, errorType: 'overloaded_error', message: `Overloaded (${TEST_API_KEY})` },
    );
    const { sleep, waits } = recordingSleep();
    const { error } = await collect(
      anthropic({ maxRetries: 1 }, { sleep, random: () => 0.5 }).streamChat(chatTurn()),
    );
    const failure = expectProviderError(error, 'unavailable');
    expect(failure.status).toBe(529);
    expect(waits).toEqual([1000]);
  });
});

describe('hostile text', () => {
  it('AP16 hostile strings as messages and system prompt reach the API intact and never throw', async () => {
    const hostile: string[] = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8'));
    server.script({ type: 'answer', text: hostile.slice(0, 50) });
    const { events, error } = await collect(
      provider().streamChat(
        chatTurn({
          system: hostile.join('\n'),
          messages: hostile.map((content) => ({ role: 'user' as const, content })),
        }),
      ),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe(hostile.slice(0, 50).join(''));
    const messages = requestBody<{ messages: Array<{ content: string }> }>().messages;
    expect(messages[0]?.content).toBe(hostile.join('\n'));
    expect(messages.slice(1).map((m) => m.content)).toEqual(hostile);
  });
});
