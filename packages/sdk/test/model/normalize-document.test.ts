import { ERROR_CODES, PlanwrightError } from '@planwright/sdk';
import {
  type DocumentJson,
  DocumentStructureError,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_NODES,
  type NormalizeReport,
  normalizeDocument,
  outlineOf,
  parseDocument,
  type SectionJson,
} from '@planwright/sdk/model';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import {
  checkedJson,
  countingIds,
  documentOf,
  link,
  paragraph,
  section,
  specDocument,
  subsection,
  text,
  uuid,
} from '../support/model-documents.js';

/** Normalises with counting ids, and checks M3 on the way: schema-valid, and a second pass changes nothing. */
function normalized(input: unknown): { doc: DocumentJson; report: NormalizeReport } {
  const result = normalizeDocument(input, { generateId: countingIds() });
  if (!result.ok) throw new Error(`expected ok, got ${result.error.message}`);
  expect(checkedJson(result.doc)).toEqual(result.doc);
  const again = normalizeDocument(result.doc, { generateId: countingIds(5000) });
  expect(again.ok && again.doc).toEqual(result.doc);
  expect(again.ok && again.report.changed).toBe(false);
  return result;
}

function refused(input: unknown): DocumentStructureError {
  const result = normalizeDocument(input, { generateId: countingIds() });
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

/** A document whose first section holds `blocks` (raw JSON, anything goes). */
function withBlocks(...blocks: unknown[]): unknown {
  return { type: 'doc', content: [{ ...section(1, 'S'), content: [section(1, 'S').content[0], ...blocks] }] };
}

/** The blocks of the first section of a normalised document. */
function blocksOf(doc: DocumentJson): unknown[] {
  return (doc.content[0] as SectionJson).content.slice(1);
}

const zeroReport: NormalizeReport = {
  changed: false,
  flattenedNodes: 0,
  restructuredNodes: 0,
  addedNodes: 0,
  removedNodes: 0,
  droppedMarks: 0,
  removedLinks: 0,
  fixedAttributes: 0,
  assignedNodeIds: 0,
  assignedUuids: 0,
};

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Every object reachable from `value`. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null) {
    into.add(value);
    for (const child of Object.values(value)) objectsOf(child, into);
  }
  return into;
}

describe('a normalised document (M3)', () => {
  it('M3: comes back equal, with every count at 0', () => {
    const input = deepFreeze(specDocument());
    const result = normalizeDocument(input);
    expect(result).toEqual({ ok: true, doc: specDocument(), report: zeroReport });
  });

  it('M3: never changes the input and shares no object with it', () => {
    const input = deepFreeze(
      withBlocks({
        type: 'paragraph',
        content: [{ type: 'text', text: 'a', marks: [{ type: 'bold', attrs: {} }] }],
      }),
    );
    const { doc } = normalized(input);
    const inputObjects = objectsOf(input);
    for (const object of objectsOf(doc)) expect(inputObjects.has(object)).toBe(false);
  });

  it('M3: ignores key order and reports filled-in defaults as a change', () => {
    const { report } = normalized(withBlocks({ type: 'paragraph', content: [{ text: 'x', type: 'text' }] }));
    expect(report).toMatchObject({ changed: true, assignedNodeIds: 1, fixedAttributes: 0 });
  });
});

