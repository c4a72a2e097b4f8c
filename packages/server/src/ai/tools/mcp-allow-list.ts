import type { McpConfig } from '../../config/config.js';

/**
 * Why a section's MCP URL may not be used, in fixed words for the user, or null when it may (TL1, TL2).
 * The admin's `PLANWRIGHT_MCP_ALLOWED_URLS` entries are origins (any URL there) or URL prefixes (that path
 * and below, on a `/` boundary, so `https://h/mcp` allows `https://h/mcp/x` but not `https://h/mcpevil`).
 */
export function mcpUrlRefusal(url: string, config: McpConfig): string | null {
  if (config.allowedUrls.length === 0) return 'MCP servers are not enabled on this Planwright server.';
  if (!URL.canParse(url)) return 'The MCP URL is not a valid URL.';
  const target = new URL(url);
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && config.allowPrivateNetwork)) {
    return 'The MCP URL must start with https://.';
  }
  if (target.username || target.password) return 'The MCP URL may not carry a user name or password.';
  const allowed = config.allowedUrls.some((entry) => underPrefix(target, entry));
  return allowed
    ? null
    : `The MCP server ${target.host} is not on this server's list of allowed MCP servers.`;
}

function underPrefix(target: URL, entry: string): boolean {
  if (!URL.canParse(entry)) return false;
  const prefix = new URL(entry);
  if (prefix.origin !== target.origin) return false;
  const path = prefix.pathname.replace(/\/+$/, '');
  if (path === '') return true;
  return target.pathname === path || target.pathname.startsWith(`${path}/`);
}
