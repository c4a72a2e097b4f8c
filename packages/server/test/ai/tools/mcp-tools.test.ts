import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_LIMITS, type ExternalToolLimits } from '../../../src/ai/tools/external-tool-limits.js';
import { connectMcpServer } from '../../../src/ai/tools/mcp-tools.js';
import {
  MARKET_SIZE_TEXT,
  type McpTestServer,
  startMcpTestServer,
  startRawServer,
} from '../../support/mcp-test-server.js';

let mcp: McpTestServer;
beforeAll(async () => {
  mcp = await startMcpTestServer();
});
afterAll(async () => {
  await mcp?.close();
});

const limits: ExternalToolLimits = { ...DEFAULT_TOOL_LIMITS, callTimeoutMs: 300, connectTimeoutMs: 2_000 };
const open = (
  url: string,
  extra: Partial<{ allowPrivateNetwork: boolean; allowedUrls: string[]; limits: ExternalToolLimits }> = {},
) =>
  connectMcpServer(url, {
    config: {
      allowedUrls: extra.allowedUrls ?? [new URL(url).origin],
      allowPrivateNetwork: extra.allowPrivateNetwork ?? true,
    },
    limits: extra.limits ?? limits,
    signal: new AbortController().signal,
  });

describe('MCP tools through the official SDK client (TL5–TL8)', () => {
  it('TL7 lists the server tools, never one named like a proposal tool, and calls one', async () => {
    const connection = await open(mcp.url);
    if (!connection.ok) throw new Error(connection.reason);
    const { toolset } = connection;
    expect(toolset.server).toBe(new URL(mcp.url).host);
    expect(toolset.tools.map((tool) => tool.name).sort()).toEqual([
      'failing_tool',
      'garbage_result',
      'huge_report',
      'market_size',
      'slow_lookup',
    ]);
    const marketSize = toolset.tools.find((tool) => tool.name === 'market_size');
    expect(marketSize?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    const outcome = await marketSize?.execute(
      { city: 'Lyon', sector: 'bakery' },
      new AbortController().signal,
    );
    expect(outcome).toEqual({
      ok: true,
      output: MARKET_SIZE_TEXT,
      summary: `${MARKET_SIZE_TEXT.length} characters`,
    });
    expect(mcp.calls.at(-1)).toEqual({ name: 'market_size', args: { city: 'Lyon', sector: 'bakery' } });
    await toolset.close();
  });

  it('TL5 a result over the cap is cut with a note; a call over the time limit fails in fixed words', async () => {
    const connection = await open(mcp.url);
    if (!connection.ok) throw new Error(connection.reason);
    const tool = (name: string) => connection.toolset.tools.find((t) => t.name === name);
    const huge = await tool('huge_report')?.execute({}, new AbortController().signal);
    expect(huge?.ok).toBe(true);
    expect(huge?.output.length).toBeLessThan(DEFAULT_TOOL_LIMITS.maxResultChars + 200);
    expect(huge?.output).toMatch(
      /\[Result truncated: it was 50,000 characters; only the first 20,000 are shown\.\]$/,
    );
    expect(huge?.summary).toBe('50,000 characters, truncated');
    const slow = await tool('slow_lookup')?.execute({}, new AbortController().signal);
    expect(slow).toMatchObject({ ok: false, summary: 'timed out after 1 s' });
    await connection.toolset.close();
  });

  it('TL6, TL8 a tool error is failed in fixed words; its own text goes to the model only; bad input is refused', async () => {
    const connection = await open(mcp.url);
    if (!connection.ok) throw new Error(connection.reason);
    const failing = connection.toolset.tools.find((t) => t.name === 'failing_tool');
    const outcome = await failing?.execute({}, new AbortController().signal);
    expect(outcome).toMatchObject({ ok: false, summary: 'the tool reported an error' });
    expect(outcome?.output).toContain('database exploded');
    const garbage = connection.toolset.tools.find((t) => t.name === 'garbage_result');
    expect(await garbage?.execute({}, new AbortController().signal)).toMatchObject({
      ok: false,
      summary: 'the server could not be reached or sent an unreadable answer',
    });
    const market = connection.toolset.tools.find((t) => t.name === 'market_size');
    expect(await market?.execute('not an object', new AbortController().signal)).toMatchObject({
      ok: false,
      summary: 'invalid input',
    });
    await connection.toolset.close();
  });

  it('TL1, TL3 a URL not on the list, or on loopback without the private-network setting, is never contacted', async () => {
    const before = mcp.calls.length;
    const notListed = await open(mcp.url, { allowedUrls: ['https://mcp.example.com'] });
    expect(notListed).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not on this server's list/),
    });
    const httpRefused = await open(mcp.url, { allowPrivateNetwork: false });
    expect(httpRefused).toMatchObject({ ok: false, reason: expect.stringMatching(/https/) });
    expect(mcp.calls.length).toBe(before);
  });

  it('TL6 a server answering garbage, HTML, a 500 or a redirect is a clear refusal, never a throw', async () => {
    const answers: Array<[string, (res: import('node:http').ServerResponse) => void]> = [
      [
        'garbage',
        (res) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"jsonrpc":"2.0","id":0,"result":42'),
      ],
      ['html', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>')],
      ['500', (res) => res.writeHead(500).end('boom')],
      [
        'redirect',
        (res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      ],
    ];
    for (const [, answer] of answers) {
      const server = await startRawServer((_req, res) => answer(res));
      const connection = await open(`${server.origin}/mcp`);
      expect(connection).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/could not be reached or did not answer as an MCP server/),
      });
      await server.close();
    }
  });

  it('TL6 a server asking for a sign-in says so', async () => {
    const server = await startRawServer((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{}'),
    );
    const connection = await open(`${server.origin}/mcp`);
    expect(connection).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/asks for a sign-in \(HTTP 401\)/),
    });
    await server.close();
  });

  it('TL5 a server that never answers the handshake fails after the connect time limit', async () => {
    const server = await startRawServer(() => undefined);
    const connection = await open(`${server.origin}/mcp`, { limits: { ...limits, connectTimeoutMs: 200 } });
    expect(connection).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/did not answer within 1 s/),
    });
    await server.close();
  });
});
