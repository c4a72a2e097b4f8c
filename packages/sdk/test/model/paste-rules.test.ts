import {
  type BlockJson,
  cleanPastedText,
  getPlanwrightSchema,
  isUuid,
  type PastePlan,
  pastedTitleText,
  planPaste,
  type SubsectionJson,
} from '@planwright/sdk/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import { countingIds, link, paragraph, section, subsection, text, uuid } from '../support/model-documents.js';

const SECTION = uuid(1);
const body = { kind: 'body', sectionUuid: SECTION } as const;
const orphanBody = { kind: 'body', sectionUuid: null } as const;

function heading(level: number, value: string): unknown {
  return { type: 'heading', attrs: { level }, content: [{ type: 'text', text: value }] };
}

function p(value: string): unknown {
  return { type: 'paragraph', content: [{ type: 'text', text: value }] };
}

function bodyOf(plan: PastePlan): { blocks: BlockJson[]; subsections: SubsectionJson[] } {
  if (plan.kind !== 'body') throw new Error('expected a body plan');
  return plan;
}

/** The plan checked against the schema, as the editor will insert it. */
function expectValid(plan: PastePlan): void {
  const { blocks, subsections } = bodyOf(plan);
  const schema = getPlanwrightSchema();
  const host = {
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: SECTION },
        content: [{ type: 'sectionHeading' }, ...blocks, ...subsections],
      },
    ],
  };
  expect(() => schema.nodeFromJSON(host).check()).not.toThrow();
}

function headingsOf(blocks: readonly BlockJson[]): Array<[number, string]> {
  return blocks
    .filter((block) => block.type === 'heading')
    .map((block) => [
      block.attrs.level,
      block.content?.map((inline) => ('text' in inline ? inline.text : '')).join('') ?? '',
    ]);
}

describe('pasting into a title (M40)', () => {
  it('M40: only the text goes in, whitespace collapsed and trimmed, blocks and hard breaks as spaces', () => {
    const nodes = [
      p('  Market\t\tsize  '),
      { type: 'bulletList', content: [{ type: 'listItem', content: [p('and\ngrowth')] }] },
      { type: 'paragraph', content: [text('two', [{ type: 'bold' }]), { type: 'hardBreak' }, text('lines')] },
    ];
    expect(planPaste(nodes, { kind: 'title' })).toEqual({
      kind: 'title',
      text: 'Market size and growth two lines',
    });
  });

  it('M40: text nodes of one paragraph join without a space; Unicode spaces collapse too', () => {
    expect(
      pastedTitleText([{ type: 'paragraph', content: [text('Go'), text('od\u00a0\u2003day\u2028')] }]),
    ).toBe('Good day');
  });

  it('M40: nothing readable gives an empty text (nothing is inserted)', () => {
    expect(pastedTitleText([null, 7, 'text', { type: 'horizontalRule' }])).toBe('');
  });

  it('M40, M44: unstorable characters go from titles', () => {
    expect(pastedTitleText([p('a\u0000b\uD800c')])).toBe('abc');
  });
});

describe('headings in a body paste (M41, M42)', () => {
  it('M41: level 1 becomes 3, levels 3 and 4 stay, anything deeper becomes 4', () => {
    const nodes = [
      { type: 'sectionHeading', content: [{ type: 'text', text: 'Title' }] },
      heading(1, 'One'),
      heading(3, 'Three'),
      heading(4, 'Four'),
      heading(5, 'Five'),
      heading(6, 'Six'),
    ];
    const plan = planPaste(nodes, body, { generateId: countingIds() });
    expect(headingsOf(bodyOf(plan).blocks)).toEqual([
      [3, 'Title'],
      [3, 'One'],
      [3, 'Three'],
      [4, 'Four'],
      [4, 'Five'],
      [4, 'Six'],
    ]);
    expectValid(plan);
  });

  it('M41: blank headings are left out', () => {
    const plan = planPaste([heading(1, '  '), heading(3, ''), p('kept')], body, {
      generateId: countingIds(),
    });
    expect(bodyOf(plan).blocks.map((block) => block.type)).toEqual(['paragraph']);
  });

  it('M42: level-2 headings split the paste into new subsections with fresh uuids', () => {
    const nodes = [
      p('Before'),
      { type: 'subsectionHeading', content: [{ type: 'text', text: 'Risks' }] },
      p('Risk text'),
      heading(2, '  Team  '),
      heading(1, 'Inside'),
    ];
    const plan = bodyOf(planPaste(nodes, body, { generateId: countingIds() }));
    expect(plan.blocks.map((block) => block.type)).toEqual(['paragraph']);
    expect(plan.subsections.map((item) => [item.content[0].content?.[0]?.text, item.content.length])).toEqual(
      [
        ['Risks', 2],
        ['Team', 2],
      ],
    );
    expect(plan.subsections.every((item) => isUuid(item.attrs.uuid) && item.attrs.finalized === false)).toBe(
      true,
    );
    expect(new Set(plan.subsections.map((item) => item.attrs.uuid)).size).toBe(2);
    // A level-1 heading after a level-2 one stays in that subsection, demoted.
    expect(headingsOf(plan.subsections[1]?.content.slice(1) as BlockJson[])).toEqual([[3, 'Inside']]);
    expectValid({ kind: 'body', ...plan });
  });

  it('M42: a subsection without blocks gets one empty paragraph', () => {
    const plan = bodyOf(planPaste([heading(2, 'Alone')], body, { generateId: countingIds() }));
    expect(plan.subsections[0]?.content.map((node) => node.type)).toEqual(['subsectionHeading', 'paragraph']);
  });

  it('M42: without a section uuid, level 2 becomes a level-4 heading and no subsection is made', () => {
    const plan = bodyOf(planPaste([heading(2, 'Risks'), p('x')], orphanBody, { generateId: countingIds() }));
    expect(plan.subsections).toEqual([]);
    expect(headingsOf(plan.blocks)).toEqual([[4, 'Risks']]);
  });
});

