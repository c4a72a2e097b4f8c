import {
  type BlockJson,
  type DocumentJson,
  DocumentStructureError,
  deleteSection,
  deleteSubsection,
  type InlineJson,
  insertSectionAfter,
  insertSubsection,
  type MarkJson,
  moveSection,
  moveSectionTo,
  moveSubsection,
  moveSubsectionTo,
  normalizeDocument,
  outlineOf,
  type ParagraphJson,
  progressOf,
  renameSection,
  renameSubsection,
  replaceSectionContent,
  type SectionJson,
  type StructureResult,
  type SubsectionJson,
  setSubsectionFinalized,
} from '@planwright/sdk/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedJson, countingIds, uuid } from '../support/model-documents.js';

const RUNS = 1000;

// ── Valid documents ─────────────────────────────────────────────────────────────────────────────

const hrefs = ['https://example.com/a?b=c', '/relative', '#anchor', 'mailto:ada@example.com', 'my-app:open'];

const textArb = fc
  .record({
    text: fc.string({ minLength: 1, maxLength: 6, unit: 'binary' }),
    marks: fc.subarray(['bold', 'italic', 'underline', 'strike'] as const),
    href: fc.option(fc.constantFrom(...hrefs), { nil: undefined }),
    code: fc.boolean(),
  })
  .map(({ text, marks, href, code }): InlineJson => {
    const list: MarkJson[] = [];
    if (href !== undefined) {
      list.push({
        type: 'link',
        attrs: { href, target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null },
      });
    }
    for (const type of marks) list.push({ type });
    // Code excludes every other mark, so it only ever comes alone.
    const all = list.length === 0 && code ? [{ type: 'code' as const }] : list;
    return all.length === 0 ? { type: 'text', text } : { type: 'text', text, marks: all };
  });

const inlineArb = fc.oneof(
  { weight: 5, arbitrary: textArb },
  { weight: 1, arbitrary: fc.constant<InlineJson>({ type: 'hardBreak' }) },
);

/** Neighbouring texts with the same marks are one text in canonical JSON. */
function joined(inline: InlineJson[]): InlineJson[] {
  const out: InlineJson[] = [];
  for (const node of inline) {
    const last = out[out.length - 1];
    if (
      node.type === 'text' &&
      last?.type === 'text' &&
      JSON.stringify(last.marks) === JSON.stringify(node.marks)
    ) {
      out[out.length - 1] = { ...last, text: last.text + node.text };
    } else {
      out.push(node);
    }
  }
  return out;
}

const ID = 'to-be-assigned';

const paragraphArb = fc
  .record({ inline: fc.array(inlineArb, { maxLength: 4 }), indent: fc.integer({ min: 0, max: 8 }) })
  .map(({ inline, indent }): ParagraphJson => {
    const content = joined(inline);
    return content.length === 0
      ? { type: 'paragraph', attrs: { indent, nodeId: ID } }
      : { type: 'paragraph', attrs: { indent, nodeId: ID }, content };
  });

const leafBlockArb: fc.Arbitrary<BlockJson> = fc.oneof(
  paragraphArb,
  fc
    .record({ level: fc.constantFrom(3 as const, 4 as const), inline: fc.array(inlineArb, { maxLength: 3 }) })
    .map(({ level, inline }): BlockJson => {
      const content = joined(inline);
      return content.length === 0
        ? { type: 'heading', attrs: { level, nodeId: ID } }
        : { type: 'heading', attrs: { level, nodeId: ID }, content };
    }),
  fc
    .record({ code: fc.string({ maxLength: 10 }), language: fc.constantFrom(null, 'ts', 'c++') })
    .map(
      ({ code, language }): BlockJson =>
        code === ''
          ? { type: 'codeBlock', attrs: { language, nodeId: ID } }
          : { type: 'codeBlock', attrs: { language, nodeId: ID }, content: [{ type: 'text', text: code }] },
    ),
  fc.constant<BlockJson>({ type: 'horizontalRule' }),
);

const { block: blockArb } = fc.letrec<{ block: BlockJson; listItem: BlockJson }>((tie) => ({
  block: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'block' },
    leafBlockArb,
    fc
      .array(tie('block'), { minLength: 1, maxLength: 2 })
      .map((content): BlockJson => ({ type: 'blockquote', attrs: { nodeId: ID }, content })),
    fc
      .array(tie('listItem'), { minLength: 1, maxLength: 2 })
      .map(
        (content): BlockJson => ({ type: 'bulletList', attrs: { nodeId: ID }, content: content as never }),
      ),
    fc
      .tuple(
        fc.array(tie('listItem'), { minLength: 1, maxLength: 2 }),
        fc.integer({ min: -3, max: 20 }),
        fc.constantFrom(null, '1', 'a', 'I'),
      )
      .map(
        ([content, start, type]): BlockJson => ({
          type: 'orderedList',
          attrs: { start, type, nodeId: ID },
          content: content as never,
        }),
      ),
  ),
  listItem: fc
    .tuple(paragraphArb, fc.array(tie('block'), { maxLength: 1 }))
    .map(
      ([first, rest]) => ({ type: 'listItem', attrs: { nodeId: ID }, content: [first, ...rest] }) as never,
    ),
}));