describe('refusals (M4)', () => {
  it.each([
    [null, 'a document must be a JSON object'],
    ['{"type":"doc"}', 'a document must be a JSON object'],
    [42, 'a document must be a JSON object'],
    [[], 'a document must be a JSON object'],
    [{}, 'the root node must have type "doc"'],
    [{ type: 'DOC' }, 'the root node must have type "doc"'],
    [{ type: 'section' }, 'the root node must have type "doc"'],
    [{ type: 'doc', content: 'text' }, 'content must be a list of nodes'],
    [{ type: 'doc', content: {} }, 'content must be a list of nodes'],
  ])('M4: refuses %j at the root', (input, problem) => {
    const error = refused(input);
    expect(error.path).toBe('');
    expect(error.problem).toBe(problem);
    expect(error.message).toBe(`Invalid document: ${problem}`);
  });

  it.each([
    [
      'a node that is not an object',
      withBlocks('hello'),
      'content[0].content[1]',
      'a node must be a JSON object',
    ],
    ['a node that is null', withBlocks(null), 'content[0].content[1]', 'a node must be a JSON object'],
    ['a node that is a list', withBlocks([]), 'content[0].content[1]', 'a node must be a JSON object'],
    ['a node without a type', withBlocks({ content: [] }), 'content[0].content[1]', 'type must be a string'],
    ['a numeric type', withBlocks({ type: 7 }), 'content[0].content[1]', 'type must be a string'],
    [
      'content that is not a list',
      withBlocks({ type: 'paragraph', content: 'text' }),
      'content[0].content[1]',
      'content must be a list of nodes',
    ],
    [
      'attrs that are not an object',
      withBlocks({ type: 'paragraph', attrs: 'x' }),
      'content[0].content[1]',
      'attrs must be an object',
    ],
    [
      'attrs that are a list',
      withBlocks({ type: 'paragraph', attrs: [] }),
      'content[0].content[1]',
      'attrs must be an object',
    ],
    [
      'a text that is not a string',
      withBlocks({ type: 'paragraph', content: [text('a'), { type: 'text', text: 5 }] }),
      'content[0].content[1].content[1]',
      'text must be a string',
    ],
    [
      'a text node without text',
      withBlocks({ type: 'paragraph', content: [{ type: 'text' }] }),
      'content[0].content[1].content[0]',
      'text must be a string',
    ],
    [
      'marks that are not a list',
      withBlocks({ type: 'paragraph', content: [{ type: 'text', text: 'a', marks: { type: 'bold' } }] }),
      'content[0].content[1].content[0]',
      'marks must be a list',
    ],
    [
      'a mark that is not an object',
      withBlocks({
        type: 'paragraph',
        content: [{ type: 'text', text: 'a', marks: [{ type: 'bold' }, 'italic'] }],
      }),
      'content[0].content[1].content[0].marks[1]',
      'a mark must be a JSON object',
    ],
    [
      'a mark without a type',
      withBlocks({ type: 'paragraph', content: [{ type: 'text', text: 'a', marks: [{}] }] }),
      'content[0].content[1].content[0].marks[0]',
      'type must be a string',
    ],
    [
      'mark attrs that are not an object',
      withBlocks({
        type: 'paragraph',
        content: [{ type: 'text', text: 'a', marks: [{ type: 'link', attrs: 'https://x' }] }],
      }),
      'content[0].content[1].content[0].marks[0]',
      'attrs must be an object',
    ],
    [
      'a bad node inside an unknown one',
      withBlocks({ type: 'table', content: [{ type: 'row', content: [7] }] }),
      'content[0].content[1].content[0].content[0]',
      'a node must be a JSON object',
    ],
  ])('M4: refuses %s, naming its path', (_label, input, path, problem) => {
    const error = refused(input);
    expect(error.path).toBe(path);
    expect(error.problem).toBe(problem);
    expect(error.message).toBe(`Invalid document at ${path}: ${problem}`);
  });

  it('M4: is a PlanwrightError with code invalid_content, never retryable', () => {
    const error = refused(null);
    expect(DocumentStructureError.isInstance(error)).toBe(true);
    expect(PlanwrightError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(DocumentStructureError);
    expect(error.code).toBe(ERROR_CODES.INVALID_CONTENT);
    expect(error.code).toBe('invalid_content');
    expect(error.isRetryable).toBe(false);
    expect(error.name).toBe('DocumentStructureError');
    expect(error.suggestion).toMatch(/doc/);
  });

  /** section > blockquote × n > paragraph > text: the text sits at depth n + 3. */
  function nested(quotes: number): unknown {
    let node: unknown = { type: 'paragraph', content: [text('deep')] };
    for (let i = 0; i < quotes; i += 1) node = { type: 'blockquote', content: [node] };
    return withBlocks(node);
  }

  it(`M4: accepts nodes ${MAX_DOCUMENT_DEPTH} levels deep and refuses the level below`, () => {
    expect(normalizeDocument(nested(MAX_DOCUMENT_DEPTH - 3)).ok).toBe(true);
    const error = refused(nested(MAX_DOCUMENT_DEPTH - 2));
    expect(error.problem).toBe('nodes are nested more than 64 levels deep');
    expect(error.path.split('.').length).toBe(MAX_DOCUMENT_DEPTH + 1);
  });

  it('M4: refuses very deep nesting at level 65 without walking further', () => {
    const error = refused(nested(100_000));
    expect(error.path.split('.').length).toBe(MAX_DOCUMENT_DEPTH + 1);
  });

  it('M4: refuses a cycle (not JSON, but an object graph) instead of overflowing the stack', () => {
    const loop: Record<string, unknown> = { type: 'blockquote' };
    loop.content = [loop];
    expect(refused(withBlocks(loop)).problem).toBe('nodes are nested more than 64 levels deep');
  });

  it(`M4: refuses more than ${MAX_DOCUMENT_NODES} nodes after reading at most that many`, () => {
    let reads = 0;
    const length = 1_000_000_000;
    // A lazily made list of a billion paragraphs: only the elements actually read are ever created.
    const content = new Proxy(new Array(length), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) {
          reads += 1;
          return { type: 'paragraph' };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const error = refused(withBlocks({ type: 'blockquote', content }));
    expect(error.problem).toBe(`the document has more than ${MAX_DOCUMENT_NODES} nodes and marks`);
    expect(reads).toBeLessThanOrEqual(MAX_DOCUMENT_NODES);
  });

  it('M4: counts marks toward the limit', () => {
    const marks = Array.from({ length: MAX_DOCUMENT_NODES }, () => ({ type: 'bold' }));
    expect(
      refused(withBlocks({ type: 'paragraph', content: [{ type: 'text', text: 'a', marks }] })).problem,
    ).toMatch(/more than 100000 nodes/);
  });

  it('M4: accepts a large but allowed document', () => {
    const paragraphs = Array.from({ length: 30_000 }, (_, i) => ({
      type: 'paragraph',
      content: [text(`p${i}`)],
    }));
    const result = normalizeDocument(withBlocks(...paragraphs), { generateId: countingIds() });
    expect(result.ok && blocksOf(result.doc).length).toBe(30_000);
  });

  it('M4: refuses a value whose getter throws, at the root', () => {
    const hostile = {
      type: 'doc',
      get content(): unknown {
        throw new Error('boom');
      },
    };
    const error = refused(hostile);
    expect(error.path).toBe('');
    expect(error.problem).toBe('the document could not be read');
    expect((error.cause as Error).message).toBe('boom');
  });

  it('M4: reads only own fields, never inherited ones', () => {
    const inherited = Object.create({ type: 'doc', content: [section(1, 'S')] }) as object;
    expect(refused(inherited).problem).toBe('the root node must have type "doc"');
  });

  it('M4: JSON keys such as __proto__ and constructor are data, never prototypes', () => {
    const input: unknown = JSON.parse(
      `{"type":"doc","content":[{"type":"section","attrs":{"__proto__":{"uuid":"${uuid(5)}","polluted":1},"constructor":{"prototype":{"polluted":1}}},"content":[{"type":"sectionHeading","__proto__":{"content":[{"type":"text","text":"x"}]}}]}]}`,
    );
    const { doc } = normalized(input);
    expect(doc.content[0]?.attrs.uuid).toBe(uuid(1001));
    expect(doc.content[0]?.content).toEqual([{ type: 'sectionHeading', attrs: { level: 1 } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('M12: parseDocument throws the same error and returns the document otherwise', () => {
    expect(() => parseDocument({ type: 'doc', content: [{ type: 'section', content: 'x' }] })).toThrow(
      expect.objectContaining({ path: 'content[0]', code: 'invalid_content' }),
    );
    expect(parseDocument(specDocument())).toEqual(specDocument());
  });
});

describe('unknown nodes (M5)', () => {
  it('M5: a table gives way to its cells’ paragraphs', () => {
    const table = {
      type: 'table',
      content: [
        {
          type: 'tableRow',
          content: [
            {
              type: 'tableCell',
              content: [{ type: 'paragraph', attrs: { nodeId: 'a' }, content: [text('one')] }],
            },
            {
              type: 'tableCell',
              content: [{ type: 'paragraph', attrs: { nodeId: 'b' }, content: [text('two')] }],
            },
          ],
        },
      ],
    };
    const { doc, report } = normalized(withBlocks(table));
    expect(blocksOf(doc)).toEqual([paragraph('a', [text('one')]), paragraph('b', [text('two')])]);
    expect(report.flattenedNodes).toBe(4);
  });

  it('M5: an unknown inline node keeps its text, joined to its neighbours', () => {
    const { doc } = normalized(
      withBlocks({
        type: 'paragraph',
        attrs: { nodeId: 'p' },
        content: [text('Hi '), { type: 'mention', attrs: { id: 7 }, content: [text('@ada')] }, text('!')],
      }),
    );
    expect(blocksOf(doc)).toEqual([paragraph('p', [text('Hi @ada!')])]);
  });

  it('M5: an unknown leaf (an image) disappears; a nested doc gives way to its children', () => {
    const { doc, report } = normalized({
      type: 'doc',
      content: [
        {
          type: 'doc',
          content: [
            section(1, 'S', [paragraph('p', [text('a'), { type: 'image', attrs: { src: 'x' } } as never])]),
          ],
        },
      ],
    });
    expect(doc).toEqual(documentOf(section(1, 'S', [paragraph('p', [text('a')])])));
    expect(report.flattenedNodes).toBe(2);
  });

  it('M5: a leaf that carries content keeps it after itself', () => {
    const { doc } = normalized(
      withBlocks(
        { type: 'paragraph', attrs: { nodeId: 'p' }, content: [{ type: 'hardBreak', content: [text('x')] }] },
        { type: 'horizontalRule', content: [text('y')] },
      ),
    );
    expect(blocksOf(doc)).toEqual([
      paragraph('p', [{ type: 'hardBreak' }, text('x')]),
      { type: 'horizontalRule' },
      paragraph(uuid(1001), [text('y')]),
    ]);
  });
});

describe('misplaced nodes (M6)', () => {
  it('M6a: a list inside a paragraph is lifted out, splitting it; the first part keeps the nodeId', () => {
    const list = {
      type: 'bulletList',
      attrs: { nodeId: 'ul' },
      content: [{ type: 'listItem', attrs: { nodeId: 'li' }, content: [paragraph('in', [text('item')])] }],
    };
    const { doc, report } = normalized(
      withBlocks({
        type: 'paragraph',
        attrs: { nodeId: 'p', indent: 2 },
        content: [text('before'), list, text('after')],
      }),
    );
    expect(blocksOf(doc)).toEqual([
      paragraph('p', [text('before')], 2),
      list,
      paragraph(uuid(1001), [text('after')], 2),
    ]);
    expect(report.restructuredNodes).toBe(1);
  });

  it('M6a: a paragraph that held only a block leaves just the block', () => {
    const { doc } = normalized(
      withBlocks({ type: 'paragraph', attrs: { nodeId: 'p' }, content: [{ type: 'horizontalRule' }] }),
    );
    expect(blocksOf(doc)).toEqual([{ type: 'horizontalRule' }]);
  });

  it('M6a: a paragraph inside a heading splits the heading', () => {
    const { doc } = normalized(
      withBlocks({
        type: 'heading',
        attrs: { level: 3, nodeId: 'h' },
        content: [text('A'), { type: 'paragraph', attrs: { nodeId: 'p' }, content: [text('B')] }],
      }),
    );
    expect(blocksOf(doc)).toEqual([
      { type: 'heading', attrs: { level: 3, nodeId: 'h' }, content: [text('A')] },
      paragraph('p', [text('B')]),
    ]);
  });

  it('M6b: titles and code blocks keep plain text only', () => {
    const { doc, report } = normalized({
      type: 'doc',
      content: [
        {
          type: 'section',
          attrs: { uuid: uuid(1) },
          content: [
            {
              type: 'sectionHeading',
              content: [
                text('Market', [{ type: 'bold' }]),
                { type: 'hardBreak' },
                text('size'),
                { type: 'paragraph', content: [text('and share')] },
              ],
            },
            {
              type: 'codeBlock',
              attrs: { nodeId: 'c' },
              content: [
                text('a', [{ type: 'code' }]),
                { type: 'hardBreak' },
                { type: 'paragraph', content: [text('b')] },
              ],
            },
          ],
        },
      ],
    });
    expect(doc).toEqual(
      documentOf(
        section(1, 'Market size and share', [
          {
            type: 'codeBlock',
            attrs: { language: null, nodeId: 'c' },
            content: [{ type: 'text', text: 'a\n\nb' }],
          },
        ]),
      ),
    );
    expect(report.droppedMarks).toBe(2);
  });

  it('M6c: loose text in a section becomes a paragraph, loose list items a bullet list', () => {
    const { doc, report } = normalized(
      withBlocks(text('loose'), { type: 'hardBreak' }, text('text'), {
        type: 'listItem',
        attrs: { nodeId: 'li' },
        content: [paragraph('p', [text('x')])],
      }),
    );
    expect(blocksOf(doc)).toEqual([
      paragraph(uuid(1001), [text('loose'), { type: 'hardBreak' }, text('text')]),
      {
        type: 'bulletList',
        attrs: { nodeId: uuid(1002) },
        content: [{ type: 'listItem', attrs: { nodeId: 'li' }, content: [paragraph('p', [text('x')])] }],
      },
    ]);
    expect(report.addedNodes).toBe(2);
  });

  it('M6c: a section and headings inside a quote give way to headings 3 and 4 and their content', () => {
    const { doc } = normalized(
      withBlocks({
        type: 'blockquote',
        attrs: { nodeId: 'q' },
        content: [
          section(7, 'Inner', [paragraph('p', [text('body')])], [subsection(8, 'Sub')]),
          { type: 'subsectionHeading', content: [] },
        ],
      }),
    );
    expect(blocksOf(doc)).toEqual([
      {
        type: 'blockquote',
        attrs: { nodeId: 'q' },
        content: [
          { type: 'heading', attrs: { level: 3, nodeId: uuid(1001) }, content: [text('Inner')] },
          paragraph('p', [text('body')]),
          { type: 'heading', attrs: { level: 4, nodeId: uuid(1002) }, content: [text('Sub')] },
        ],
      },
    ]);
  });

  it('M6d: an empty quote gets a paragraph, a list item gets a leading paragraph', () => {
    const { doc } = normalized(
      withBlocks(
        { type: 'blockquote', attrs: { nodeId: 'q' } },
        {
          type: 'orderedList',
          attrs: { nodeId: 'ol' },
          content: [
            {
              type: 'listItem',
              attrs: { nodeId: 'li' },
              content: [{ type: 'heading', attrs: { nodeId: 'h' }, content: [text('H')] }],
            },
          ],
        },
      ),
    );
    expect(blocksOf(doc)).toEqual([
      { type: 'blockquote', attrs: { nodeId: 'q' }, content: [paragraph(uuid(1001))] },
      {
        type: 'orderedList',
        attrs: { start: 1, type: null, nodeId: 'ol' },
        content: [
          {
            type: 'listItem',
            attrs: { nodeId: 'li' },
            content: [
              paragraph(uuid(1002)),
              { type: 'heading', attrs: { level: 3, nodeId: 'h' }, content: [text('H')] },
            ],
          },
        ],
      },
    ]);
  });

  it('M6d: in a list, a nested list without its item joins the item before; an empty list gets one item', () => {
    const inner = {
      type: 'bulletList',
      attrs: { nodeId: 'inner' },
      content: [{ type: 'listItem', attrs: { nodeId: 'li2' }, content: [paragraph('p2', [text('b')])] }],
    };
    const { doc } = normalized(
      withBlocks(
        {
          type: 'bulletList',
          attrs: { nodeId: 'outer' },
          content: [
            paragraph('p0', [text('first')]),
            { type: 'listItem', attrs: { nodeId: 'li1' }, content: [paragraph('p1', [text('a')])] },
            inner,
          ],
        },
        { type: 'bulletList', attrs: { nodeId: 'empty' }, content: [] },
      ),
    );
    expect(blocksOf(doc)).toEqual([
      {
        type: 'bulletList',
        attrs: { nodeId: 'outer' },
        content: [
          { type: 'listItem', attrs: { nodeId: uuid(1001) }, content: [paragraph('p0', [text('first')])] },
          { type: 'listItem', attrs: { nodeId: 'li1' }, content: [paragraph('p1', [text('a')]), inner] },
        ],
      },
      {
        type: 'bulletList',
        attrs: { nodeId: 'empty' },
        content: [{ type: 'listItem', attrs: { nodeId: uuid(1002) }, content: [paragraph(uuid(1003))] }],
      },
    ]);
  });
});

describe('the document level (M7)', () => {
  it.each([
    ['no content', { type: 'doc' }],
    ['content null', { type: 'doc', content: null }],
    ['an empty content list', { type: 'doc', content: [] }],
    ['only unknown nodes without children', { type: 'doc', content: [{ type: 'image' }] }],
  ])('M7: a document with %s gets one untitled section', (_label, input) => {
    const { doc, report } = normalized(input);
    expect(doc).toEqual({
      type: 'doc',
      content: [
        {
          type: 'section',
          attrs: { uuid: uuid(1001), blueprint_uuid: null, id: null, model: null },
          content: [{ type: 'sectionHeading', attrs: { level: 1 } }],
        },
      ],
    });
    expect(report.addedNodes).toBe(1);
    expect(outlineOf(doc).sections[0]?.displayTitle).toBe('Untitled Section');
  });

  it('M7: blocks before the first section go into a new untitled section; blocks after one join it', () => {
    const { doc } = normalized({
      type: 'doc',
      content: [
        paragraph('a', [text('intro')]),
        section(1, 'S', [paragraph('b')], [subsection(2, 'T')]),
        paragraph('c', [text('tail')]),
      ],
    });
    expect(doc).toEqual(
      documentOf(
        {
          ...section(0, '', [paragraph('a', [text('intro')])]),
          attrs: { uuid: uuid(1001), blueprint_uuid: null, id: null, model: null },
        },
        section(1, 'S', [paragraph('b')], [subsection(2, 'T', [paragraph('c', [text('tail')])])]),
      ),
    );
  });

  it('M7: a section or subsection without its heading gets an empty one', () => {
    const { doc, report } = normalized({
      type: 'doc',
      content: [
        {
          type: 'section',
          attrs: { uuid: uuid(1) },
          content: [
            paragraph('p'),
            { type: 'subsection', attrs: { uuid: uuid(2) }, content: [paragraph('q')] },
          ],
        },
      ],
    });
    expect(doc).toEqual(documentOf(section(1, '', [paragraph('p')], [subsection(2, '', [paragraph('q')])])));
    expect(report.addedNodes).toBe(2);
  });

  it('M7: a subsection heading before any section opens the untitled section and a subsection in it', () => {
    const { doc } = normalized({
      type: 'doc',
      content: [{ type: 'subsectionHeading', content: [text('First')] }, paragraph('p')],
    });
    const [first] = doc.content;
    expect(doc.content).toHaveLength(1);
    expect(first?.content.map((node) => node.type)).toEqual(['sectionHeading', 'subsection']);
    expect(JSON.stringify(first?.content[1])).toContain('"text":"First"');
    expect(JSON.stringify(first?.content[1])).toContain('"nodeId":"p"');
  });

  it('M7: a stray section heading starts a section, a stray subsection heading a subsection', () => {
    const { doc } = normalized(
      withBlocks(
        paragraph('p1'),
        { type: 'subsectionHeading', content: [text('Sub')] },
        paragraph('p2'),
        { type: 'sectionHeading', content: [text('Next')] },
        paragraph('p3'),
      ),
    );
    expect(doc).toEqual(
      documentOf(
        section(
          1,
          'S',
          [paragraph('p1')],
          [
            {
              ...subsection(0, 'Sub', [paragraph('p2')]),
              attrs: { uuid: uuid(1001), blueprint_uuid: null, finalized: false },
            },
          ],
        ),
        {
          ...section(0, 'Next', [paragraph('p3')]),
          attrs: { uuid: uuid(1002), blueprint_uuid: null, id: null, model: null },
        },
      ),
    );
  });

  it('M7: nested sections and subsections are lifted to their own level, in reading order', () => {
    const { doc } = normalized({
      type: 'doc',
      content: [
        {
          ...section(1, 'A', [paragraph('a')]),
          content: [
            ...section(1, 'A', [paragraph('a')]).content,
            section(2, 'B', [paragraph('b')]),
            paragraph('after-b'),
          ],
        },
        subsection(3, 'Loose', [paragraph('c')]),
      ],
    });
    expect(doc).toEqual(
      documentOf(
        section(1, 'A', [paragraph('a')]),
        section(2, 'B', [paragraph('b'), paragraph('after-b')], [subsection(3, 'Loose', [paragraph('c')])]),
      ),
    );
  });

  it('M7: a block after the subsections of a section goes to the last subsection', () => {
    const raw = section(1, 'S', [], [subsection(2, 'T', [paragraph('p')])]);
    const { doc } = normalized({
      type: 'doc',
      content: [{ ...raw, content: [...raw.content, paragraph('q')] }],
    });
    expect(doc).toEqual(
      documentOf(section(1, 'S', [], [subsection(2, 'T', [paragraph('p'), paragraph('q')])])),
    );
  });
});

describe('links (M8)', () => {
  const linked = (attrs: unknown) =>
    withBlocks({
      type: 'paragraph',
      attrs: { nodeId: 'p' },
      content: [{ type: 'text', text: 'click', marks: [{ type: 'link', attrs }] }],
    });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.cookie)',
    '  javascript:alert(1)',
    '\u0000\u0008javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'Custom-Scheme:x',
    'x--y:z',
    '',
  ])('M8: removes a link to %j and keeps its text', (href) => {
    const { doc, report } = normalized(linked({ href }));
    expect(blocksOf(doc)).toEqual([paragraph('p', [text('click')])]);
    expect(report.removedLinks).toBe(1);
  });

  it('M8: removes a link without an href or without attrs', () => {
    expect(blocksOf(normalized(linked({ title: 't' })).doc)).toEqual([paragraph('p', [text('click')])]);
    expect(blocksOf(normalized(linked(undefined)).doc)).toEqual([paragraph('p', [text('click')])]);
  });

  it.each([
    'https://example.com',
    'mailto:a@b.c',
    '/relative',
    '#anchor',
    'my-app:open',
    'HTTPS://EXAMPLE.COM',
  ])('M8: keeps a link to %j with default attributes', (href) => {
    const { doc } = normalized(linked({ href }));
    expect(blocksOf(doc)).toEqual([paragraph('p', [text('click', [link(href)])])]);
  });

  it('M8: resets a bad target, keeps rel and title, and always clears class', () => {
    const { doc, report } = normalized(
      linked({
        href: 'https://x.y',
        target: 'evil-frame',
        rel: 'noopener',
        class: 'fixed inset-0 z-50',
        title: 'T',
        extra: 1,
      }),
    );
    expect(blocksOf(doc)).toEqual([
      paragraph('p', [
        text('click', [
          {
            type: 'link',
            attrs: { href: 'https://x.y', target: '_blank', rel: 'noopener', class: null, title: 'T' },
          },
        ]),
      ]),
    ]);
    expect(report.fixedAttributes).toBe(2);
  });

  it('M8: keeps null target and rel, and the other frame targets', () => {
    const { doc } = normalized(linked({ href: 'https://x.y', target: null, rel: null }));
    expect(blocksOf(doc)).toEqual([
      paragraph('p', [
        text('click', [
          { type: 'link', attrs: { href: 'https://x.y', target: null, rel: null, class: null, title: null } },
        ]),
      ]),
    ]);
    const self = normalized(linked({ href: 'https://x.y', target: '_self' })).doc;
    expect(JSON.stringify(self)).toContain('"target":"_self"');
  });
});

describe('marks (M9)', () => {
  const marked = (...texts: unknown[]) =>
    withBlocks({ type: 'paragraph', attrs: { nodeId: 'p' }, content: texts });

  it('M9: drops unknown and repeated marks and sorts the rest in schema order', () => {
    const { doc, report } = normalized(
      marked({
        type: 'text',
        text: 'x',
        marks: [
          { type: 'italic' },
          { type: 'highlight' },
          { type: 'bold', attrs: { x: 1 } },
          { type: 'italic' },
          { type: 'link', attrs: { href: 'https://a.b' } },
        ],
      }),
    );
    expect(blocksOf(doc)).toEqual([
      paragraph('p', [text('x', [link('https://a.b'), { type: 'bold' }, { type: 'italic' }])]),
    ]);
    expect(report.droppedMarks).toBe(2);
  });

  it('M9: drops code when other marks are there (Tiptap’s code excludes them)', () => {
    const { doc } = normalized(
      marked({ type: 'text', text: 'x', marks: [{ type: 'code' }, { type: 'link', attrs: { href: '/a' } }] }),
    );
    expect(blocksOf(doc)).toEqual([paragraph('p', [text('x', [link('/a')])])]);
  });

  it('M9: removes empty texts and joins neighbours with the same marks', () => {
    const { doc, report } = normalized(
      marked(
        text('a'),
        text(''),
        text('b'),
        text('c', [{ type: 'bold' }]),
        { type: 'text', text: 'd', marks: [{ type: 'bold' }] },
        text('e'),
      ),
    );
    expect(blocksOf(doc)).toEqual([paragraph('p', [text('ab'), text('cd', [{ type: 'bold' }]), text('e')])]);
    expect(report.removedNodes).toBe(1);
  });

  it('M9: keeps marks on hard breaks', () => {
    const { doc } = normalized(marked(text('a'), { type: 'hardBreak', marks: [{ type: 'bold' }] }));
    expect(blocksOf(doc)).toEqual([
      paragraph('p', [text('a'), { type: 'hardBreak', marks: [{ type: 'bold' }] }]),
    ]);
  });
});

describe('attributes (M10)', () => {
  it.each([
    [1, 3],
    [2, 3],
    [3, 3],
    [4, 4],
    [5, 4],
    [6, 4],
    ['4', 3],
    [null, 3],
    [Number.NaN, 3],
  ])('M10: heading level %j becomes %j', (level, expected) => {
    const { doc } = normalized(
      withBlocks({ type: 'heading', attrs: { level, nodeId: 'h' }, content: [text('H')] }),
    );
    expect(blocksOf(doc)).toEqual([
      { type: 'heading', attrs: { level: expected, nodeId: 'h' }, content: [text('H')] },
    ]);
  });

  it.each([
    [0, 0],
    [8, 8],
    [9, 8],
    [-1, 0],
    [2.6, 3],
    ['3', 0],
    [null, 0],
    [Number.POSITIVE_INFINITY, 0],
  ])('M10: paragraph indent %j becomes %j', (indent, expected) => {
    const { doc } = normalized(withBlocks({ type: 'paragraph', attrs: { indent, nodeId: 'p' } }));
    expect(blocksOf(doc)).toEqual([paragraph('p', [], expected)]);
  });

  it('M10: fixes the other attributes and drops unknown ones', () => {
    const { doc, report } = normalized({
      type: 'doc',
      content: [
        {
          type: 'section',
          attrs: {
            uuid: uuid(0xabc).toUpperCase(),
            blueprint_uuid: 'not-a-uuid',
            id: { pk: 1 },
            model: 5,
            extra: 'x',
          },
          content: [
            { type: 'sectionHeading', attrs: { level: 3 }, content: [text('S')] },
            {
              type: 'orderedList',
              attrs: { start: 2.5, type: 'z', nodeId: 'ol' },
              content: [{ type: 'listItem', attrs: { nodeId: 'li' }, content: [paragraph('p')] }],
            },
            {
              type: 'orderedList',
              attrs: { start: 'x', type: 'I', nodeId: 'ol2' },
              content: [{ type: 'listItem', attrs: { nodeId: 'li2' }, content: [paragraph('p2')] }],
            },
            { type: 'codeBlock', attrs: { language: 'js" onmouseover="alert(1)', nodeId: 'c' } },
            { type: 'codeBlock', attrs: { language: 'c++', nodeId: 'c2' } },
            {
              type: 'subsection',
              attrs: { uuid: uuid(2), blueprint_uuid: uuid(0xdef).toUpperCase(), finalized: 'true' },
              content: [{ type: 'subsectionHeading', attrs: { level: 1 }, content: [text('T')] }],
            },
          ],
        },
      ],
    });
    expect(doc).toEqual(
      documentOf({
        type: 'section',
        attrs: { uuid: uuid(0xabc), blueprint_uuid: null, id: null, model: null },
        content: [
          { type: 'sectionHeading', attrs: { level: 1 }, content: [text('S')] },
          {
            type: 'orderedList',
            attrs: { start: 2, type: null, nodeId: 'ol' },
            content: [{ type: 'listItem', attrs: { nodeId: 'li' }, content: [paragraph('p')] }],
          },
          {
            type: 'orderedList',
            attrs: { start: 1, type: 'I', nodeId: 'ol2' },
            content: [{ type: 'listItem', attrs: { nodeId: 'li2' }, content: [paragraph('p2')] }],
          },
          { type: 'codeBlock', attrs: { language: null, nodeId: 'c' } },
          { type: 'codeBlock', attrs: { language: 'c++', nodeId: 'c2' } },
          {
            type: 'subsection',
            attrs: { uuid: uuid(2), blueprint_uuid: uuid(0xdef), finalized: false },
            content: [{ type: 'subsectionHeading', attrs: { level: 2 }, content: [text('T')] }],
          },
        ],
      }),
    );
    // uuid case, blueprint_uuid ×2, id, model, heading level ×2, start ×2, type, language, finalized
    expect(report.fixedAttributes).toBe(12);
    expect(report.assignedUuids).toBe(0);
  });
});

describe('ids (M11)', () => {
  it('M11: assigns missing and malformed ids; the first holder of a repeated id keeps it', () => {
    const { doc, report } = normalized({
      type: 'doc',
      content: [
        {
          type: 'section',
          attrs: { uuid: uuid(1) },
          content: [
            { type: 'sectionHeading' },
            { type: 'paragraph', attrs: { nodeId: 'dup' } },
            { type: 'paragraph' },
          ],
        },
        {
          type: 'section',
          attrs: { uuid: uuid(1) },
          content: [
            { type: 'sectionHeading' },
            { type: 'paragraph', attrs: { nodeId: 'dup' } },
            { type: 'paragraph', attrs: { nodeId: 'has spaces' } },
            { type: 'subsection', attrs: { uuid: 'sub-1' }, content: [{ type: 'subsectionHeading' }] },
          ],
        },
      ],
    });
    expect(doc).toEqual(
      documentOf(section(1, '', [paragraph('dup'), paragraph(uuid(1003))]), {
        ...section(
          0,
          '',
          [paragraph(uuid(1004)), paragraph(uuid(1005))],
          [{ ...subsection(0, ''), attrs: { uuid: uuid(1002), blueprint_uuid: null, finalized: false } }],
        ),
        attrs: { uuid: uuid(1001), blueprint_uuid: null, id: null, model: null },
      }),
    );
    expect(report.assignedUuids).toBe(2);
    expect(report.assignedNodeIds).toBe(3);
    const ids = JSON.stringify(doc).match(/"nodeId":"[^"]+"/g) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('M11: a generated id never takes the place of one already in the document', () => {
    // The first id the counter makes is uuid(1001), which the second section already holds.
    const { doc } = normalized({
      type: 'doc',
      content: [{ type: 'section', content: [{ type: 'sectionHeading' }] }, section(1001, 'Taken')],
    });
    expect(doc.content[1]?.attrs.uuid).toBe(uuid(1001));
    expect(doc.content[0]?.attrs.uuid).toBe(uuid(1002));
  });

  it('M11: a section uuid and a subsection uuid may not be the same', () => {
    const { doc } = normalized(documentOf(section(1, 'S', [], [subsection(1, 'T')])));
    const sub = doc.content[0]?.content[1] as { attrs: { uuid: string } };
    expect(sub.attrs.uuid).toBe(uuid(1001));
  });

  it('M11: a generator that keeps failing is a programming error and throws', () => {
    expect(() => normalizeDocument({ type: 'doc' }, { generateId: () => 'not-a-uuid' })).toThrow(TypeError);
    // Always the same id: enough for one new section, not for two.
    expect(normalizeDocument({ type: 'doc' }, { generateId: () => uuid(1) }).ok).toBe(true);
    expect(() =>
      normalizeDocument(
        { type: 'doc', content: [section(1, 'A'), { type: 'section' }] },
        { generateId: () => uuid(1) },
      ),
    ).toThrow(/generateId/);
  });

  describe('the default generator', () => {
    afterEach(() => {
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    });

    it('M11: falls back to getRandomValues where randomUUID is missing (browsers on insecure origins)', () => {
      const { crypto } = globalThis;
      vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
      const result = normalizeDocument({ type: 'doc', content: [{ type: 'section' }, { type: 'section' }] });
      const [a, b] = result.ok ? result.doc.content.map((s) => s.attrs.uuid) : [];
      expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(b).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(a).not.toBe(b);
    });

    it('M11: calls crypto.randomUUID when needed, looked up at the call', () => {
      const spy = vi
        .spyOn(globalThis.crypto, 'randomUUID')
        .mockReturnValueOnce(uuid(77) as `${string}-${string}-${string}-${string}-${string}`);
      const result = normalizeDocument({ type: 'doc' });
      expect(result.ok && result.doc.content[0]?.attrs.uuid).toBe(uuid(77));
      expect(spy).toHaveBeenCalledTimes(1);
    });
  });
});

describe('hostile text (corpus)', () => {
  const strings = (JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[]).filter(
    (value) => value !== '',
  );

  it('keeps every BLNS string exactly, as text and as a title', () => {
    const input = documentOf(
      ...strings.map((value, i) => section(i + 1, value, [paragraph(`p${i}`, [text(value)])])),
    );
    const { doc, report } = normalized(input);
    expect(doc).toEqual(input);
    expect(report).toEqual(zeroReport);
    expect(outlineOf(doc).sections.map((s) => s.title)).toEqual(strings.map((value) => value.trim()));
  });

  it('keeps hostile strings used as hrefs only when they are allowed, never their text lost', () => {
    const input = withBlocks(
      ...strings.map((value, i) => ({
        type: 'paragraph',
        attrs: { nodeId: `p${i}` },
        content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: value } }] }],
      })),
    );
    const { doc } = normalized(input);
    expect(blocksOf(doc)).toHaveLength(strings.length);
    for (const block of blocksOf(doc)) expect(block).toMatchObject({ content: [{ text: 'x' }] });
  });
});
