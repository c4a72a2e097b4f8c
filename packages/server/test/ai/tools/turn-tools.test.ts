import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../../src/ai/providers/ai-provider.js';
import { prepareTurnTools, toolSettingsInScope } from '../../../src/ai/tools/turn-tools.js';
import { EMPTY_SETTINGS, type SectionRow } from '../../../src/structure/section-rows.js';
import { aiConfig } from '../providers/provider-fixtures.js';

const model: ProviderInfo = {
  name: 'openai-compatible',
  model: 'm',
  label: 'OpenAI-compatible · m',
  offline: false,
  supports: { webAccess: true, research: true, tools: true },
};
const offline: ProviderInfo = {
  ...model,
  name: 'offline',
  offline: true,
  supports: { webAccess: false, research: false, tools: true },
};

function sectionRow(
  uuid: string,
  settings: Partial<SectionRow>,
  subsections: SectionRow['subsections'] = [],
): SectionRow {
  return { ...EMPTY_SETTINGS, uuid, blueprintUuid: null, title: uuid, position: 1, subsections, ...settings };
}
const sub = (uuid: string, toolMode: SectionRow['toolMode'] = '') => ({
  ...EMPTY_SETTINGS,
  uuid,
  blueprintUuid: null,
  title: uuid,
  position: 1,
  finalized: false,
  toolMode,
});

const sections = [
  sectionRow('s-web', { toolMode: 'web' }, [sub('sub-plain'), sub('sub-fact', 'fact_check')]),
  sectionRow('s-mcp', { toolMode: 'mcp', mcpUrl: 'https://mcp.example.com/mcp' }),
  sectionRow('s-none', {}),
];
const search = { provider: 'searxng' as const, baseUrl: 'http://127.0.0.1:9', apiKey: undefined };
const base = {
  sections,
  subsectionUuid: null,
  options: { webAccess: false, research: false },
  signal: new AbortController().signal,
};

describe('which tools a turn gets (TL12–TL14)', () => {
  it('TL12 a subsection with its own tool mode uses it; otherwise its section’s; a document chat has none', () => {
    expect(toolSettingsInScope(sections, 's-web', 'sub-fact')?.toolMode).toBe('fact_check');
    expect(toolSettingsInScope(sections, 's-web', 'sub-plain')?.toolMode).toBe('web');
    expect(toolSettingsInScope(sections, null, 'SUB-PLAIN')?.toolMode).toBe('web');
    expect(toolSettingsInScope(sections, 's-mcp', null)?.mcpUrl).toBe('https://mcp.example.com/mcp');
    expect(toolSettingsInScope(sections, null, null)).toBeNull();
  });

  it('TL13 web_search for web, research and fact_check sections and for the chat options, only with a search service', async () => {
    const withSearch = aiConfig({ search });
    const web = await prepareTurnTools({ ...base, ai: withSearch, provider: model, sectionUuid: 's-web' });
    expect(web.tools.map((tool) => tool.name)).toEqual(['web_search']);
    expect(web.instructions).toMatch(/Markdown link/);
    const fact = await prepareTurnTools({
      ...base,
      ai: withSearch,
      provider: model,
      sectionUuid: 's-web',
      subsectionUuid: 'sub-fact',
    });
    expect(fact.instructions).toMatch(/confirm it, contradict it/);
    const asked = await prepareTurnTools({
      ...base,
      ai: withSearch,
      provider: model,
      sectionUuid: 's-none',
      options: { webAccess: false, research: true },
    });
    expect(asked.tools.map((tool) => tool.name)).toEqual(['web_search']);
    expect(asked.instructions).toMatch(/Deep research/);
    const plain = await prepareTurnTools({ ...base, ai: withSearch, provider: model, sectionUuid: 's-none' });
    expect(plain.tools).toEqual([]);
    expect(plain.instructions).toBe('');
    const noService = await prepareTurnTools({
      ...base,
      ai: aiConfig(),
      provider: model,
      sectionUuid: 's-web',
    });
    expect(noService.tools).toEqual([]);
  });

  it('TL13 the offline drafter gets no tools, and says so for an MCP section', async () => {
    const withAll = aiConfig({
      search,
      mcp: { allowedUrls: ['https://mcp.example.com'], allowPrivateNetwork: false },
    });
    const mcp = await prepareTurnTools({ ...base, ai: withAll, provider: offline, sectionUuid: 's-mcp' });
    expect(mcp.tools).toEqual([]);
    expect(mcp.notes).toEqual([
      'The offline drafter cannot use tools: the MCP server of this section was not used.',
    ]);
    const web = await prepareTurnTools({ ...base, ai: withAll, provider: offline, sectionUuid: 's-web' });
    expect(web).toMatchObject({ tools: [], notes: [], instructions: '' });
  });

  it('TL14 an MCP server that may not be used: a note for the user, and the model is told to say so', async () => {
    const turn = await prepareTurnTools({ ...base, ai: aiConfig(), provider: model, sectionUuid: 's-mcp' });
    expect(turn.tools).toEqual([]);
    expect(turn.notes).toEqual([
      "The section's MCP server could not be used: MCP servers are not enabled on this Planwright server.",
    ]);
    expect(turn.instructions).toMatch(/could not be used .*tell the user in one sentence/s);
  });

  it('TL3 an allowed MCP host that resolves to a private address is refused before any connection', async () => {
    const turn = await prepareTurnTools({
      ...base,
      ai: aiConfig({ mcp: { allowedUrls: ['https://mcp.example.com'], allowPrivateNetwork: false } }),
      provider: model,
      sectionUuid: 's-mcp',
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect(turn.notes[0]).toMatch(
      /mcp\.example\.com resolves to a link-local address, which this server may not reach/,
    );
  });
});
