import { describe, expect, it } from 'vitest';
import { DEFAULT_BLUEPRINT } from '../../src/blueprints/default-blueprint.js';

// docs/http-api.md: titles 1–200 characters, developer prompts and user hints up to 20,000.
const TITLE_MAX = 200;
const PROMPT_MAX = 20_000;
const TOOL_MODES = ['', 'web', 'research', 'fact_check', 'mcp'];
// What the server refuses in any text field: control characters (prompts may have tabs and line breaks) and lone surrogates.
const CONTROL_IN_TITLE = /[\p{Cc}\p{Cs}]/u;
const CONTROL_IN_TEXT = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

const length = (text: string) => [...text].length;
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).filter((part) => part.trim() !== '').length;

function expectTitle(title: string, where: string) {
  expect(title.trim(), where).toBe(title);
  expect(length(title), where).toBeGreaterThan(0);
  expect(length(title), where).toBeLessThanOrEqual(TITLE_MAX);
  expect(CONTROL_IN_TITLE.test(title), where).toBe(false);
}

function expectPromptText(text: string, where: string) {
  expect(text.trim().length, where).toBeGreaterThan(0);
  expect(length(text), where).toBeLessThanOrEqual(PROMPT_MAX);
  expect(CONTROL_IN_TEXT.test(text), where).toBe(false);
}

function expectPart(
  part: { title: string; developerPrompt: string; userHint: string; toolMode: string },
  where: string,
) {
  expectTitle(part.title, where);
  expectPromptText(part.developerPrompt, `${where}: developerPrompt`);
  expectPromptText(part.userHint, `${where}: userHint`);
  expect(TOOL_MODES, where).toContain(part.toolMode);
  // Hints are visible guidance, one to three sentences; prompts are the fuller hidden instructions.
  expect(sentences(part.userHint), `${where}: userHint sentences`).toBeLessThanOrEqual(3);
  expect(length(part.developerPrompt), `${where}: developerPrompt is substantial`).toBeGreaterThan(200);
  expect(length(part.developerPrompt)).toBeGreaterThan(length(part.userHint));
  // Every prompt gives the AI a length to aim for.
  expect(part.developerPrompt, `${where}: developerPrompt names a length`).toMatch(/Length: /);
}

describe('the default "Business Plan" blueprint', () => {
  it('is "Business Plan" by Planwright Studio, with a description and a system prompt', () => {
    expect(DEFAULT_BLUEPRINT.title).toBe('Business Plan');
    expect(DEFAULT_BLUEPRINT.publisher).toBe('Planwright Studio');
    expect(DEFAULT_BLUEPRINT.description.length).toBeGreaterThan(40);
    expect(length(DEFAULT_BLUEPRINT.description)).toBeLessThanOrEqual(5_000);
    expectPromptText(DEFAULT_BLUEPRINT.systemPrompt, 'systemPrompt');
    expect(DEFAULT_BLUEPRINT.systemPrompt.length).toBeGreaterThan(400);
  });

  it('has the nine sections of an investor-ready plan, in order', () => {
    expect(DEFAULT_BLUEPRINT.sections.map((section) => section.title)).toEqual([
      'Executive Summary',
      'Company Overview',
      'Market Analysis',
      'Products and Services',
      'Marketing and Sales',
      'Operations',
      'Management Team',
      'Financial Plan',
      'Funding Request',
    ]);
  });

  it('gives every section 2–4 subsections with unique titles, hints, prompts and a valid tool mode', () => {
    for (const section of DEFAULT_BLUEPRINT.sections) {
      expectPart(section, section.title);
      expect(section.subsections.length, section.title).toBeGreaterThanOrEqual(2);
      expect(section.subsections.length, section.title).toBeLessThanOrEqual(4);
      const titles = section.subsections.map((subsection) => subsection.title);
      expect(new Set(titles).size, section.title).toBe(titles.length);
      expect(titles, section.title).not.toContain(section.title);
      for (const subsection of section.subsections)
        expectPart(subsection, `${section.title} / ${subsection.title}`);
    }
  });

  it('uses fresh data where it helps (market size, competitors, pricing) and nothing it cannot use', () => {
    const market = DEFAULT_BLUEPRINT.sections.find((section) => section.title === 'Market Analysis');
    expect(market?.toolMode).toBe('research');
    const modes = new Map(market?.subsections.map((subsection) => [subsection.title, subsection.toolMode]));
    expect(modes.get('Target Market and Market Size')).toBe('research');
    expect(modes.get('Competitive Landscape')).toBe('research');
    const all = DEFAULT_BLUEPRINT.sections.flatMap((section) => [section, ...section.subsections]);
    // Tools that need configuring per section (an MCP server) or that check rather than write are left off.
    expect(all.filter((part) => part.toolMode === 'mcp' || part.toolMode === 'fact_check')).toEqual([]);
    // The founder's own story, team and numbers come from the founder, not the web.
    for (const title of ['Executive Summary', 'Management Team', 'Financial Plan', 'Funding Request']) {
      const section = DEFAULT_BLUEPRINT.sections.find((candidate) => candidate.title === title);
      expect([section?.toolMode, ...(section?.subsections.map((s) => s.toolMode) ?? [])], title).toEqual(
        Array.from({ length: (section?.subsections.length ?? 0) + 1 }, () => ''),
      );
    }
  });

  it('tells the AI never to invent facts, in the blueprint prompt and where it matters most', () => {
    expect(DEFAULT_BLUEPRINT.systemPrompt).toMatch(/Never invent/);
    const team = DEFAULT_BLUEPRINT.sections.find((section) => section.title === 'Management Team');
    expect(team?.developerPrompt).toMatch(/Never invent/);
  });
});
