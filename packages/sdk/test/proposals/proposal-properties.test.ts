import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { applyProposal, revertProposal } from '@planwright/sdk/proposals';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedJson, countingIds, uuid } from '../support/model-documents.js';

const RUNS = 1000;

const words = fc.constantFrom('alpha', 'beta', 'gamma', 'délta', '🙂', '*x*', '[l](javascript:x)');
const blockArb = fc.oneof(
  words.map((word) => ({ type: 'paragraph', content: [{ type: 'text', text: word }] })),
  fc.record({ level: fc.constantFrom(3, 4), word: words }).map(({ level, word }) => ({
    type: 'heading',
    attrs: { level },
    content: [{ type: 'text', text: word }],
  })),
  words.map((word) => ({
    type: 'bulletList',
    content: [
      { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: word }] }] },
    ],
  })),
  words.map((word) => ({
    type: 'blockquote',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: word }] }],
  })),
  fc.constant({ type: 'horizontalRule' }),
);

/** Random valid documents: 1–3 sections, each with blocks and 0–3 subsections, some finalized. */
const documentArb = fc
  .array(
    fc.record({
      blocks: fc.array(blockArb, { maxLength: 3 }),
      subsections: fc.array(
        fc.record({ blocks: fc.array(blockArb, { maxLength: 4 }), finalized: fc.boolean() }),
        {
          maxLength: 3,
        },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((sections): DocumentJson => {
    let next = 0;
    const nextUuid = (): string => {
      next += 1;
      return uuid(next);
    };
    const tree = {
      type: 'doc',
      content: sections.map((section) => ({
        type: 'section',
        attrs: { uuid: nextUuid() },
        content: [
          { type: 'sectionHeading', content: [{ type: 'text', text: `S${next}` }] },
          ...section.blocks,
          ...section.subsections.map((sub) => ({
            type: 'subsection',
            attrs: { uuid: nextUuid(), finalized: sub.finalized },
            content: [
              { type: 'subsectionHeading', content: [{ type: 'text', text: `T${next}` }] },
              ...sub.blocks,
            ],
          })),
        ],
      })),
    };
    const result = normalizeDocument(tree, { generateId: countingIds(100) });
    if (!result.ok) throw new Error(result.error.message);
    return result.doc;
  });

/** Every id in the document (uuids and nodeIds), for picking real targets. */
function idsOf(doc: DocumentJson): string[] {
  const ids: string[] = [];
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop() as { attrs?: { uuid?: unknown; nodeId?: unknown }; content?: unknown[] };
    if (typeof node.attrs?.uuid === 'string') ids.push(node.attrs.uuid);
    if (typeof node.attrs?.nodeId === 'string') ids.push(node.attrs.nodeId);
    if (Array.isArray(node.content)) stack.push(...node.content);
  }
  return ids;
}

const contentArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      format: fc.constant('markdown'),
      content: fc.constantFrom('New text', '### Head\n\npara', '- a\n- b'),
    }),
  },
  fc.record({
    format: fc.constant('markdown'),
    content: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('# A\n\n##### b\n\n- x', '> q\n\n[j](javascript:1)'),
    ),
  }),
  {
    weight: 3,
    arbitrary: fc.record({
      format: fc.constant('tiptap_json'),
      tiptapNodes: fc.array(blockArb, { minLength: 1, maxLength: 3 }),
    }),
  },
  fc.record({
    format: fc.constant('tiptap_json'),
    tiptapNodes: fc.array(fc.oneof(blockArb, fc.anything({ maxDepth: 2 })), { maxLength: 3 }),
  }),
  fc.record({ format: fc.constant('tiptap_json'), doc: fc.anything({ maxDepth: 3 }) }),
);

/** A target: an id from the document (by index), or garbage. */
const targetArb = fc.oneof({ weight: 6, arbitrary: fc.nat() }, fc.constantFrom('nope', uuid(999), ''));

const proposalArb = fc.oneof(
  fc.record({
    tool: fc.constant('propose_full_subsection'),
    target: targetArb,
    content: contentArb,
    title: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
  }),
  fc.record({
    tool: fc.constant('propose_partial_edits'),
    edits: fc.array(
      fc.record({
        target: targetArb,
        mode: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete') },
          fc.constant('bogus'),
        ),
        content: contentArb,
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

function resolve(target: number | string, ids: string[]): string {
  return typeof target === 'number' ? (ids[target % Math.max(ids.length, 1)] ?? 'none') : target;
}

const REASONS = [
  'unknown_tool',
  'invalid_payload',
  'invalid_document',
  'target_not_found',
  'subsection_finalized',
  'invalid_content',
  'empty_content',
];

describe('proposal application properties (P40)', () => {
  it(`P40 random documents × random proposals: a valid document or a typed failure; revert restores (${RUNS} runs)`, () => {
    let applied = 0;
    fc.assert(
      fc.property(
        documentArb,
        proposalArb,
        fc.boolean(),
        fc.array(fc.boolean(), { maxLength: 4 }),
        (doc, raw, allowFinalized, accepted) => {
          const ids = idsOf(doc);
          const before = structuredClone(doc);
          const payload =
            raw.tool === 'propose_full_subsection'
              ? { subsection_uuid: resolve(raw.target, ids), title: raw.title, ...raw.content }
              : {
                  edits: raw.edits.map((edit) => ({
                    targetNodeId: resolve(edit.target, ids),
                    mode: edit.mode,
                    ...edit.content,
                  })),
                };
          const result = applyProposal(doc, raw.tool, payload, {
            generateId: countingIds(50_000),
            allowFinalized,
            accept: (_edit, index) => accepted[index] ?? true,
          });
          // The input is never changed.
          expect(doc).toEqual(before);
          if (!result.ok) {
            expect(REASONS).toContain(result.reason);
            expect(typeof result.message).toBe('string');
            return;
          }
          applied += 1;
          // A valid, normalised document.
          expect(checkedJson(result.document)).toEqual(result.document);
          const again = normalizeDocument(result.document);
          expect(again.ok && again.report.changed).toBe(false);
          // Finalized subsections are untouched unless allowed.
          if (!allowFinalized) {
            for (const section of doc.content) {
              for (const child of section.content) {
                if (child.type !== 'subsection' || !child.attrs.finalized) continue;
                expect(JSON.stringify(result.document)).toContain(JSON.stringify(child));
              }
            }
          }
          // Applying then inverting restores the original exactly, ids included.
          const reverted = revertProposal(result.document, result.inverse);
          expect(reverted).toMatchObject({ ok: true });
          expect(reverted.ok && reverted.document).toEqual(doc);
        },
      ),
      { numRuns: RUNS },
    );
    // The generator must reach real applications, not only refusals.
    expect(applied).toBeGreaterThan(RUNS / 5);
  });
});
