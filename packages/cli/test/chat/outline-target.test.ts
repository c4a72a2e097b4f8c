import type { Section } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { findSection, findSubsection } from '../../src/chat/outline-target.js';
import { progressLines, progressReport } from '../../src/chat/progress-report.js';
import { CliError } from '../../src/errors/cli-error.js';

const settings = { developer_prompt: '', user_hint: '', tool_mode: '' as const, mcp_url: '' };
function section(uuid: string, title: string, subsections: [string, string, boolean][]): Section {
  return {
    uuid,
    title,
    order: 1,
    blueprint_uuid: null,
    ...settings,
    subsections: subsections.map(([id, name, finalized], index) => ({
      uuid: id,
      title: name,
      order: index + 1,
      finalized,
      blueprint_uuid: null,
      ...settings,
    })),
  };
}

const OUTLINE = [
  section('s1', 'Summary', [
    ['a', 'Overview', true],
    ['b', 'Goals', false],
  ]),
  section('s2', 'Market', [
    ['c', 'Overview', false],
    ['d', '\u001b[2JEvil\u202e', false],
  ]),
];

function failure(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('did not fail');
}

describe('finding --section and --subsection', () => {
  it('T1: a uuid wins; T3: titles match trimmed and case-insensitively', () => {
    expect(findSubsection(OUTLINE, 'b', 'doc').subsection.title).toBe('Goals');
    expect(findSubsection(OUTLINE, '  goals ', 'doc').section.uuid).toBe('s1');
    expect(findSection(OUTLINE, 'MARKET', 'doc').section.uuid).toBe('s2');
  });

  it('T2: a title matching several subsections is a usage error listing them; --section narrows it', () => {
    const error = failure(() => findSubsection(OUTLINE, 'Overview', 'doc'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      '--subsection: "Overview" matches 2 subsections: a ("Summary > Overview"), c ("Market > Overview")',
    );
    expect(findSubsection(OUTLINE, 'overview', 'doc', OUTLINE[1]).subsection.uuid).toBe('c');
  });

  it('T4: nothing matching is "not found" (exit 1) with a hint; hostile titles are made safe', () => {
    const error = failure(() => findSubsection(OUTLINE, '\u001b]8;;x\u0007Nope', 'doc'));
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe('Subsection not found: "Nope".');
    expect(error.suggestion).toBe('Run `planwright progress doc` to see the sections and subsections.');
  });

  it('T5: for `comment` (no --section), names the titles there are, and asks for the uuid alone', () => {
    const search = { sectionOption: false, listTitles: true };
    const missing = failure(() => findSubsection(OUTLINE, 'Nope', 'doc', undefined, search));
    expect([missing.exitCode, missing.message]).toEqual([1, 'Subsection not found: "Nope".']);
    // Each title once, made safe; a blank one could not be typed, so it is not offered.
    expect(missing.suggestion).toBe('The subsections are: "Overview", "Goals", "Evil".');
    const ambiguous = failure(() => findSubsection(OUTLINE, 'overview', 'doc', undefined, search));
    expect([ambiguous.exitCode, ambiguous.suggestion]).toEqual([2, 'Pass the uuid of the one you mean.']);
  });
});

describe('progress', () => {
  it('T10: counts per section and in all, as whole percents', () => {
    const report = progressReport({ sections: OUTLINE });
    expect(report).toMatchObject({ finalized: 1, total: 4, percent: 25 });
    expect(report.sections.map((s) => [s.finalized, s.total, s.percent])).toEqual([
      [1, 2, 50],
      [0, 2, 0],
    ]);
  });

  it('T11: a table per section, titles safe for the terminal', () => {
    const lines = progressLines({ title: 'Plan', sections: OUTLINE });
    expect(lines.slice(0, 6)).toEqual([
      'Plan: 25% (1/4) subsections finalized',
      '',
      '1. Summary  50% (1/2)',
      '   DONE  SUBSECTION  UUID',
      '   [x]   Overview    a',
      '   [ ]   Goals       b',
    ]);
    for (const bad of ['\u001b', '\u202e']) expect(lines.join('\n')).not.toContain(bad);
  });
});
