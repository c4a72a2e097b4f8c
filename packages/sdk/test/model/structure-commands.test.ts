import {
  createDocumentContent,
  type DocumentJson,
  DocumentStructureError,
  deleteSection,
  deleteSubsection,
  insertSectionAfter,
  insertSubsection,
  moveSection,
  moveSectionTo,
  moveSubsection,
  moveSubsectionTo,
  normalizeDocument,
  outlineOf,
  renameSection,
  renameSubsection,
  replaceSectionContent,
  type SectionJson,
  type StructureResult,
  setSubsectionFinalized,
} from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import {
  checkedJson,
  countingIds,
  documentOf,
  paragraph,
  section,
  subsection,
  text,
  uuid,
} from '../support/model-documents.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Three sections; the second holds subsections 21, 22, 23. Frozen, so any write to it throws. */
function plan(): DocumentJson {
  return deepFreeze(
    documentOf(
      section(1, 'One', [paragraph('p1', [text('first')])]),
      section(
        2,
        'Two',
        [paragraph('p2')],
        [subsection(21, 'A', [paragraph('pa')]), subsection(22, 'B'), subsection(23, 'C', [], true)],
      ),
      section(3, 'Three'),
    ),
  );
}

/** The document of a successful result, checked against M30: schema-valid and normalised. */
function applied(result: StructureResult): DocumentJson {
  if (!result.ok) throw new Error(`expected ok, got ${result.reason}`);
  expect(checkedJson(result.doc)).toEqual(result.doc);
  const again = normalizeDocument(result.doc, { generateId: countingIds(9000) });
  expect(again.ok && again.report.changed).toBe(false);
  return result.doc;
}

const titles = (doc: DocumentJson) => outlineOf(doc).sections.map((s) => s.title);
const subTitles = (doc: DocumentJson, index = 1) =>
  outlineOf(doc).sections[index]?.subsections.map((s) => s.title);

describe('results (M30)', () => {
  it('M30: a command with nothing to do answers the very same document', () => {
    const doc = plan();
    for (const result of [
      moveSection(doc, uuid(1), 'up'),
      moveSection(doc, uuid(3), 'down'),
      moveSubsection(doc, uuid(21), 'up'),
      moveSubsection(doc, uuid(23), 'down'),
      moveSectionTo(doc, uuid(2), 2),
      moveSubsectionTo(doc, uuid(22), 2),
      renameSection(doc, uuid(1), '   '),
      renameSection(doc, uuid(1), ' One '),
      renameSubsection(doc, uuid(21), ''),
      setSubsectionFinalized(doc, uuid(23), true),
      replaceSectionContent(doc, uuid(3), section(3, 'Three')),
    ]) {
      expect(result).toEqual({ ok: true, doc, changed: false });
      expect(result.ok && result.doc).toBe(doc);
    }
  });

  it('M30: shares untouched sections and never writes to the input (it is frozen)', () => {
    const doc = plan();
    const result = renameSection(doc, uuid(2), 'Deux');
    const next = applied(result);
    expect(next.content[0]).toBe(doc.content[0]);
    expect(next.content[2]).toBe(doc.content[2]);
    expect(next.content[1]).not.toBe(doc.content[1]);
    expect(titles(doc)).toEqual(['One', 'Two', 'Three']);
  });

  it('M30: finds uuids in any case', () => {
    const upper = '00000000-0000-4000-8000-00000000000A'.toUpperCase();
    const doc = documentOf(section(10, 'Ten'), section(1, 'One'));
    expect(titles(applied(renameSection(doc, upper, 'X')))).toEqual(['X', 'One']);
  });

  it.each([
    ['renameSection', () => renameSection(plan(), uuid(99), 'x')],
    ['renameSection with a subsection uuid', () => renameSection(plan(), uuid(21), 'x')],
    ['renameSubsection', () => renameSubsection(plan(), uuid(99), 'x')],
    ['renameSubsection with a section uuid', () => renameSubsection(plan(), uuid(1), 'x')],
    ['moveSection', () => moveSection(plan(), uuid(99), 'up')],
    ['moveSubsection', () => moveSubsection(plan(), uuid(99), 'up')],
    ['moveSectionTo', () => moveSectionTo(plan(), uuid(99), 1)],
    ['moveSubsectionTo', () => moveSubsectionTo(plan(), uuid(99), 1)],
    ['deleteSection', () => deleteSection(plan(), uuid(99))],
    ['deleteSubsection', () => deleteSubsection(plan(), uuid(99))],
    ['setSubsectionFinalized', () => setSubsectionFinalized(plan(), uuid(99), true)],
    ['insertSectionAfter', () => insertSectionAfter(plan(), uuid(99))],
    ['insertSubsection', () => insertSubsection(plan(), uuid(99))],
    [
      'insertSubsection after a subsection of another section',
      () => insertSubsection(plan(), uuid(1), { afterUuid: uuid(21) }),
    ],
    ['replaceSectionContent', () => replaceSectionContent(plan(), uuid(99), section(99, 'x'))],
  ])('M30: %s with an unknown uuid is not_found', (_label, run) => {
    expect(run()).toEqual({
      ok: false,
      reason: 'not_found',
      message: 'No such section or subsection in this document.',
    });
  });
});

