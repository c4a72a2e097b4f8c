import { describe, expect, it } from 'vitest';
import { diffDocuments, documentDiffToMarkdown } from '../../src/formats/document-diff.js';
import type { DocumentJson, SectionJson, SubsectionJson } from '../../src/model/document-json.js';

const text = (value: string) => (value === '' ? [] : [{ type: 'text' as const, text: value }]);
const paragraph = (value: string) => ({
  type: 'paragraph' as const,
  attrs: { nodeId: null },
  content: text(value),
});

function subsection(uuid: string, title: string, body: string, finalized = false): SubsectionJson {
  return {
    type: 'subsection',
    attrs: { uuid, blueprint_uuid: null, finalized },
    content: [{ type: 'subsectionHeading', attrs: { level: 2 }, content: text(title) }, paragraph(body)],
  } as unknown as SubsectionJson;
}

function section(uuid: string, title: string, subsections: SubsectionJson[]): SectionJson {
  return {
    type: 'section',
    attrs: { uuid, blueprint_uuid: null, id: null, model: null },
    content: [{ type: 'sectionHeading', attrs: { level: 1 }, content: text(title) }, ...subsections],
  } as SectionJson;
}

const doc = (...sections: SectionJson[]): DocumentJson => ({ type: 'doc', content: sections });

const base = () =>
  doc(
    section('s1', 'Summary', [
      subsection('a', 'Mission', 'We bake bread.'),
      subsection('b', 'Team', 'Two founders.'),
    ]),
    section('s2', 'Market', [
      subsection('c', 'Size', 'A market of 3 billion.'),
      subsection('d', 'Rivals', 'Few.'),
    ]),
  );

describe('diffDocuments', () => {
  it('finds nothing between a plan and itself', () => {
    const diff = diffDocuments(base(), base());
    expect(diff.summary).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 4 });
    expect(diff.sections.map((part) => part.status)).toEqual(['unchanged', 'unchanged']);
    expect(documentDiffToMarkdown(diff, { from: '“v1”', to: 'now' })).toContain('Nothing changed.');
  });

  it('compares a changed subsection word by word, and says which words', () => {
    const after = base();
    after.content[1] = section('s2', 'Market', [
      subsection('c', 'Size', 'A market of 4 billion.'),
      subsection('d', 'Rivals', 'Few.'),
    ]);
    const diff = diffDocuments(base(), after);
    const size = diff.sections[1]?.subsections[0];
    expect(size).toMatchObject({ uuid: 'c', status: 'changed', renamed: false, moved: false });
    expect(size?.words).toEqual([
      { kind: 'same', text: 'A market of ' },
      { kind: 'removed', text: '3' },
      { kind: 'added', text: '4' },
      { kind: 'same', text: ' billion.' },
    ]);
    expect(diff.summary).toEqual({ added: 0, removed: 0, changed: 1, unchanged: 3 });
    const markdown = documentDiffToMarkdown(diff, { from: '“v1”', to: 'now' });
    expect(markdown).toContain('## Market\n\n### Size\n\nA market of {--3--}{++4++} billion.');
    expect(markdown).not.toContain('### Rivals');
    expect(markdown).not.toContain('## Summary');
  });

  it('tells added, removed, renamed, moved and finalized parts apart, matched by uuid', () => {
    const after = doc(
      section('s2', 'Markets', [
        subsection('d', 'Rivals', 'Few.'),
        subsection('c', 'Size', 'A market of 3 billion.', true),
      ]),
      section('s1', 'Summary', [
        subsection('b', 'Our team', 'Two founders.'),
        subsection('e', 'Risks', 'Flour prices.'),
      ]),
    );
    const diff = diffDocuments(base(), after);
    const [markets, summary] = diff.sections;
    expect(markets).toMatchObject({
      uuid: 's2',
      status: 'changed',
      renamed: true,
      title: { from: 'Market', to: 'Markets' },
    });
    expect(summary?.moved || markets?.moved).toBe(true);
    const byUuid = new Map(
      diff.sections.flatMap((part) => part.subsections).map((part) => [part.uuid, part]),
    );
    expect(byUuid.get('e')).toMatchObject({ status: 'added', title: { from: null, to: 'Risks' } });
    expect(byUuid.get('a')).toMatchObject({ status: 'removed', title: { from: 'Mission', to: null } });
    expect(byUuid.get('b')).toMatchObject({ status: 'changed', renamed: true, words: null });
    expect(byUuid.get('c')).toMatchObject({ status: 'changed', finalized: { from: false, to: true } });
    // Two swapped subsections read as one move (the one put before the other), not two.
    expect([byUuid.get('c')?.moved, byUuid.get('d')?.moved]).toEqual([false, true]);
    expect(diff.summary).toEqual({ added: 1, removed: 1, changed: 3, unchanged: 0 });
    const markdown = documentDiffToMarkdown(diff, { from: '“v1”', to: '“v2”' });
    expect(markdown).toContain('# Changes from “v1” to “v2”');
    expect(markdown).toContain('### Risks (added)\n\n{++Flour prices.++}');
    expect(markdown).toContain('### Mission (removed)\n\n{--We bake bread.--}');
    expect(markdown).toContain('_Renamed from “Market”.');
    expect(markdown).toContain('Finalized.');
  });

  it('moves a subsection to another section without calling it removed', () => {
    const after = doc(
      section('s1', 'Summary', [subsection('a', 'Mission', 'We bake bread.')]),
      section('s2', 'Market', [
        subsection('b', 'Team', 'Two founders.'),
        subsection('c', 'Size', 'A market of 3 billion.'),
        subsection('d', 'Rivals', 'Few.'),
      ]),
    );
    const diff = diffDocuments(base(), after);
    const team = diff.sections[1]?.subsections.find((part) => part.uuid === 'b');
    expect(team).toMatchObject({ status: 'changed', moved: true, words: null });
    expect(diff.summary.removed).toBe(0);
  });

  it('lists a removed section where it was', () => {
    const after = doc(section('s2', 'Market', base().content[1]?.content.slice(1) as SubsectionJson[]));
    const diff = diffDocuments(base(), after);
    expect(diff.sections.map((part) => [part.uuid, part.status])).toEqual([
      ['s1', 'removed'],
      ['s2', 'unchanged'],
    ]);
    expect(diff.summary).toEqual({ added: 0, removed: 2, changed: 0, unchanged: 2 });
  });
});
