import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_LIMITS } from '../../../src/ai/tools/external-tool-limits.js';
import { webSearchTool } from '../../../src/ai/tools/web-search.js';
import type { SearchConfig } from '../../../src/config/config.js';
import { startRawServer } from '../../support/mcp-test-server.js';

const json = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function searchWith(
  provider: SearchConfig['provider'],
  answer: (res: ServerResponse) => void,
  input: unknown = { query: 'bakery market Lyon' },
) {
  const server = await startRawServer((_req, res) => answer(res));
  const tool = webSearchTool(
    { provider, baseUrl: server.origin, apiKey: 'key-123' },
    { ...DEFAULT_TOOL_LIMITS, callTimeoutMs: 500 },
  );
  const outcome = await tool.execute(input, new AbortController().signal);
  await server.close();
  return { outcome, requests: server.requests, tool };
}

describe('web_search (TL9–TL11)', () => {
  it('TL10 SearXNG: GET /search?q=&format=json; results become title, url and snippet, at most 5, http(s) only', async () => {
    const results = [
      {
        title: 'Bakeries in <b>Lyon</b>',
        url: 'https://stats.example.org/lyon',
        content: 'Lyon has 1,200 bakeries &amp; more.',
      },
      { title: 'Bad link', url: 'javascript:alert(1)', content: 'x' },
      ...Array.from({ length: 8 }, (_, i) => ({
        title: `R${i}`,
        url: `https://r${i}.example.com/`,
        content: `s${i}`,
      })),
    ];
    const { outcome, requests, tool } = await searchWith('searxng', (res) =>
      json(res, { query: 'q', results }),
    );
    expect(tool).toMatchObject({ name: 'web_search', source: 'search', server: 'SearXNG' });
    expect(requests[0]?.method).toBe('GET');
    const url = new URL(requests[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/search');
    expect(url.searchParams.get('q')).toBe('bakery market Lyon');
    expect(url.searchParams.get('format')).toBe('json');
    expect(outcome.ok).toBe(true);
    expect(outcome.summary).toBe('5 results');
    const parsed = JSON.parse(outcome.output) as {
      results: Array<{ title: string; url: string; snippet: string }>;
    };
    expect(parsed.results).toHaveLength(5);
    expect(parsed.results[0]).toEqual({
      title: 'Bakeries in Lyon',
      url: 'https://stats.example.org/lyon',
      snippet: 'Lyon has 1,200 bakeries & more.',
    });
    expect(outcome.output).not.toContain('javascript:');
  });

  it('TL10 Tavily: POST /search with a bearer key and {query, max_results}; reads results[].content', async () => {
    const { outcome, requests } = await searchWith('tavily', (res) =>
      json(res, {
        query: 'q',
        results: [{ title: 'Tavily hit', url: 'https://t.example.com/a', content: 'A snippet', score: 0.9 }],
      }),
    );
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url).toBe('/search');
    expect(requests[0]?.headers.authorization).toBe('Bearer key-123');
    expect(JSON.parse(requests[0]?.body ?? '{}')).toMatchObject({
      query: 'bakery market Lyon',
      max_results: 5,
    });
    expect(outcome).toMatchObject({ ok: true, summary: '1 result' });
    expect(outcome.output).toContain('https://t.example.com/a');
  });

  it('TL10 Brave: GET /res/v1/web/search?q= with X-Subscription-Token; reads web.results[].description', async () => {
    const { outcome, requests } = await searchWith('brave', (res) =>
      json(res, {
        type: 'search',
        web: {
          results: [
            {
              title: 'Brave hit',
              url: 'https://b.example.com/',
              description: 'The <strong>best</strong> bread',
            },
          ],
        },
      }),
    );
    expect(requests[0]?.method).toBe('GET');
    const url = new URL(requests[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/res/v1/web/search');
    expect(url.searchParams.get('q')).toBe('bakery market Lyon');
    expect(requests[0]?.headers['x-subscription-token']).toBe('key-123');
    expect(JSON.parse(outcome.output).results[0]).toEqual({
      title: 'Brave hit',
      url: 'https://b.example.com/',
      snippet: 'The best bread',
    });
  });

  it('TL11 a 500, an HTML page, the wrong JSON, a hang, or bad input: failed in fixed words, never a throw', async () => {
    expect(
      (await searchWith('searxng', (res) => res.writeHead(500).end('<h1>Internal</h1>'))).outcome,
    ).toMatchObject({
      ok: false,
      summary: 'SearXNG is unavailable (HTTP 500).',
    });
    expect(
      (
        await searchWith('searxng', (res) =>
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>captcha</html>'),
        )
      ).outcome,
    ).toMatchObject({ ok: false, summary: 'SearXNG sent an answer that could not be read.' });
    expect(
      (await searchWith('brave', (res) => json(res, { web: { results: 'nope' } }))).outcome,
    ).toMatchObject({
      ok: false,
      summary: 'Brave Search sent an answer that could not be read.',
    });
    expect(
      (await searchWith('tavily', (res) => json(res, { detail: 'bad key' }, 401))).outcome.summary,
    ).toMatch(/refused the search \(HTTP 401\)/);
    expect((await searchWith('searxng', () => undefined)).outcome).toMatchObject({
      ok: false,
      summary: 'SearXNG did not answer within 1 s.',
    });
    expect(
      (await searchWith('searxng', (res) => json(res, { results: [] }), { query: '   ' })).outcome,
    ).toMatchObject({
      ok: false,
      summary: 'invalid input',
    });
  });
});