describe('insertSectionAfter (M31)', () => {
  it('M31: puts a titled section with one empty paragraph after the given one', () => {
    const result = insertSectionAfter(plan(), uuid(1), { title: '  Market  ', generateId: countingIds() });
    const doc = applied(result);
    expect(result.ok && result.uuid).toBe(uuid(1001));
    expect(titles(doc)).toEqual(['One', 'Market', 'Two', 'Three']);
    expect(doc.content[1]).toEqual({
      ...section(1001, 'Market', [paragraph(uuid(1002))]),
    });
  });

  it('M31: null appends at the end; a blank title is "New Section"', () => {
    const doc = applied(insertSectionAfter(plan(), null, { title: ' ', generateId: countingIds() }));
    expect(titles(doc)).toEqual(['One', 'Two', 'Three', 'New Section']);
    const afterLast = applied(insertSectionAfter(plan(), uuid(3), { generateId: countingIds() }));
    expect(titles(afterLast)).toEqual(['One', 'Two', 'Three', 'New Section']);
  });

  it('M31: keeps a given uuid and blueprint uuid (lowercased)', () => {
    const given = 'AAAAAAAA-0000-4000-8000-000000000000';
    const result = insertSectionAfter(plan(), uuid(2), {
      uuid: given,
      blueprintUuid: given,
      generateId: countingIds(),
    });
    const doc = applied(result);
    expect(result.ok && result.uuid).toBe(given.toLowerCase());
    expect(doc.content[2]?.attrs).toEqual({
      uuid: given.toLowerCase(),
      blueprint_uuid: given.toLowerCase(),
      id: null,
      model: null,
    });
  });

  it.each([
    ['a uuid that is not a UUID', { uuid: 'section-1' }, 'invalid_uuid'],
    ['a blueprint uuid that is not a UUID', { blueprintUuid: '../x' }, 'invalid_uuid'],
    ['a section’s uuid', { uuid: uuid(2) }, 'duplicate_uuid'],
    ['a subsection’s uuid', { uuid: uuid(22).toUpperCase() }, 'duplicate_uuid'],
  ])('M31: refuses %s', (_label, options, reason) => {
    expect(insertSectionAfter(plan(), null, options)).toMatchObject({ ok: false, reason });
  });

  it('M31: never reuses an id of the document for a new one', () => {
    // The counter's first ids are uuid(1001) and uuid(1002); the document already holds both (as a uuid and a nodeId).
    const doc = documentOf(section(1001, 'A', [paragraph(uuid(1002))]));
    const result = insertSectionAfter(doc, null, { generateId: countingIds() });
    expect(result.ok && result.uuid).toBe(uuid(1002));
    expect(applied(result).content[1]?.content[1]).toEqual(paragraph(uuid(1003)));
  });
});