describe('pasted structure and ids (M43)', () => {
  it('M43: pasted sections and subsections are unwrapped; their uuids never come back', () => {
    const copied = [
      section(7, 'Copied section', [paragraph('p-1', [text('a')])], [subsection(8, 'Copied sub')]),
    ];
    const plan = bodyOf(planPaste(copied, body, { generateId: countingIds() }));
    expect(headingsOf(plan.blocks)).toEqual([[3, 'Copied section']]);
    expect(plan.subsections.map((item) => item.attrs.uuid)).not.toContain(uuid(8));
    expect(JSON.stringify(plan)).not.toContain(uuid(7));
  });

  it('M43: every pasted block gets a fresh nodeId, nested ones included', () => {
    const nodes = [
      paragraph('p-1', [text('a')]),
      {
        type: 'bulletList',
        attrs: { nodeId: 'list-1' },
        content: [{ type: 'listItem', attrs: { nodeId: 'li-1' }, content: [paragraph('p-1', [text('b')])] }],
      },
    ];
    const plan = bodyOf(planPaste(nodes, body, { generateId: countingIds() }));
    const ids = JSON.stringify(plan).match(/"nodeId":"[^"]*"/g) ?? [];
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids.join()).not.toMatch(/p-1|list-1|li-1/);
  });

  it('M43: the input is not changed and the output shares nothing with it', () => {
    const nodes = [paragraph('p-1', [text('a')]), heading(1, 'T')];
    const before = structuredClone(nodes);
    const plan = bodyOf(planPaste(nodes, body, { generateId: countingIds() }));
    expect(nodes).toEqual(before);
    expect(plan.blocks[0]).not.toBe(nodes[0]);
  });

  it('M43: loose text and hard breaks at the top are wrapped in a paragraph', () => {
    const plan = bodyOf(
      planPaste([text('loose'), { type: 'hardBreak' }, text('text')], body, { generateId: countingIds() }),
    );
    expect(plan.blocks.map((block) => block.type)).toEqual(['paragraph']);
  });
});

describe('cleaning (M43, M44)', () => {
  it('M44: NUL, other C0 controls, DEL and lone surrogates go; tabs, line breaks and emoji stay', () => {
    expect(cleanPastedText('a\u0000b\u0007c\u007fd\uD83D\uDE00e\uDC00f\tg\nh\ri')).toBe(
      'abcd\uD83D\uDE00ef\tg\nh\ri',
    );
  });

  it('M44: a body paste carries no unstorable characters', () => {
    const plan = bodyOf(
      planPaste([p('x\u0000y'), heading(2, 'T\uD800')], body, { generateId: countingIds() }),
    );
    expect(JSON.stringify(plan)).not.toMatch(/\\u0000|\\ud800/i);
    expect(plan.blocks[0]).toMatchObject({ content: [{ text: 'xy' }] });
  });

  it('M43: links with disallowed schemes are removed and unknown nodes give way to their text', () => {
    const nodes = [
      {
        type: 'paragraph',
        content: [
          text('bad', [link('javascript:alert(1)')]),
          text('data', [link('data:text/html,<script>alert(1)</script>')]),
          text('good', [link('https://example.com')]),
        ],
      },
      { type: 'image', attrs: { src: 'x', onerror: 'alert(1)' } },
      { type: 'table', content: [{ type: 'tableRow', content: [p('cell')] }] },
    ];
    const plan = bodyOf(planPaste(nodes, body, { generateId: countingIds() }));
    const json = JSON.stringify(plan);
    expect(json).not.toMatch(/javascript:|data:|image|onerror/);
    expect(json).toContain('https://example.com');
    expect(json).toContain('cell');
    expectValid({ kind: 'body', ...plan });
  });
});