const titleArb = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(' Market ', '<b>x</b>', '‮RTL', '🙂'),
);

const subsectionArb = fc.record({
  title: titleArb,
  blocks: fc.array(blockArb, { maxLength: 2, size: '-1' }),
  finalized: fc.boolean(),
  blueprint: fc.boolean(),
});

const sectionArb = fc.record({
  title: titleArb,
  blocks: fc.array(blockArb, { maxLength: 2, size: '-1' }),
  subsections: fc.array(subsectionArb, { maxLength: 3 }),
  blueprint: fc.boolean(),
});

function heading<T extends 'sectionHeading' | 'subsectionHeading'>(type: T, title: string) {
  const level = type === 'sectionHeading' ? 1 : 2;
  return title === ''
    ? { type, attrs: { level } }
    : { type, attrs: { level }, content: [{ type: 'text', text: title }] };
}

/** Gives every block a unique nodeId and every section and subsection a unique uuid from `base` on. */
function withIds(sections: SectionInput[], base: number): DocumentJson {
  let next = base;
  const fill = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fill);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value))
      copy[key] = key === 'nodeId' ? `n${next++}` : fill(child);
    return copy;
  };
  return {
    type: 'doc',
    content: sections.map((s): SectionJson => {
      next += 1;
      const sectionUuid = uuid(next);
      return {
        type: 'section',
        attrs: {
          uuid: sectionUuid,
          blueprint_uuid: s.blueprint ? uuid(next + 500_000) : null,
          id: null,
          model: null,
        },
        content: [
          heading('sectionHeading', s.title) as SectionJson['content'][0],
          ...(fill(s.blocks) as BlockJson[]),
          ...s.subsections.map((sub): SubsectionJson => {
            next += 1;
            return {
              type: 'subsection',
              attrs: {
                uuid: uuid(next),
                blueprint_uuid: sub.blueprint ? uuid(next + 500_000) : null,
                finalized: sub.finalized,
              },
              content: [
                heading('subsectionHeading', sub.title) as SubsectionJson['content'][0],
                ...(fill(sub.blocks) as BlockJson[]),
              ],
            };
          }),
        ],
      };
    }),
  };
}

type SectionInput = typeof sectionArb extends fc.Arbitrary<infer T> ? T : never;

const sectionsArb = fc.array(sectionArb, { minLength: 1, maxLength: 3 });
const documentArb = sectionsArb.map((sections) => withIds(sections, 0));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Normalising changes nothing, and the schema loads the tree back to the same JSON (M3, M30). */
function expectNormalised(doc: DocumentJson): void {
  const result = normalizeDocument(doc, { generateId: countingIds(900_000) });
  expect(result.ok && result.report.changed).toBe(false);
  expect(result.ok && result.doc).toEqual(doc);
  expect(checkedJson(doc)).toEqual(doc);
}

// ── Commands ─────────────────────────────────────────────────────────────────────────────────────