describe('insertSubsection (M32)', () => {
  it('M32: appends by default, titled "New Subsection", not finalized, with an empty paragraph', () => {
    const result = insertSubsection(plan(), uuid(2), { generateId: countingIds() });
    const doc = applied(result);
    expect(subTitles(doc)).toEqual(['A', 'B', 'C', 'New Subsection']);
    const sub = outlineOf(doc).sections[1]?.subsections[3];
    expect(sub).toMatchObject({ uuid: uuid(1001), finalized: false, order: 4 });
    expect((doc.content[1] as SectionJson).content.at(-1)).toEqual(
      subsection(1001, 'New Subsection', [paragraph(uuid(1002))]),
    );
  });

  it('M32: goes after afterUuid, or at order (which wins), clamped', () => {
    const ids = countingIds();
    expect(
      subTitles(
        applied(insertSubsection(plan(), uuid(2), { afterUuid: uuid(21), title: 'X', generateId: ids })),
      ),
    ).toEqual(['A', 'X', 'B', 'C']);
    expect(
      subTitles(
        applied(
          insertSubsection(plan(), uuid(2), { order: 1, afterUuid: uuid(23), title: 'X', generateId: ids }),
        ),
      ),
    ).toEqual(['X', 'A', 'B', 'C']);
    expect(
      subTitles(applied(insertSubsection(plan(), uuid(2), { order: 99, title: 'X', generateId: ids }))),
    ).toEqual(['A', 'B', 'C', 'X']);
    expect(
      subTitles(applied(insertSubsection(plan(), uuid(2), { order: -5, title: 'X', generateId: ids }))),
    ).toEqual(['X', 'A', 'B', 'C']);
    expect(
      subTitles(applied(insertSubsection(plan(), uuid(2), { order: 2.9, title: 'X', generateId: ids }))),
    ).toEqual(['A', 'X', 'B', 'C']);
  });

  it('M32: into a section without subsections, after its blocks', () => {
    const doc = applied(insertSubsection(plan(), uuid(1), { title: 'First', generateId: countingIds() }));
    expect((doc.content[0] as SectionJson).content.map((node) => node.type)).toEqual([
      'sectionHeading',
      'paragraph',
      'subsection',
    ]);
  });

  it('M32: refuses a bad order and bad uuids', () => {
    expect(insertSubsection(plan(), uuid(2), { order: Number.NaN })).toMatchObject({
      ok: false,
      reason: 'invalid_order',
    });
    expect(insertSubsection(plan(), uuid(2), { uuid: 'x' })).toMatchObject({
      ok: false,
      reason: 'invalid_uuid',
    });
    expect(insertSubsection(plan(), uuid(2), { uuid: uuid(3) })).toMatchObject({
      ok: false,
      reason: 'duplicate_uuid',
    });
  });
});

describe('rename (M33)', () => {
  it('M33: sets the trimmed title as the heading’s only text', () => {
    const doc = applied(renameSection(plan(), uuid(1), '  Summary\t'));
    expect((doc.content[0] as SectionJson).content[0]).toEqual({
      type: 'sectionHeading',
      attrs: { level: 1 },
      content: [{ type: 'text', text: 'Summary' }],
    });
    expect(subTitles(applied(renameSubsection(plan(), uuid(22), ' Bee ')))).toEqual(['A', 'Bee', 'C']);
  });

  it('M33: keeps hostile titles as plain text', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally.
    const hostile = '<img src=x onerror=alert(1)> ‮RTL 🙂 ${{7*7}}';
    const doc = applied(renameSubsection(plan(), uuid(21), hostile));
    expect(subTitles(doc)).toEqual([hostile, 'B', 'C']);
  });
});