describe('robustness (M46)', () => {
  it('M46: a node that throws while being read gives the text read so far, never an exception', () => {
    const hostile = {
      type: 'paragraph',
      get content(): unknown {
        throw new Error('boom');
      },
    };
    expect(() => planPaste([p('ok'), hostile], body)).not.toThrow();
    expect(planPaste([p('ok'), hostile], { kind: 'title' })).toEqual({ kind: 'title', text: 'ok' });
  });

  it('M46: a broken generateId falls back to the plain text in one paragraph', () => {
    const plan = bodyOf(planPaste([heading(2, 'Sub'), p('text')], body, { generateId: () => 'not-a-uuid!' }));
    expect(plan.subsections).toEqual([]);
    expect(plan.blocks).toEqual([
      {
        type: 'paragraph',
        attrs: { indent: 0, nodeId: null },
        content: [{ type: 'text', text: 'Sub text' }],
      },
    ]);
  });

  it('M46: deeply nested sections and cycles end without a stack overflow', () => {
    let deep: unknown = p('bottom');
    for (let level = 0; level < 5000; level += 1) deep = { type: 'section', content: [deep] };
    const cyclic: { type: string; content: unknown[] } = { type: 'subsection', content: [] };
    cyclic.content.push(cyclic);
    expect(() => planPaste([deep], body)).not.toThrow();
    expect(() => planPaste([cyclic], body)).not.toThrow();
    expect(() => planPaste([cyclic], { kind: 'title' })).not.toThrow();
  });

  it('M46: hostile strings of the corpus stay text, in titles and in bodies', () => {
    const strings = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    for (const value of strings) {
      const nodes = [p(value), heading(2, value), heading(1, value)];
      const title = planPaste(nodes, { kind: 'title' });
      expect(title.kind === 'title' && /\s\s/.test(title.text)).toBe(false);
      const plan = planPaste(nodes, body, { generateId: countingIds() });
      expectValid(plan);
    }
  });
});

const inlineArb = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string({ minLength: 1, maxLength: 8, unit: 'binary' }) }),
  fc.constant({ type: 'hardBreak' }),
  fc.record({
    type: fc.constant('text'),
    text: fc.string({ minLength: 1, maxLength: 4 }),
    marks: fc.array(
      fc.oneof(
        fc.constantFrom({ type: 'bold' }, { type: 'code' }, { type: 'unknown' }),
        fc.record({
          type: fc.constant('link'),
          attrs: fc.record({ href: fc.constantFrom('javascript:x', 'https://a.b', 'data:x', '') }),
        }),
      ),
      { maxLength: 3 },
    ),
  }),
);

const { node: pastedNodeArb } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    inlineArb,
    fc.record({
      type: fc.constantFrom(
        'paragraph',
        'heading',
        'sectionHeading',
        'subsectionHeading',
        'section',
        'subsection',
        'doc',
        'blockquote',
        'bulletList',
        'orderedList',
        'listItem',
        'codeBlock',
        'horizontalRule',
        'image',
        'table',
      ),
      attrs: fc.record({
        level: fc.oneof(fc.integer({ min: -2, max: 9 }), fc.constant('x')),
        nodeId: fc.constantFrom(null, 'dup', 'p-1'),
        uuid: fc.constantFrom(null, uuid(1), uuid(2)),
      }),
      content: fc.array(tie('node'), { maxLength: 4 }),
    }),
  ),
}));

describe('properties (M45, M46)', () => {
  it('M45, M46: any pasted nodes give a valid plan for a body, with and without a section', () => {
    fc.assert(
      fc.property(fc.array(pastedNodeArb, { maxLength: 6 }), fc.boolean(), (nodes, withSection) => {
        const plan = planPaste(nodes, withSection ? body : orphanBody, { generateId: countingIds() });
        expectValid(plan);
        const { subsections } = bodyOf(plan);
        if (!withSection) expect(subsections).toEqual([]);
        // Never a uuid that was pasted, never a repeated nodeId.
        expect(subsections.map((item) => item.attrs.uuid)).not.toContain(uuid(1));
        const ids = JSON.stringify(plan).match(/"nodeId":"[^"]*"/g) ?? [];
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 300 },
    );
  });

  it('M40: a title text never has a whitespace run, a leading or trailing space, or an unstorable character', () => {
    fc.assert(
      fc.property(fc.array(pastedNodeArb, { maxLength: 6 }), (nodes) => {
        const plan = planPaste(nodes, { kind: 'title' });
        if (plan.kind !== 'title') throw new Error('expected a title plan');
        expect(plan.text).toBe(plan.text.trim());
        expect(plan.text).not.toMatch(/\s\s/u);
        expect(cleanPastedText(plan.text)).toBe(plan.text);
      }),
      { numRuns: 300 },
    );
  });
});
