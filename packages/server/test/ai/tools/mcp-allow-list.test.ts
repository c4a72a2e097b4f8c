import { describe, expect, it } from 'vitest';
import { mcpUrlRefusal } from '../../../src/ai/tools/mcp-allow-list.js';

const config = (allowedUrls: string[], allowPrivateNetwork = false) => ({ allowedUrls, allowPrivateNetwork });

describe('the MCP allow-list (TL1, TL2)', () => {
  it('TL1 with no list, MCP is off', () => {
    expect(mcpUrlRefusal('https://mcp.example.com/mcp', config([]))).toMatch(/not enabled/);
  });

  it.each([
    ['https://mcp.example.com', 'https://mcp.example.com/mcp', true],
    ['https://mcp.example.com/', 'https://mcp.example.com/any/path?x=1', true],
    ['https://mcp.example.com', 'https://MCP.example.com:443/mcp', true],
    ['https://mcp.example.com', 'https://mcp.example.com:8443/mcp', false],
    ['https://mcp.example.com', 'https://mcp.example.com.evil.test/mcp', false],
    ['https://mcp.example.com', 'https://evil.test/?https://mcp.example.com', false],
    ['https://tools.example.com/mcp', 'https://tools.example.com/mcp', true],
    ['https://tools.example.com/mcp', 'https://tools.example.com/mcp/v2', true],
    ['https://tools.example.com/mcp/', 'https://tools.example.com/mcp/v2', true],
    ['https://tools.example.com/mcp', 'https://tools.example.com/mcpevil', false],
    ['https://tools.example.com/mcp', 'https://tools.example.com/other', false],
    ['https://tools.example.com', 'http://tools.example.com/mcp', false],
  ])('TL1 entry %s, URL %s: allowed %s', (entry, url, allowed) => {
    expect(mcpUrlRefusal(url, config([entry])) === null).toBe(allowed);
  });

  it('TL1 a URL with a user name or password is refused; an unparsable one too', () => {
    expect(mcpUrlRefusal('https://u:p@mcp.example.com/mcp', config(['https://mcp.example.com']))).toMatch(
      /user name or password/,
    );
    expect(mcpUrlRefusal('not a url', config(['https://mcp.example.com']))).toMatch(/not a valid URL/);
  });

  it('TL2 http:// only with PLANWRIGHT_MCP_ALLOW_PRIVATE_NETWORK', () => {
    expect(mcpUrlRefusal('http://127.0.0.1:9/mcp', config(['http://127.0.0.1:9']))).toMatch(/https/);
    expect(mcpUrlRefusal('http://127.0.0.1:9/mcp', config(['http://127.0.0.1:9'], true))).toBeNull();
    expect(mcpUrlRefusal('ftp://mcp.example.com/', config(['https://mcp.example.com'], true))).toMatch(
      /https/,
    );
  });
});
