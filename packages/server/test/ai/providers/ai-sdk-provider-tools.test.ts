import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type OpenAiStreamServer,
  startOpenAiStreamServer,
} from '../../../../../tests/support/openai-stream-server.mjs';
import type { ExternalToolDefinition, ExternalToolOutcome } from '../../../src/ai/providers/ai-provider.js';
import { createAiSdkProvider } from '../../../src/ai/providers/ai-sdk-provider.js';
import { aiConfig, chatTurn, collect } from './provider-fixtures.js';

let server: OpenAiStreamServer;
beforeAll(async () => {
  server = await startOpenAiStreamServer();
});
afterAll(async () => {
  await server?.close();
});
let from = 0;
beforeEach(() => {
  server.script();
  from = server.requests.length;
});

/** A fake external tool that records its calls and answers `outcome`. */
function fakeTool(
  name: string,
  outcome: ExternalToolOutcome = { ok: true, output: '42 bakeries', summary: '11 characters' },
) {
  const calls: unknown[] = [];
  const tool: ExternalToolDefinition = {
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    source: 'mcp',
    server: 'mcp.example.com',
    execute: async (input) => {
      calls.push(input);
      return outcome;
    },
  };
  return { tool, calls };
}

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown[] }>;
};
const bodyOf = (index: number) => server.requests[from + index]?.body as Body;
const requestCount = () => server.requests.length - from;

