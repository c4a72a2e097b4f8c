import { z } from 'zod';
import type { SearchConfig } from '../../config/config.js';
import type { ExternalToolDefinition, ExternalToolOutcome } from '../providers/ai-provider.js';
import {
  capResult,
  type ExternalToolLimits,
  STOPPED_SUMMARY,
  withTimeLimit,
} from './external-tool-limits.js';

/** The tool's name as the model sees it. */
export const WEB_SEARCH_TOOL_NAME = 'web_search';
/** How many results one search gives the model (TL10). */
export const MAX_SEARCH_RESULTS = 5;
/** A result's title and snippet are cut to these lengths: a search is a pointer to sources, not their text. */
const MAX_TITLE_CHARS = 200;
const MAX_SNIPPET_CHARS = 600;
/** The longest query the tool sends. */
const MAX_QUERY_CHARS = 400;

/** One search result as the model reads it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A search that failed; the message is in fixed words (never the service's own). */
export class SearchError extends Error {
  override name = 'SearchError';
}

const PROVIDER_NAMES: Record<SearchConfig['provider'], string> = {
  tavily: 'Tavily',
  brave: 'Brave Search',
  searxng: 'SearXNG',
};

/** The search service's name, as `tool_call` frames show it. */
export function searchServerName(config: SearchConfig): string {
  return PROVIDER_NAMES[config.provider];
}

// Lenient: an item missing a field is skipped, not the whole answer (services add and drop fields).
const looseItem = z
  .object({ title: z.unknown(), url: z.unknown(), content: z.unknown(), description: z.unknown() })
  .partial();
const tavilyAnswer = z.object({ results: z.array(z.unknown()) });
const braveAnswer = z.object({ web: z.object({ results: z.array(z.unknown()) }).optional() });
const searxngAnswer = z.object({ results: z.array(z.unknown()) });

/** What one request to the service looks like (the wire formats of their public APIs). */
function requestOf(config: SearchConfig, query: string, count: number): { url: string; init: RequestInit } {
  switch (config.provider) {
    case 'tavily':
      // https://docs.tavily.com: POST /search, bearer key, {query, max_results}.
      return {
        url: `${config.baseUrl}/search`,
        init: {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
        },
      };
    case 'brave': {
      // https://api-dashboard.search.brave.com: GET /res/v1/web/search?q=&count=, X-Subscription-Token.
      const url = new URL(`${config.baseUrl}/res/v1/web/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      return {
        url: url.href,
        init: {
          method: 'GET',
          headers: { accept: 'application/json', 'x-subscription-token': config.apiKey ?? '' },
        },
      };
    }
    case 'searxng': {
      // https://docs.searxng.org/dev/search_api.html: GET /search?q=&format=json (json must be enabled).
      const url = new URL(`${config.baseUrl}/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      return {
        url: url.href,
        init: {
          method: 'GET',
          headers: {
            accept: 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
        },
      };
    }
  }
}

function itemsOf(config: SearchConfig, json: unknown): unknown[] {
  const parsed =
    config.provider === 'brave'
      ? braveAnswer.safeParse(json)
      : config.provider === 'tavily'
        ? tavilyAnswer.safeParse(json)
        : searxngAnswer.safeParse(json);
  if (!parsed.success)
    throw new SearchError(`${searchServerName(config)} sent an answer that could not be read.`);
  const data = parsed.data as { results?: unknown[]; web?: { results: unknown[] } };
  return data.web ? data.web.results : (data.results ?? []);
}

/** Plain text of a snippet: services mark matches with HTML (`<strong>`); entities decoded, space collapsed. */
function plain(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const text = value
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Searches the web through the configured service: at most `count` results with http(s) links. */
export async function searchWeb(
  config: SearchConfig,
  query: string,
  count: number,
  signal: AbortSignal,
  fetchImpl: typeof globalThis.fetch = globalThis.fetch,
): Promise<SearchResult[]> {
  const name = searchServerName(config);
  const { url, init } = requestOf(config, query, count);
  let response: Response;
  try {
    // The admin chose this service; a redirect is still refused, as nothing here should move.
    response = await fetchImpl(url, { ...init, redirect: 'error', signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new SearchError(`${name} could not be reached.`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new SearchError(
      response.status === 401 || response.status === 403
        ? `${name} refused the search (HTTP ${response.status}): check PLANWRIGHT_SEARCH_API_KEY.`
        : response.status === 429
          ? `${name} is rate limiting searches (HTTP 429).`
          : `${name} is unavailable (HTTP ${response.status}).`,
    );
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new SearchError(`${name} sent an answer that could not be read.`);
  }
  const results: SearchResult[] = [];
  for (const raw of itemsOf(config, json)) {
    const item = looseItem.safeParse(raw);
    if (!item.success || typeof item.data.url !== 'string' || !/^https?:\/\//i.test(item.data.url)) continue;
    if (!URL.canParse(item.data.url)) continue;
    results.push({
      title: plain(item.data.title, MAX_TITLE_CHARS) || new URL(item.data.url).host,
      url: item.data.url,
      snippet: plain(item.data.content ?? item.data.description, MAX_SNIPPET_CHARS),
    });
    if (results.length >= count) break;
  }
  return results;
}

const inputSchema = z.object({ query: z.string().trim().min(1).max(MAX_QUERY_CHARS) });

/** The `web_search` tool over the configured service (TL9–TL11). */
export function webSearchTool(
  config: SearchConfig,
  limits: ExternalToolLimits,
  fetchImpl?: typeof globalThis.fetch,
): ExternalToolDefinition {
  const server = searchServerName(config);
  return {
    name: WEB_SEARCH_TOOL_NAME,
    description:
      'Search the web. Answers up to 5 results, each with a title, a URL and a snippet. Use it for facts, figures and sources you do not know or that may have changed; search again with other words when the results do not answer the question. Cite what you use with Markdown links to the result URLs.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What to search for, as you would type it into a search engine.',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    source: 'search',
    server,
    async execute(input, signal): Promise<ExternalToolOutcome> {
      const parsed = inputSchema.safeParse(typeof input === 'string' ? { query: input } : input);
      if (!parsed.success) {
        return {
          ok: false,
          output: 'The input must be {"query": "…"} with a non-empty query.',
          summary: 'invalid input',
        };
      }
      const searched = await withTimeLimit(limits.callTimeoutMs, signal, (callSignal) =>
        searchWeb(config, parsed.data.query, MAX_SEARCH_RESULTS, callSignal, fetchImpl),
      );
      if (!searched.ok) {
        if (searched.stopped) return { ok: false, output: 'Stopped by the user.', summary: STOPPED_SUMMARY };
        const words = searched.timedOut
          ? `${server} did not answer within ${Math.round(limits.callTimeoutMs / 1000)} s.`
          : searched.error instanceof SearchError
            ? searched.error.message
            : `${server} could not be reached.`;
        return { ok: false, output: `The search failed: ${words}`, summary: words };
      }
      const results = searched.value;
      const n = results.length;
      const output = n === 0 ? 'No results.' : JSON.stringify({ query: parsed.data.query, results }, null, 1);
      return {
        ok: true,
        output: capResult(output, limits.maxResultChars).text,
        summary: `${n} result${n === 1 ? '' : 's'}`,
        sources: results.map(({ title, url }) => ({ title, url })),
      };
    },
  };
}
