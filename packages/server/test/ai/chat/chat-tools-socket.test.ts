import type { ServerResponse } from 'node:http';
import { outlineOf } from '@planwright/sdk/model';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type OpenAiStreamServer,
  startOpenAiStreamServer,
} from '../../../../../tests/support/openai-stream-server.mjs';
import { chatUrl, type Frame, openChatSocket, type TestChatSocket } from '../../support/chat-socket.js';
import {
  MARKET_SIZE_TEXT,
  type McpTestServer,
  type RawServer,
  startMcpTestServer,
  startRawServer,
} from '../../support/mcp-test-server.js';
import { createSignedInUser, type SignedInUser } from '../../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { call, createDocument } from '../../support/workspace-calls.js';

let model: OpenAiStreamServer;
let mcp: McpTestServer;
let garbageMcp: RawServer;
let search: RawServer;
let searchAnswer: (res: ServerResponse) => void;
let t: TestApp;
let base: string;
let user: SignedInUser;
let plan: { uuid: string; content: unknown };
let sections: string[];
let from = 0;

const SEARCH_RESULTS = {
  query: 'bakery market Lyon',
  results: [
    {
      title: 'Bakeries in Lyon, 2024',
      url: 'https://stats.example.org/lyon-bakeries',
      content: '1,200 bakeries.',
    },
    { title: 'French bread market', url: 'https://news.example.com/bread', content: 'Bread sales grew 3 %.' },
  ],
};

beforeAll(async () => {
  model = await startOpenAiStreamServer();
  mcp = await startMcpTestServer();
  garbageMcp = await startRawServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"json-rpc"'),
  );
  searchAnswer = (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SEARCH_RESULTS));
  search = await startRawServer((_req, res) => searchAnswer(res));
  t = await createTestApp({
    PLANWRIGHT_AI_PROVIDER: 'openai-compatible',
    PLANWRIGHT_AI_BASE_URL: model.baseUrl,
    PLANWRIGHT_AI_MAX_RETRIES: '0',
    PLANWRIGHT_AI_CALLS_PER_MINUTE: '1000',
    PLANWRIGHT_MCP_ALLOWED_URLS: `${mcp.origin}, ${garbageMcp.origin}/mcp`,
    PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK: 'true',
    PLANWRIGHT_SEARCH_PROVIDER: 'searxng',
    PLANWRIGHT_SEARCH_URL: search.origin,
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  user = await createSignedInUser(t, { email: 'tools@example.com' });
  plan = await createDocument(t, user, { title: 'Lyon bakery' });
  sections = outlineOf(plan.content).sections.map((section) => section.uuid);
  const settings = [
    { tool_mode: 'mcp', mcp_url: mcp.url },
    { tool_mode: 'web' },
    { tool_mode: 'mcp', mcp_url: 'https://mcp.not-allowed.example/mcp' },
    { tool_mode: 'mcp', mcp_url: `${garbageMcp.origin}/mcp` },
  ];
  for (const [i, body] of settings.entries()) {
    const res = await call(t, 'PATCH', `documents/${plan.uuid}/sections/${sections[i]}/`, { as: user, body });
    expect(res.statusCode).toBe(200);
  }
});

afterAll(async () => {
  await t?.close();
  await Promise.all([model?.close(), mcp?.close(), garbageMcp?.close(), search?.close()]);
});

beforeEach(() => {
  model.script();
  from = model.requests.length;
});

async function open(sectionIndex: number): Promise<TestChatSocket> {
  const socket = await openChatSocket(
    chatUrl(base, { documentId: plan.uuid, sectionUuid: sections[sectionIndex] as string }, user.token),
  );
  await socket.next((frame) => frame.type === 'authenticated');
  return socket;
}

async function ask(
  socket: TestChatSocket,
  message: string,
  options = { web_access: 'off', research: 'off' },
): Promise<Frame[]> {
  const start = socket.frames.length;
  socket.send({ type: 'message', message, client_id: `c-${Math.random()}`, options });
  await socket.next((frame) => frame.type === 'end_of_response', start);
  return socket.frames.slice(start);
}

type Body = {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
};
const requestBody = (index: number) => model.requests[from + index]?.body as Body;