describe('external tools in a turn (AP44–AP47)', () => {
  it('AP44 offers external tools beside the proposal tools, runs a call, feeds the result back and goes on in the same turn', async () => {
    server.script(
      {
        type: 'answer',
        text: 'Let me look that up.',
        toolCalls: [{ id: 'call_1', name: 'market_size', arguments: { city: 'Lyon' } }],
      },
      { type: 'answer', text: 'Lyon has 42 bakeries.', usage: { prompt_tokens: 30, completion_tokens: 5 } },
    );
    const { tool, calls } = fakeTool('market_size');
    const provider = createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl }), { now: () => 1000 });
    const { events, error } = await collect(provider.streamChat(chatTurn({ externalTools: [tool] })));
    expect(error).toBeUndefined();
    expect(calls).toEqual([{ city: 'Lyon' }]);
    const first = bodyOf(0);
    expect(first.tools?.map((t) => t.function.name)).toEqual([
      'propose_full_subsection',
      'propose_partial_edits',
      'market_size',
    ]);
    const second = bodyOf(1);
    const assistant = second.messages.at(-2);
    expect(assistant).toMatchObject({ role: 'assistant', content: 'Let me look that up.' });
    expect(JSON.stringify(assistant?.tool_calls)).toContain('market_size');
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: '42 bakeries' });
    const text = events.flatMap((event) => (event.type === 'text' ? [event.delta] : [])).join('');
    expect(text).toBe('Let me look that up.\n\nLyon has 42 bakeries.');
    expect(events.filter((event) => event.type.startsWith('external'))).toEqual([
      {
        type: 'external-call-start',
        toolCallId: 'call_1',
        toolName: 'market_size',
        source: 'mcp',
        server: 'mcp.example.com',
      },
      {
        type: 'external-call-end',
        toolCallId: 'call_1',
        toolName: 'market_size',
        source: 'mcp',
        server: 'mcp.example.com',
        outcome: { ok: true, output: '42 bakeries', summary: '11 characters' },
        durationMs: 0,
      },
    ]);
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'stop' });
    // Usage adds up over both requests (11+30 in, 7+5 out).
    expect(finish).toMatchObject({ usage: { inputTokens: 41, outputTokens: 12 } });
  });

  it('AP44 a failed call goes back to the model as an error result; the turn still answers', async () => {
    server.script(
      { type: 'answer', toolCalls: [{ id: 'call_f', name: 'market_size', arguments: {} }] },
      { type: 'answer', text: 'The tool failed, so from what I know: …' },
    );
    const { tool } = fakeTool('market_size', {
      ok: false,
      output: 'The MCP tool market_size timed out after 15 s.',
      summary: 'timed out after 15 s',
    });
    const provider = createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl }));
    const { events, error } = await collect(provider.streamChat(chatTurn({ externalTools: [tool] })));
    expect(error).toBeUndefined();
    expect(String(bodyOf(1).messages.at(-1)?.content)).toContain('timed out after 15 s');
    expect(events.at(-1)).toMatchObject({ type: 'finish' });
  });

  it('AP45 a proposal ends the turn: external calls of that step are not run', async () => {
    server.script({
      type: 'answer',
      toolCalls: [
        { id: 'call_m', name: 'market_size', arguments: {} },
        {
          id: 'call_p',
          name: 'propose_full_subsection',
          arguments: { subsection_uuid: 'x', format: 'markdown', content: 'y' },
        },
      ],
    });
    const { tool, calls } = fakeTool('market_size');
    const provider = createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl }));
    const { events } = await collect(provider.streamChat(chatTurn({ externalTools: [tool] })));
    expect(calls).toEqual([]);
    expect(requestCount()).toBe(1);
    expect(events.some((event) => event.type === 'tool-call')).toBe(true);
  });

  it('AP46 past the most calls per turn, further calls are refused and the tools are no longer offered', async () => {
    server.script(
      {
        type: 'answer',
        toolCalls: [
          { id: 'c1', name: 'market_size', arguments: {} },
          { id: 'c2', name: 'market_size', arguments: {} },
        ],
      },
      { type: 'answer', toolCalls: [{ id: 'c3', name: 'market_size', arguments: {} }] },
      { type: 'answer', text: 'Done.' },
    );
    const { tool, calls } = fakeTool('market_size');
    const provider = createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl }));
    const { events } = await collect(
      provider.streamChat(chatTurn({ externalTools: [tool], maxExternalCalls: 1 })),
    );
    expect(calls).toHaveLength(1);
    expect(String(bodyOf(1).messages.at(-1)?.content)).toMatch(/already made 1 tool calls/);
    expect(bodyOf(1).tools?.map((t) => t.function.name)).not.toContain('market_size');
    // The model named a tool no longer offered: it is dropped and the turn ends.
    expect(requestCount()).toBe(2);
    expect(events.at(-1)).toMatchObject({ type: 'finish' });
  });

  it('AP44 an external tool named like a proposal tool is never offered or run', async () => {
    server.script({ type: 'answer', text: 'Hi.' });
    const { tool } = fakeTool('propose_full_subsection');
    const provider = createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl }));
    await collect(provider.streamChat(chatTurn({ externalTools: [tool] })));
    expect(bodyOf(0).tools?.map((t) => t.function.name)).toEqual([
      'propose_full_subsection',
      'propose_partial_edits',
    ]);
  });

  it('AP47 web access and research are supported only with a search service', () => {
    expect(createAiSdkProvider(aiConfig({ baseUrl: server.baseUrl })).info.supports).toEqual({
      webAccess: false,
      research: false,
      tools: true,
    });
    const withSearch = createAiSdkProvider(
      aiConfig({
        baseUrl: server.baseUrl,
        search: { provider: 'searxng', baseUrl: 'http://127.0.0.1:1', apiKey: undefined },
      }),
    );
    expect(withSearch.info.supports).toEqual({ webAccess: true, research: true, tools: true });
  });

  it('AP44 the same steps over Anthropic Messages: the result goes back as a tool_result block', async () => {
    server.script(
      { type: 'answer', toolCalls: [{ id: 'toolu_1', name: 'market_size', arguments: { city: 'Lyon' } }] },
      { type: 'answer', text: 'Lyon has 42 bakeries.' },
    );
    const { tool, calls } = fakeTool('market_size');
    const provider = createAiSdkProvider(
      aiConfig({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: server.baseUrl }),
    );
    const { events, error } = await collect(provider.streamChat(chatTurn({ externalTools: [tool] })));
    expect(error).toBeUndefined();
    expect(calls).toEqual([{ city: 'Lyon' }]);
    expect(server.requests[from + 1]?.path).toBe('/v1/messages');
    const second = JSON.stringify(bodyOf(1).messages.at(-1));
    expect(second).toContain('tool_result');
    expect(second).toContain('42 bakeries');
    expect(events.flatMap((event) => (event.type === 'text' ? [event.delta] : [])).join('')).toBe(
      'Lyon has 42 bakeries.',
    );
  });
});