describe('move (M34, M35)', () => {
  it('M34: swaps sections with their neighbours', () => {
    expect(titles(applied(moveSection(plan(), uuid(2), 'up')))).toEqual(['Two', 'One', 'Three']);
    expect(titles(applied(moveSection(plan(), uuid(2), 'down')))).toEqual(['One', 'Three', 'Two']);
  });

  it('M34: moves subsections only inside their section', () => {
    expect(subTitles(applied(moveSubsection(plan(), uuid(22), 'up')))).toEqual(['B', 'A', 'C']);
    expect(subTitles(applied(moveSubsection(plan(), uuid(22), 'down')))).toEqual(['A', 'C', 'B']);
    const edge = moveSubsection(plan(), uuid(21), 'up');
    expect(edge.ok && edge.changed).toBe(false);
  });

  it('M35: moves to a 1-based order, truncated and clamped', () => {
    expect(titles(applied(moveSectionTo(plan(), uuid(3), 1)))).toEqual(['Three', 'One', 'Two']);
    expect(titles(applied(moveSectionTo(plan(), uuid(1), 99)))).toEqual(['Two', 'Three', 'One']);
    expect(titles(applied(moveSectionTo(plan(), uuid(3), 0)))).toEqual(['Three', 'One', 'Two']);
    expect(titles(applied(moveSectionTo(plan(), uuid(1), 2.7)))).toEqual(['Two', 'One', 'Three']);
    expect(subTitles(applied(moveSubsectionTo(plan(), uuid(23), 1)))).toEqual(['C', 'A', 'B']);
    expect(subTitles(applied(moveSubsectionTo(plan(), uuid(21), -3)))).toEqual(['A', 'B', 'C']);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number])(
    'M35: refuses the order %j',
    (order) => {
      expect(moveSectionTo(plan(), uuid(1), order)).toMatchObject({ ok: false, reason: 'invalid_order' });
      expect(moveSubsectionTo(plan(), uuid(21), order)).toMatchObject({ ok: false, reason: 'invalid_order' });
    },
  );
});

describe('delete (M36)', () => {
  it('M36: removes a section with its subsections', () => {
    const doc = applied(deleteSection(plan(), uuid(2)));
    expect(titles(doc)).toEqual(['One', 'Three']);
    expect(JSON.stringify(doc)).not.toContain(uuid(21));
  });

  it('M36: refuses to remove the only section', () => {
    const single = documentOf(section(1, 'Only'));
    expect(deleteSection(single, uuid(1))).toEqual({
      ok: false,
      reason: 'last_section',
      message: 'A document keeps at least one section.',
    });
  });

  it('M36: removes subsections down to none', () => {
    let doc = plan();
    for (const id of [21, 22, 23]) doc = applied(deleteSubsection(doc, uuid(id)));
    expect(subTitles(doc)).toEqual([]);
    expect((doc.content[1] as SectionJson).content.map((node) => node.type)).toEqual([
      'sectionHeading',
      'paragraph',
    ]);
  });
});

