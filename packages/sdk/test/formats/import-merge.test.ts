import { IMPORTED_TITLE_PREFIX, mergeImportedDocument } from '@planwright/sdk/formats';
import {
  type BlockJson,
  createDocumentContent,
  type DocumentJson,
  normalizeDocument,
  outlineOf,
} from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';

let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const para = (text: string): BlockJson => ({
  type: 'paragraph',
  attrs: { nodeId: null, indent: 0 },
  content: [{ type: 'text', text }],
});

interface Spec {
  title: string;
  blocks?: string[];
  subsections?: Array<{ title: string; blocks?: string[]; finalized?: boolean }>;
}

function doc(...sections: Spec[]): DocumentJson {
  return createDocumentContent(
    sections.map((section) => ({
      uuid: uuid(),
      blueprintUuid: uuid(),
      title: section.title,
      content: (section.blocks ?? []).map(para),
      subsections: (section.subsections ?? []).map((sub) => ({
        uuid: uuid(),
        blueprintUuid: uuid(),
        title: sub.title,
        content: (sub.blocks ?? []).map(para),
        finalized: sub.finalized ?? false,
      })),
    })),
    { generateId: uuid },
  );
}

/** Titles with the text of each part, to compare shapes. */
function shape(tree: DocumentJson) {
  const normalized = normalizeDocument(tree, { generateId: uuid });
  if (!normalized.ok) throw new Error(normalized.error.message);
  const outline = outlineOf(normalized.doc);
  const texts = (node: unknown): string[] =>
    JSON.stringify(node)
      .match(/"text":"[^"]*"/g)
      ?.map((t) => t.slice(8, -1)) ?? [];
  return normalized.doc.content.map((section, i) => ({
    title: outline.sections[i]?.title,
    text: texts(
      section.content.filter((node) => node.type !== 'subsection' && node.type !== 'sectionHeading'),
    ),
    subsections: section.content
      .filter((node) => node.type === 'subsection')
      .map((sub) => ({ title: texts(sub.content[0])[0] ?? '', text: texts(sub.content.slice(1)) })),
  }));
}

describe('mergeImportedDocument: merge (spec 001 §4)', () => {
  it('adds blocks and subsections into sections of the same title; new parts arrive "(Imported)"', () => {
    const current = doc(
      {
        title: 'Market',
        blocks: ['old'],
        subsections: [{ title: 'Size', blocks: ['tam'] }, { title: 'Trends' }],
      },
      { title: 'Team' },
    );
    const imported = doc(
      {
        title: '  market ',
        blocks: ['new'],
        subsections: [
          { title: 'SIZE', blocks: ['sam'] },
          { title: 'Risks', blocks: ['r'] },
        ],
      },
      { title: 'Appendix', blocks: ['a'], subsections: [{ title: 'Sources' }] },
    );
    expect(shape(mergeImportedDocument(current, imported, 'merge'))).toEqual([
      {
        title: 'Market',
        text: ['old', 'new'],
        subsections: [
          { title: 'Size', text: ['tam', 'sam'] },
          { title: 'Trends', text: [] },
          { title: `${IMPORTED_TITLE_PREFIX} Risks`, text: ['r'] },
        ],
      },
      { title: 'Team', text: [], subsections: [] },
      {
        title: '(Imported) Appendix',
        text: ['a'],
        subsections: [{ title: '(Imported) Sources', text: [] }],
      },
    ]);
  });

  it('never writes into a finalized subsection: the imported one arrives beside it', () => {
    const current = doc({
      title: 'Plan',
      subsections: [{ title: 'Done', blocks: ['final'], finalized: true }],
    });
    const imported = doc({ title: 'Plan', subsections: [{ title: 'Done', blocks: ['more'] }] });
    const merged = shape(mergeImportedDocument(current, imported, 'merge'));
    expect(merged[0]?.subsections).toEqual([
      { title: 'Done', text: ['final'] },
      { title: '(Imported) Done', text: ['more'] },
    ]);
  });

  it('keeps every existing uuid and changes neither input', () => {
    const current = doc({ title: 'A', subsections: [{ title: 'B' }] });
    const imported = doc({ title: 'A', blocks: ['x'] }, { title: 'C' });
    const before = [JSON.stringify(current), JSON.stringify(imported)];
    const merged = mergeImportedDocument(current, imported, 'merge');
    expect(merged.content[0]?.attrs.uuid).toBe(current.content[0]?.attrs.uuid);
    expect([JSON.stringify(current), JSON.stringify(imported)]).toEqual(before);
  });

  it('an untitled imported section is added as "(Imported)"', () => {
    const merged = shape(
      mergeImportedDocument(doc({ title: 'A' }), doc({ title: '', blocks: ['loose'] }), 'merge'),
    );
    expect(merged.map((s) => s.title)).toEqual(['A', '(Imported)']);
  });
});

describe('mergeImportedDocument: replace', () => {
  it('the imported tree wins; matching sections and subsections keep uuid and blueprint link', () => {
    const current = doc(
      { title: 'Market', blocks: ['old'], subsections: [{ title: 'Size' }] },
      { title: 'Gone' },
    );
    const imported = doc(
      {
        title: 'market',
        blocks: ['new'],
        subsections: [{ title: 'size', blocks: ['s'] }, { title: 'New sub' }],
      },
      { title: 'Fresh' },
    );
    const replaced = mergeImportedDocument(current, imported, 'replace');
    expect(shape(replaced)).toEqual([
      {
        title: 'market',
        text: ['new'],
        subsections: [
          { title: 'size', text: ['s'] },
          { title: 'New sub', text: [] },
        ],
      },
      { title: 'Fresh', text: [], subsections: [] },
    ]);
    const [kept, fresh] = replaced.content;
    expect(kept?.attrs).toMatchObject({
      uuid: current.content[0]?.attrs.uuid,
      blueprint_uuid: current.content[0]?.attrs.blueprint_uuid,
    });
    const keptSub = kept?.content.find((node) => node.type === 'subsection');
    const oldSub = current.content[0]?.content.find((node) => node.type === 'subsection');
    expect(keptSub?.type === 'subsection' && keptSub.attrs.uuid).toBe(
      oldSub?.type === 'subsection' && oldSub.attrs.uuid,
    );
    expect(fresh?.attrs.uuid).toBe(imported.content[1]?.attrs.uuid);
  });

  it('two imported sections of one title: only the first takes the old uuid', () => {
    const current = doc({ title: 'Same' });
    const imported = doc({ title: 'Same' }, { title: 'Same' });
    const replaced = mergeImportedDocument(current, imported, 'replace');
    expect(replaced.content.map((s) => s.attrs.uuid)).toEqual([
      current.content[0]?.attrs.uuid,
      imported.content[1]?.attrs.uuid,
    ]);
  });
});
