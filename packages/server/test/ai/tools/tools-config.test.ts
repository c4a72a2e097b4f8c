import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { configProblems } from '../../support/config-problems.js';

describe('tool settings (TL1, TL9)', () => {
  it('TL1 by default: no search service, MCP off, no private network', () => {
    const { ai } = loadConfig({}, '/srv/planwright');
    expect(ai.search).toBeNull();
    expect(ai.mcp).toEqual({ allowedUrls: [], allowPrivateNetwork: false });
  });

  it('TL1 reads the MCP allow-list (commas, spaces) and the private-network switch', () => {
    const { ai } = loadConfig(
      {
        PLANWRIGHT_MCP_ALLOWED_URLS: ' https://mcp.example.com , https://tools.example.com/mcp ,',
        PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK: 'true',
      },
      '/srv/planwright',
    );
    expect(ai.mcp).toEqual({
      allowedUrls: ['https://mcp.example.com', 'https://tools.example.com/mcp'],
      allowPrivateNetwork: true,
    });
    expect(configProblems({ PLANWRIGHT_MCP_ALLOWED_URLS: 'mcp.example.com' })[0]).toMatch(
      /^PLANWRIGHT_MCP_ALLOWED_URLS: must be http:\/\/ or https:\/\/ origins or URL prefixes/,
    );
    expect(configProblems({ PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK: 'yes' })[0]).toMatch(
      /^PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK:/,
    );
  });

  it('TL9 reads the search service, with each one default URL, and names what is missing', () => {
    expect(
      loadConfig({ PLANWRIGHT_SEARCH_PROVIDER: 'Tavily', PLANWRIGHT_SEARCH_API_KEY: 'tvly-1' }, '/srv').ai
        .search,
    ).toEqual({ provider: 'tavily', baseUrl: 'https://api.tavily.com', apiKey: 'tvly-1' });
    expect(
      loadConfig({ PLANWRIGHT_SEARCH_PROVIDER: 'brave', PLANWRIGHT_SEARCH_API_KEY: 'b' }, '/srv').ai.search,
    ).toEqual({ provider: 'brave', baseUrl: 'https://api.search.brave.com', apiKey: 'b' });
    expect(
      loadConfig(
        { PLANWRIGHT_SEARCH_PROVIDER: 'searxng', PLANWRIGHT_SEARCH_URL: 'http://searxng:8080/' },
        '/srv',
      ).ai.search,
    ).toEqual({ provider: 'searxng', baseUrl: 'http://searxng:8080', apiKey: undefined });
    expect(configProblems({ PLANWRIGHT_SEARCH_PROVIDER: 'searxng' })).toEqual([
      'PLANWRIGHT_SEARCH_PROVIDER=searxng needs PLANWRIGHT_SEARCH_URL',
    ]);
    expect(configProblems({ PLANWRIGHT_SEARCH_PROVIDER: 'brave' })).toEqual([
      'PLANWRIGHT_SEARCH_PROVIDER=brave needs PLANWRIGHT_SEARCH_API_KEY',
    ]);
    expect(configProblems({ PLANWRIGHT_SEARCH_API_KEY: 'k' })).toEqual([
      'PLANWRIGHT_SEARCH_URL and PLANWRIGHT_SEARCH_API_KEY need PLANWRIGHT_SEARCH_PROVIDER',
    ]);
    expect(configProblems({ PLANWRIGHT_SEARCH_PROVIDER: 'google' })[0]).toMatch(
      /^PLANWRIGHT_SEARCH_PROVIDER:/,
    );
  });
});