const commandArb = fc.record({
  kind: fc.constantFrom(
    'insertSectionAfter',
    'insertSubsection',
    'renameSection',
    'renameSubsection',
    'moveSection',
    'moveSubsection',
    'moveSectionTo',
    'moveSubsectionTo',
    'deleteSection',
    'deleteSubsection',
    'setSubsectionFinalized',
    'replaceSectionContent',
  ),
  pick: fc.nat(),
  pickAnchor: fc.option(fc.nat(), { nil: null }),
  order: fc.integer({ min: -2, max: 8 }),
  direction: fc.constantFrom('up' as const, 'down' as const),
  title: titleArb,
  finalized: fc.boolean(),
  replacement: sectionArb,
  // One command in ten names a uuid the document does not have.
  unknown: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

type CommandInput = typeof commandArb extends fc.Arbitrary<infer T> ? T : never;

function run(doc: DocumentJson, command: CommandInput): StructureResult {
  const outline = outlineOf(doc);
  const sectionUuids = outline.sections.map((s) => s.uuid);
  const subsectionUuids = outline.sections.flatMap((s) => s.subsections.map((sub) => sub.uuid));
  const missing = uuid(999_999);
  const pick = (list: string[], n: number) =>
    command.unknown || list.length === 0 ? missing : (list[n % list.length] as string);
  const sectionUuid = pick(sectionUuids, command.pick);
  const subsectionUuid = pick(subsectionUuids, command.pick);
  const generateId = countingIds(700_000);
  switch (command.kind) {
    case 'insertSectionAfter':
      return insertSectionAfter(doc, command.pickAnchor === null ? null : sectionUuid, {
        title: command.title,
        generateId,
      });
    case 'insertSubsection':
      return insertSubsection(doc, sectionUuid, {
        title: command.title,
        generateId,
        ...(command.pickAnchor === null ? {} : { order: command.order }),
      });
    case 'renameSection':
      return renameSection(doc, sectionUuid, command.title);
    case 'renameSubsection':
      return renameSubsection(doc, subsectionUuid, command.title);
    case 'moveSection':
      return moveSection(doc, sectionUuid, command.direction);
    case 'moveSubsection':
      return moveSubsection(doc, subsectionUuid, command.direction);
    case 'moveSectionTo':
      return moveSectionTo(doc, sectionUuid, command.order);
    case 'moveSubsectionTo':
      return moveSubsectionTo(doc, subsectionUuid, command.order);
    case 'deleteSection':
      return deleteSection(doc, sectionUuid);
    case 'deleteSubsection':
      return deleteSubsection(doc, subsectionUuid);
    case 'setSubsectionFinalized':
      return setSubsectionFinalized(doc, subsectionUuid, command.finalized);
    default: {
      // Subsection uuids far from the document's; block ids from the same counter, so some clash (M38).
      const replacement = withIds([command.replacement], 300_000).content[0] as SectionJson;
      const node = { ...replacement, attrs: { ...replacement.attrs, uuid: sectionUuid } };
      return replaceSectionContent(doc, sectionUuid, node, { generateId });
    }
  }
}

describe('properties of the model', () => {
  it('M3: a valid document is normalised already and round-trips through the schema', () => {
    fc.assert(
      fc.property(documentArb, (doc) => {
        expectNormalised(doc);
      }),
      { numRuns: RUNS },
    );
  });

  it('M30: every command on a valid document gives a normalised document and leaves the input alone', () => {
    fc.assert(
      fc.property(documentArb, commandArb, (doc, command) => {
        const frozen = deepFreeze(doc);
        const before = JSON.stringify(frozen);
        const result = run(frozen, command);
        expect(JSON.stringify(frozen)).toBe(before);
        if (result.ok) {
          expectNormalised(result.doc);
          if (!result.changed) expect(result.doc).toBe(frozen);
        } else {
          expect(['not_found', 'last_section', 'duplicate_uuid', 'invalid_order']).toContain(result.reason);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('M34: moving a section up then down (away from the edges) gives back the document', () => {
    fc.assert(
      fc.property(
        documentArb.filter((doc) => doc.content.length >= 2),
        fc.nat(),
        (doc, n) => {
          const index = 1 + (n % (doc.content.length - 1));
          const id = doc.content[index]?.attrs.uuid as string;
          const up = moveSection(doc, id, 'up');
          const back = up.ok ? moveSection(up.doc, id, 'down') : up;
          expect(up.ok && up.changed).toBe(true);
          expect(back.ok && back.doc).toEqual(doc);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('M34: moving a subsection down then up (away from the edges) gives back the document', () => {
    const withTwo = documentArb.filter((doc) =>
      outlineOf(doc).sections.some((s) => s.subsections.length >= 2),
    );
    fc.assert(
      fc.property(withTwo, fc.nat(), (doc, n) => {
        const section = outlineOf(doc).sections.find((s) => s.subsections.length >= 2);
        const subs = section?.subsections ?? [];
        const id = subs[n % (subs.length - 1)]?.uuid as string;
        const down = moveSubsection(doc, id, 'down');
        const back = down.ok ? moveSubsection(down.doc, id, 'up') : down;
        expect(down.ok && down.changed).toBe(true);
        expect(back.ok && back.doc).toEqual(doc);
      }),
      { numRuns: RUNS },
    );
  });

  it('M35: moveSectionTo and back to the old order gives back the document', () => {
    fc.assert(
      fc.property(documentArb, fc.nat(), fc.integer({ min: -3, max: 10 }), (doc, n, order) => {
        const index = n % doc.content.length;
        const id = doc.content[index]?.attrs.uuid as string;
        const moved = moveSectionTo(doc, id, order);
        expect(moved.ok).toBe(true);
        if (!moved.ok) return;
        const at = outlineOf(moved.doc).sections.findIndex((s) => s.uuid === id) + 1;
        expect(at).toBe(Math.min(Math.max(order, 1), doc.content.length));
        const back = moveSectionTo(moved.doc, id, index + 1);
        expect(back.ok && back.doc).toEqual(doc);
      }),
      { numRuns: RUNS },
    );
  });

  it('M35: moveSubsectionTo and back to the old order gives back the document', () => {
    const withSubsections = documentArb.filter((doc) =>
      outlineOf(doc).sections.some((s) => s.subsections.length > 0),
    );
    fc.assert(
      fc.property(withSubsections, fc.nat(), fc.integer({ min: -3, max: 10 }), (doc, n, order) => {
        const subs = outlineOf(doc).sections.flatMap((s) => s.subsections);
        const sub = subs[n % subs.length];
        const id = sub?.uuid as string;
        const moved = moveSubsectionTo(doc, id, order);
        const back = moved.ok ? moveSubsectionTo(moved.doc, id, sub?.order as number) : moved;
        expect(back.ok && back.doc).toEqual(doc);
      }),
      { numRuns: RUNS },
    );
  });

  it('M23: progress stays within 0–100 and is the count formula', () => {
    fc.assert(
      fc.property(sectionsArb, (sections) => {
        const doc = withIds(sections, 0);
        const subsections = sections.flatMap((s) => s.subsections);
        const finalized = subsections.filter((s) => s.finalized).length;
        const total = subsections.length;
        const progress = progressOf(doc);
        expect(progress).toEqual({
          finalized,
          total,
          percent: total === 0 ? 0 : Math.round((finalized / total) * 100),
        });
        expect(progress.percent).toBeGreaterThanOrEqual(0);
        expect(progress.percent).toBeLessThanOrEqual(100);
        expect(Number.isInteger(progress.percent)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

// ── Arbitrary input ──────────────────────────────────────────────────────────────────────────────

const nodeTypes = [
  'doc',
  'section',
  'subsection',
  'sectionHeading',
  'subsectionHeading',
  'paragraph',
  'heading',
  'text',
  'bulletList',
  'orderedList',
  'listItem',
  'blockquote',
  'codeBlock',
  'horizontalRule',
  'hardBreak',
  'table',
  'image',
];
const attrNames = [
  'uuid',
  'blueprint_uuid',
  'nodeId',
  'level',
  'indent',
  'finalized',
  'start',
  'type',
  'language',
  'id',
  'model',
];
const attrValues = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(uuid(1), uuid(2), uuid(3).toUpperCase(), 'n1', 'n2', 3, 4, 9, -1, true, 'true'),
);
const markArb = fc.record(
  {
    type: fc.constantFrom('bold', 'italic', 'underline', 'strike', 'code', 'link', 'highlight'),
    attrs: fc.record(
      {
        href: fc.oneof(
          fc.constantFrom(...hrefs, 'javascript:alert(1)', ' JAVASCRIPT:x', 'data:x'),
          fc.string(),
        ),
        target: fc.jsonValue({ maxDepth: 0 }),
        class: fc.string(),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['type'] },
);

/** Nodes that look like the real thing but with everything shuffled: known and unknown types, odd attributes. */
const { node: fuzzyNodeArb } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.record(
    {
      type: fc.constantFrom(...nodeTypes),
      attrs: fc.dictionary(fc.constantFrom(...attrNames), attrValues, { maxKeys: 3 }),
      content: fc.array(tie('node'), { maxLength: 3, depthIdentifier: 'fuzzy' }),
      text: fc.string({ maxLength: 4 }),
      marks: fc.array(markArb, { maxLength: 3 }),
    },
    { requiredKeys: ['type'] },
  ),
}));

const fuzzyDocumentArb = fc.record({
  type: fc.constant('doc'),
  content: fc.array(fuzzyNodeArb, { maxLength: 4 }),
});

describe('normalisation of arbitrary input', () => {
  it('M3: never throws on arbitrary JSON, and refuses with a DocumentStructureError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fuzzyDocumentArb), (input) => {
        const result = normalizeDocument(input, { generateId: countingIds() });
        if (!result.ok) expect(DocumentStructureError.isInstance(result.error)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('M3: is idempotent and its output always loads in the schema', () => {
    fc.assert(
      fc.property(fuzzyDocumentArb, (input) => {
        const first = normalizeDocument(input, { generateId: countingIds() });
        if (!first.ok) return;
        expect(checkedJson(first.doc)).toEqual(first.doc);
        const second = normalizeDocument(first.doc, { generateId: countingIds(800_000) });
        expect(second.ok && second.doc).toEqual(first.doc);
        expect(second.ok && second.report.changed).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