describe('setSubsectionFinalized (M37)', () => {
  it('M37: finalizes and reopens', () => {
    const doc = applied(setSubsectionFinalized(plan(), uuid(21), true));
    expect(outlineOf(doc).sections[1]?.subsections.map((s) => s.finalized)).toEqual([true, false, true]);
    const reopened = applied(setSubsectionFinalized(doc, uuid(23), false));
    expect(outlineOf(reopened).sections[1]?.subsections.map((s) => s.finalized)).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('replaceSectionContent (M38)', () => {
  it('M38: replaces the node after normalising it; a missing uuid takes the section’s', () => {
    const node = {
      type: 'section',
      content: [
        { type: 'sectionHeading', content: [text('Renamed')] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
          ],
        },
      ],
    };
    const doc = applied(replaceSectionContent(plan(), uuid(3), node, { generateId: countingIds() }));
    expect(doc.content[2]).toEqual(section(3, 'Renamed', [paragraph(uuid(1001), [text('x')])]));
  });

  it('M38: renews block ids that clash with the rest of the document', () => {
    const doc = applied(
      replaceSectionContent(plan(), uuid(3), section(3, 'T', [paragraph('p1'), paragraph('own')]), {
        generateId: countingIds(),
      }),
    );
    expect(doc.content[2]).toEqual(section(3, 'T', [paragraph(uuid(1001)), paragraph('own')]));
    expect((doc.content[0] as SectionJson).content[1]).toEqual(paragraph('p1', [text('first')]));
  });

  it.each([
    ['not a section', { type: 'paragraph' }, 'invalid_content'],
    ['null', null, 'invalid_content'],
    ['a list', [section(3, 'x')], 'invalid_content'],
    ['another section’s uuid', section(1, 'x'), 'uuid_mismatch'],
    ['a uuid that is no string', { ...section(3, 'x'), attrs: { uuid: 3 } }, 'uuid_mismatch'],
    ['a subsection uuid used elsewhere', section(3, 'x', [], [subsection(22, 'stolen')]), 'duplicate_uuid'],
    [
      'a nested section (it would be lifted into a second one)',
      { ...section(3, 'x'), content: [...section(3, 'x').content, section(50, 'y')] },
      'invalid_content',
    ],
  ])('M38: refuses %s', (_label, node, reason) => {
    expect(replaceSectionContent(plan(), uuid(3), node)).toMatchObject({ ok: false, reason });
  });

  it('M38: refuses an unrepairable node with the error and its path', () => {
    const result = replaceSectionContent(plan(), uuid(3), {
      type: 'section',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 7 }] }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('invalid_content');
    expect(DocumentStructureError.isInstance(result.error)).toBe(true);
    expect(result.error?.path).toBe('content[0].content[0].content[0]');
    expect(result.message).toContain('text must be a string');
  });

  it('M38: accepts the section’s uuid in any case', () => {
    const node = { ...section(3, 'New'), attrs: { uuid: uuid(3).replace('0000', 'AAAA').toUpperCase() } };
    expect(replaceSectionContent(plan(), uuid(3), node)).toMatchObject({
      ok: false,
      reason: 'uuid_mismatch',
    });
    const same = { ...section(0xabc, 'New'), attrs: { uuid: uuid(0xabc).toUpperCase() } };
    const doc = documentOf(section(0xabc, 'Old'));
    expect(titles(applied(replaceSectionContent(doc, uuid(0xabc), same)))).toEqual(['New']);
  });
});

describe('createDocumentContent (M39)', () => {
  it('M39: builds a normalised tree from sections and subsections', () => {
    const doc = createDocumentContent(
      [
        {
          uuid: uuid(1),
          blueprintUuid: uuid(900),
          title: ' Executive Summary ',
          subsections: [
            { uuid: uuid(11), title: 'Overview', blueprintUuid: uuid(911) },
            { uuid: uuid(12), title: 'Team', finalized: true, content: [paragraph('given', [text('Ada')])] },
          ],
        },
        { uuid: uuid(2), title: 'Market', subsections: [] },
        { uuid: uuid(3), title: 'Plan', content: [], subsections: [] },
      ],
      { generateId: countingIds() },
    );
    expect(checkedJson(doc)).toEqual(doc);
    expect(doc).toEqual(
      documentOf(
        {
          ...section(
            1,
            'Executive Summary',
            [],
            [
              {
                ...subsection(11, 'Overview', [paragraph(uuid(1001))]),
                attrs: { uuid: uuid(11), blueprint_uuid: uuid(911), finalized: false },
              },
              subsection(12, 'Team', [paragraph('given', [text('Ada')])], true),
            ],
          ),
          attrs: { uuid: uuid(1), blueprint_uuid: uuid(900), id: null, model: null },
        },
        section(2, 'Market', [paragraph(uuid(1002))]),
        section(3, 'Plan'),
      ),
    );
  });

  it('M39: no sections gives one untitled section', () => {
    const doc = createDocumentContent([], { generateId: countingIds() });
    expect(outlineOf(doc).sections.map((s) => s.displayTitle)).toEqual(['Untitled Section']);
  });

  it.each([
    ['a uuid that is not a UUID', [{ uuid: 'x', title: 'A', subsections: [] }], 'sections[0].uuid'],
    [
      'a uuid used twice',
      [{ uuid: uuid(1), title: 'A', subsections: [{ uuid: uuid(1), title: 'a' }] }],
      'sections[0].uuid',
    ],
    [
      'a subsection uuid used twice',
      [
        { uuid: uuid(1), title: 'A', subsections: [{ uuid: uuid(5), title: 'a' }] },
        { uuid: uuid(2), title: 'B', subsections: [{ uuid: uuid(5), title: 'b' }] },
      ],
      'sections[1].subsections[0].uuid',
    ],
    [
      'a bad blueprint uuid',
      [{ uuid: uuid(1), blueprintUuid: 'nope', title: 'A', subsections: [] }],
      'sections[0].blueprintUuid',
    ],
  ])('M39: throws for %s, naming the input path', (_label, sections, path) => {
    expect(() => createDocumentContent(sections)).toThrow(
      expect.objectContaining({ path, code: 'invalid_content' }),
    );
  });
});
