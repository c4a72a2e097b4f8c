import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpConfig } from '../../config/config.js';
import type { ExternalToolDefinition, ExternalToolOutcome } from '../providers/ai-provider.js';
import { isProposalToolName } from '../providers/proposal-tools.js';
import {
  capResult,
  type ExternalToolLimits,
  MAX_MCP_TOOLS,
  MAX_TOOL_DESCRIPTION_CHARS,
  STOPPED_SUMMARY,
  withTimeLimit,
} from './external-tool-limits.js';
import { mcpUrlRefusal } from './mcp-allow-list.js';
import { createGuardedFetch, guardRefusalOf, type HostResolver } from './network-guard.js';
import { WEB_SEARCH_TOOL_NAME } from './web-search.js';

/** Names a model provider accepts for a function tool (OpenAI's rule, the strictest). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** An MCP server's tools, ready to offer; `close` ends the session (call it when the turn ends). */
export interface McpToolset {
  server: string;
  tools: ExternalToolDefinition[];
  close(): Promise<void>;
}

export type McpConnection = { ok: true; toolset: McpToolset } | { ok: false; server: string; reason: string };

export interface McpConnectOptions {
  config: McpConfig;
  limits: ExternalToolLimits;
  signal: AbortSignal;
  /** Replaces DNS (tests). */
  resolve?: HostResolver;
}

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

/**
 * Connects to the MCP server at `url` with the official SDK's Streamable HTTP client, through the network
 * guard, and lists its tools (TL1–TL5, TL8). Never throws: a refusal or failure comes back in fixed words.
 */
export async function connectMcpServer(url: string, options: McpConnectOptions): Promise<McpConnection> {
  const server = URL.canParse(url) ? new URL(url).host : 'the MCP server';
  const refusal = mcpUrlRefusal(url, options.config);
  if (refusal) return { ok: false, server, reason: refusal };
  const guarded = createGuardedFetch({
    allowPrivateNetwork: options.config.allowPrivateNetwork,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  const client = new Client({ name: 'planwright', version: '0.1.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: guarded.fetch,
    requestInit: { redirect: 'error' },
  });
  const close = async () => {
    await client.close().catch(() => undefined);
    await guarded.close().catch(() => undefined);
  };
  const { connectTimeoutMs } = options.limits;
  const listed = await withTimeLimit(connectTimeoutMs, options.signal, async (signal) => {
    await client.connect(transport, { signal, timeout: connectTimeoutMs });
    return client.listTools(undefined, { signal, timeout: connectTimeoutMs });
  });
  if (!listed.ok) {
    await close();
    const guard = guardRefusalOf(listed.error);
    const status = httpStatusOf(listed.error);
    const reason = guard
      ? guard.message
      : listed.timedOut
        ? `The MCP server ${server} did not answer within ${seconds(connectTimeoutMs)}.`
        : status === 401 || status === 403
          ? `The MCP server ${server} asks for a sign-in (HTTP ${status}), which Planwright cannot give it yet.`
          : `The MCP server ${server} could not be reached or did not answer as an MCP server.`;
    return { ok: false, server, reason };
  }
  const tools: ExternalToolDefinition[] = [];
  for (const tool of listed.value.tools) {
    if (tools.length >= MAX_MCP_TOOLS) break;
    // Our own tools' names stay ours: a server cannot shadow a proposal tool or the web search.
    if (!TOOL_NAME.test(tool.name) || isProposalToolName(tool.name) || tool.name === WEB_SEARCH_TOOL_NAME)
      continue;
    if (tools.some((known) => known.name === tool.name)) continue;
    tools.push({
      name: tool.name,
      description: (tool.description ?? tool.title ?? tool.name).slice(0, MAX_TOOL_DESCRIPTION_CHARS),
      inputSchema: { ...tool.inputSchema, type: 'object' },
      source: 'mcp',
      server,
      execute: (input, signal) => callMcpTool(client, server, tool.name, input, signal, options.limits),
    });
  }
  return { ok: true, toolset: { server, tools, close } };
}

async function callMcpTool(
  client: Client,
  server: string,
  name: string,
  input: unknown,
  signal: AbortSignal,
  limits: ExternalToolLimits,
): Promise<ExternalToolOutcome> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, output: 'The tool input must be a JSON object.', summary: 'invalid input' };
  }
  const called = await withTimeLimit(limits.callTimeoutMs, signal, (callSignal) =>
    client.callTool({ name, arguments: input as Record<string, unknown> }, undefined, {
      signal: callSignal,
      timeout: limits.callTimeoutMs,
    }),
  );
  if (!called.ok) {
    if (called.stopped) return { ok: false, output: 'Stopped by the user.', summary: STOPPED_SUMMARY };
    if (called.timedOut) {
      const words = `timed out after ${seconds(limits.callTimeoutMs)}`;
      return { ok: false, output: `The MCP tool ${name} on ${server} ${words}.`, summary: words };
    }
    const guard = guardRefusalOf(called.error);
    return {
      ok: false,
      output: `The MCP tool ${name} on ${server} could not be called${guard ? `: ${guard.message}` : '.'}`,
      summary: guard ? 'not allowed' : 'the server could not be reached or sent an unreadable answer',
    };
  }
  const result = called.value as { content?: unknown; structuredContent?: unknown; isError?: unknown };
  const text = resultText(result);
  const capped = capResult(text, limits.maxResultChars);
  if (result.isError === true) {
    return {
      ok: false,
      output: `The MCP tool reported an error: ${capped.text}`,
      summary: 'the tool reported an error',
    };
  }
  const size = `${text.length.toLocaleString('en')} characters`;
  return { ok: true, output: capped.text, summary: capped.truncated ? `${size}, truncated` : size };
}

/** The HTTP status of a failed MCP request, when the transport or its sign-in handling says one. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof StreamableHTTPError) return error.code;
  return undefined;
}

/** A `tools/call` result as text: its text parts, a note for anything else, or its structured content. */
function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts: string[] = [];
  if (Array.isArray(result.content)) {
    for (const item of result.content as Array<Record<string, unknown>>) {
      if (item?.type === 'text' && typeof item.text === 'string') parts.push(item.text);
      else if (item?.type === 'resource' && typeof (item.resource as { text?: unknown })?.text === 'string')
        parts.push((item.resource as { text: string }).text);
      else parts.push(`[${typeof item?.type === 'string' ? item.type : 'unknown'} content left out]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join('\n\n');
}