describe('tools in a chat turn over the socket (CH20)', () => {
  it('CH20 an MCP section: tool_call running then done with one call_id, the model answers with the result, the history replays the call', async () => {
    model.script(
      {
        type: 'answer',
        text: 'Checking the market.',
        toolCalls: [{ id: 'call_ms', name: 'market_size', arguments: { city: 'Lyon', sector: 'bakery' } }],
      },
      { type: 'answer', text: 'The Lyon specialty bakery market is worth EUR 48 million a year.' },
    );
    const socket = await open(0);
    const frames = await ask(socket, 'How big is the market?');
    expect(requestBody(0).tools?.map((tool) => tool.function.name)).toContain('market_size');
    const calls = frames.filter((frame) => frame.type === 'tool_call');
    const aiId = frames.find((frame) => frame.type === 'ai')?.message_id;
    expect(calls).toEqual([
      {
        type: 'tool_call',
        call_id: expect.stringMatching(/^tcall_/),
        message_id: aiId,
        tool_name: 'market_size',
        source: 'mcp',
        server: new URL(mcp.url).host,
        status: 'running',
      },
      {
        type: 'tool_call',
        call_id: calls[0]?.call_id,
        message_id: aiId,
        tool_name: 'market_size',
        source: 'mcp',
        server: new URL(mcp.url).host,
        status: 'done',
        duration_ms: expect.any(Number),
        summary: `${MARKET_SIZE_TEXT.length} characters`,
      },
    ]);
    expect(mcp.calls.at(-1)).toEqual({ name: 'market_size', args: { city: 'Lyon', sector: 'bakery' } });
    expect(JSON.stringify(requestBody(1).messages.at(-1))).toContain('EUR 48 million');
    const last = frames.filter((frame) => frame.type === 'ai').at(-1);
    expect(last?.content).toBe(
      'Checking the market.\n\nThe Lyon specialty bakery market is worth EUR 48 million a year.',
    );
    // Frame order: running before done, both before the end.
    const types = frames.map((frame) => `${frame.type}${frame.status ? `:${frame.status}` : ''}`);
    expect(types.indexOf('tool_call:running')).toBeLessThan(types.indexOf('tool_call:done'));
    expect(types.at(-1)).toBe('end_of_response');

    const historyFrom = socket.frames.length;
    socket.send({ type: 'history' });
    const history = await socket.next((frame) => frame.type === 'history_response', historyFrom);
    const messages = history.messages as Array<Record<string, unknown>>;
    const answer = messages.find((message) => message.id === aiId);
    expect(answer?.tool_calls).toEqual([
      {
        call_id: calls[0]?.call_id,
        tool_name: 'market_size',
        source: 'mcp',
        server: new URL(mcp.url).host,
        status: 'done',
        duration_ms: expect.any(Number),
        summary: `${MARKET_SIZE_TEXT.length} characters`,
      },
    ]);
    expect(answer?.metadata).not.toHaveProperty('tool_calls');
    socket.close();
  });

  it('CH20 a web section: web_search runs against the search service and the answer carries Markdown links', async () => {
    const before = search.requests.length;
    model.script(
      {
        type: 'answer',
        toolCalls: [{ id: 'call_ws', name: 'web_search', arguments: { query: 'bakery market Lyon' } }],
      },
      {
        type: 'answer',
        text: 'Lyon has about 1,200 bakeries ([Bakeries in Lyon, 2024](https://stats.example.org/lyon-bakeries)).',
      },
    );
    const socket = await open(1);
    const frames = await ask(socket, 'How many bakeries are there?');
    expect(search.requests.length).toBe(before + 1);
    expect(new URL(search.requests.at(-1)?.url ?? '', 'http://x').searchParams.get('format')).toBe('json');
    expect(String(requestBody(0).messages[0]?.content)).toMatch(/Markdown link/);
    expect(JSON.stringify(requestBody(1).messages.at(-1))).toContain(
      'https://stats.example.org/lyon-bakeries',
    );
    const done = frames.filter((frame) => frame.type === 'tool_call').at(-1);
    expect(done).toMatchObject({
      tool_name: 'web_search',
      source: 'search',
      server: 'SearXNG',
      status: 'done',
      summary: '2 results',
    });
    const answer = frames.filter((frame) => frame.type === 'ai').at(-1)?.content;
    expect(answer).toMatch(/\]\(https:\/\/stats\.example\.org\/lyon-bakeries\)/);
    expect(answer).not.toContain('**Sources:**');
    // With a search service the model can search: no "cannot search the web" note.
    expect(frames.some((frame) => frame.type === 'system')).toBe(false);
    socket.close();
  });

  it('CH20 the Web Search option in a section without a tool mode offers web_search too', async () => {
    model.script({ type: 'answer', text: 'Fine.' });
    const socket = await open(4);
    await ask(socket, 'Anything new?', { web_access: 'on', research: 'off' });
    expect(requestBody(0).tools?.map((tool) => tool.function.name)).toContain('web_search');
    socket.close();
  });

  it('CH20 a search service answering 500 or HTML: the call is failed, a note says so, the turn still answers', async () => {
    for (const broken of [
      (res: ServerResponse) => res.writeHead(500).end('<h1>oops</h1>'),
      (res: ServerResponse) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>'),
    ]) {
      searchAnswer = broken;
      model.script(
        { type: 'answer', toolCalls: [{ name: 'web_search', arguments: { query: 'x' } }] },
        { type: 'answer', text: 'I could not search, but from what I know: …' },
      );
      from = model.requests.length;
      const socket = await open(1);
      const frames = await ask(socket, 'Search please');
      const failed = frames.filter((frame) => frame.type === 'tool_call').at(-1);
      expect(failed).toMatchObject({
        status: 'failed',
        summary: expect.stringMatching(
          /^SearXNG (is unavailable \(HTTP 500\)|sent an answer that could not be read)\.$/,
        ),
      });
      expect(frames.find((frame) => frame.type === 'system')?.content).toMatch(
        /^The web search \(SearXNG\) failed: /,
      );
      expect(frames.filter((frame) => frame.type === 'ai').at(-1)?.content).toMatch(/from what I know/);
      socket.close();
    }
    searchAnswer = (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SEARCH_RESULTS));
  });

  it('CH20 an MCP URL not on the allow-list, or a server answering garbage: a note, the model is told, the turn answers', async () => {
    for (const [index, reason] of [
      [2, /not on this server's list of allowed MCP servers/],
      [3, /could not be reached or did not answer as an MCP server/],
    ] as const) {
      model.script({ type: 'answer', text: 'Its tools were not available; here is what I can say.' });
      from = model.requests.length;
      const socket = await open(index);
      const frames = await ask(socket, 'Use the tools');
      const note = frames.find((frame) => frame.type === 'system');
      expect(note?.content).toMatch(/^The section's MCP server could not be used: /);
      expect(note?.content).toMatch(reason);
      expect(String(requestBody(0).messages[0]?.content)).toMatch(reason);
      expect(frames.filter((frame) => frame.type === 'ai').at(-1)?.content).toMatch(/not available/);
      expect(frames.at(-1)?.type).toBe('end_of_response');
      socket.close();
    }
  });

  it('CH20 Stop during an MCP call: the call ends as failed "stopped" without a note, and the history keeps it so', async () => {
    model.script({ type: 'answer', toolCalls: [{ id: 'call_slow', name: 'slow_lookup', arguments: {} }] });
    const socket = await open(0);
    const start = socket.frames.length;
    socket.send({ type: 'message', message: 'Look it up slowly', client_id: 'slow-1', options: {} });
    const running = await socket.next(
      (frame) => frame.type === 'tool_call' && frame.status === 'running',
      start,
    );
    socket.send({ type: 'stop' });
    const end = await socket.next((frame) => frame.type === 'end_of_response', start);
    expect(end.interrupted).toBe(true);
    const frames = socket.frames.slice(start);
    expect(frames.filter((frame) => frame.type === 'tool_call').at(-1)).toMatchObject({
      call_id: running.call_id,
      status: 'failed',
      summary: 'stopped',
    });
    expect(frames.some((frame) => frame.type === 'system')).toBe(false);
    const historyFrom = socket.frames.length;
    socket.send({ type: 'history' });
    const history = await socket.next((frame) => frame.type === 'history_response', historyFrom);
    const answer = (history.messages as Array<Record<string, unknown>>).find(
      (message) => message.id === running.message_id,
    );
    expect(answer?.tool_calls).toEqual([
      expect.objectContaining({ call_id: running.call_id, status: 'failed', summary: 'stopped' }),
    ]);
    socket.close();
  });

  it('CH21 an answer that searched but links none of the pages gets a Sources line, streamed and stored', async () => {
    model.script(
      { type: 'answer', toolCalls: [{ name: 'web_search', arguments: { query: 'bakery market Lyon' } }] },
      { type: 'answer', text: 'Lyon has about 1,200 bakeries.' },
    );
    const socket = await open(1);
    const frames = await ask(socket, 'How many bakeries?');
    const sources =
      '**Sources:** [Bakeries in Lyon, 2024](https://stats.example.org/lyon-bakeries) · [French bread market](https://news.example.com/bread)';
    const last = frames.filter((frame) => frame.type === 'ai').at(-1);
    expect(last?.content).toBe(`Lyon has about 1,200 bakeries.\n\n${sources}`);
    const historyFrom = socket.frames.length;
    socket.send({ type: 'history' });
    const history = await socket.next((frame) => frame.type === 'history_response', historyFrom);
    const stored = (history.messages as Array<Record<string, unknown>>).find(
      (message) => message.id === last?.message_id,
    );
    expect(stored?.content).toBe(`Lyon has about 1,200 bakeries.\n\n${sources}`);
    socket.close();
  });
});
