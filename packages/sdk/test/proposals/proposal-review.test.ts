import { parseHtmlInNode } from '@planwright/sdk/formats/node';
import {
  applyPartialEdits,
  MAX_WORD_DIFF_LENGTH,
  parseProposal,
  reviewProposal,
  wordDiff,
} from '@planwright/sdk/proposals';
import { describe, expect, it } from 'vitest';
import {
  countingIds,
  documentOf,
  paragraph,
  section,
  specDocument,
  subsection,
  text,
  uuid,
} from '../support/model-documents.js';

const options = { generateId: countingIds(7000), parseHtml: parseHtmlInNode };

function reviewDocument() {
  return documentOf(
    section(
      1,
      'Plan',
      [paragraph('p-0', [text('Section body.')])],
      [
        subsection(2, 'Goals', [
          paragraph('p-1', [text('We sell bread.')]),
          paragraph('p-2', [text('Daily.')]),
        ]),
        subsection(3, 'Done', [paragraph('p-3', [text('Final words.')])], true),
      ],
    ),
  );
}

function joined(parts: readonly { kind: string; text: string }[], without: string): string {
  return parts
    .filter((part) => part.kind !== without)
    .map((part) => part.text)
    .join('');
}

describe('wordDiff (P51)', () => {
  it('P51 marks changed words and rebuilds both sides', () => {
    const parts = wordDiff('We sell bread daily.', 'We sell fresh bread weekly.');
    expect(joined(parts, 'insert')).toBe('We sell bread daily.');
    expect(joined(parts, 'delete')).toBe('We sell fresh bread weekly.');
    expect(parts).toContainEqual({ kind: 'insert', text: 'fresh ' });
    for (let index = 1; index < parts.length; index += 1) {
      expect(parts[index]?.kind).not.toBe(parts[index - 1]?.kind);
    }
  });

  it('P51 equal and empty inputs', () => {
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('same', 'same')).toEqual([{ kind: 'equal', text: 'same' }]);
    expect(wordDiff('', 'new')).toEqual([{ kind: 'insert', text: 'new' }]);
    expect(wordDiff('old', '')).toEqual([{ kind: 'delete', text: 'old' }]);
  });

  it('P51 huge inputs degrade to delete-all/insert-all', () => {
    const before = 'a '.repeat(MAX_WORD_DIFF_LENGTH / 2);
    const after = 'b '.repeat(10);
    expect(wordDiff(before, after)).toEqual([
      { kind: 'delete', text: before },
      { kind: 'insert', text: after },
    ]);
  });

  it('P51 very different inputs below the size limit finish quickly with both sides intact', () => {
    const before = Array.from({ length: 8_000 }, (_, index) => `w${index}`).join(' ');
    const after = Array.from({ length: 8_000 }, (_, index) => `v${index}`).join(' ');
    const parts = wordDiff(before, after);
    expect(joined(parts, 'insert')).toBe(before);
    expect(joined(parts, 'delete')).toBe(after);
  });
});

describe('reviewProposal (P50–P55)', () => {
  it('P50 an unknown tool or a malformed payload is a typed failure', () => {
    expect(reviewProposal(reviewDocument(), 'rm_rf', {})).toMatchObject({
      ok: false,
      reason: 'unknown_tool',
    });
    expect(reviewProposal(reviewDocument(), 'propose_partial_edits', { edits: 'x' })).toMatchObject({
      ok: false,
      reason: 'invalid_payload',
    });
  });

  it('P52 a full subsection: body Markdown before and after, titles, rename and diff', () => {
    const review = reviewProposal(
      reviewDocument(),
      'propose_full_subsection',
      {
        subsection_uuid: uuid(2),
        title: 'Aims',
        format: 'markdown',
        content: 'We sell fresh bread.\n\n# Plan',
      },
      options,
    );
    expect(review).toMatchObject({ ok: true, toolName: 'propose_full_subsection', applicable: true });
    if (!review.ok) return;
    expect(review.items).toHaveLength(1);
    expect(review.items[0]).toMatchObject({
      editIndex: 0,
      kind: 'replace_subsection',
      sectionUuid: uuid(1),
      sectionTitle: 'Plan',
      subsectionUuid: uuid(2),
      subsectionTitle: 'Goals',
      reason: null,
      renamedTo: 'Aims',
      before: 'We sell bread.\n\nDaily.',
      after: 'We sell fresh bread.\n\n### Plan',
      problem: null,
    });
    expect(review.items[0]?.diff).toContainEqual({ kind: 'insert', text: 'fresh ' });
  });

  it('P52 the same title is no rename', () => {
    const review = reviewProposal(reviewDocument(), 'propose_full_subsection', {
      subsection_uuid: uuid(2),
      title: ' Goals ',
      content: 'x',
    });
    expect(review.ok && review.items[0]?.renamedTo).toBeNull();
  });

  it('P53 partial edits: one item per edit with its target block, reason and Markdown', () => {
    const review = reviewProposal(
      reviewDocument(),
      'propose_partial_edits',
      {
        edits: [
          { targetNodeId: 'p-1', mode: 'replace', content: 'We sell **fresh** bread.', reason: 'Clearer' },
          { targetNodeId: 'p-2', mode: 'delete' },
          { targetNodeId: 'p-0', mode: 'insert_after', content: 'More.' },
        ],
      },
      options,
    );
    expect(review).toMatchObject({ ok: true, toolName: 'propose_partial_edits', applicable: true });
    if (!review.ok) return;
    expect(review.items.map((item) => [item.kind, item.before, item.after])).toEqual([
      ['replace', 'We sell bread.', 'We sell **fresh** bread.'],
      ['delete', 'Daily.', ''],
      ['insert_after', '', 'More.'],
    ]);
    expect(review.items[0]).toMatchObject({ reason: 'Clearer', subsectionTitle: 'Goals', renamedTo: null });
    expect(review.items[2]).toMatchObject({
      sectionUuid: uuid(1),
      subsectionUuid: null,
      subsectionTitle: null,
    });
    expect(review.items[1]?.diff).toEqual([{ kind: 'delete', text: 'Daily.' }]);
  });

  it('P53 an edit reads the document the edits before it leave: it may target a block an earlier one inserted', () => {
    const inserted = {
      type: 'paragraph',
      attrs: { nodeId: 'fresh-1' },
      content: [{ type: 'text', text: 'New.' }],
    };
    const review = reviewProposal(
      reviewDocument(),
      'propose_partial_edits',
      {
        edits: [
          { targetNodeId: 'p-1', mode: 'insert_after', format: 'tiptap_json', content: [inserted] },
          { targetNodeId: 'fresh-1', mode: 'replace', content: 'Newer.' },
        ],
      },
      options,
    );
    expect(review).toMatchObject({ ok: true, applicable: true });
    if (!review.ok) return;
    expect(review.items.map((item) => [item.kind, item.before, item.after, item.problem])).toEqual([
      ['insert_after', '', 'New.', null],
      ['replace', 'New.', 'Newer.', null],
    ]);
  });

  it('P53 a nested list item target is shown as its list', () => {
    const review = reviewProposal(specDocument(), 'propose_partial_edits', {
      edits: [{ targetNodeId: 'li-2', mode: 'delete' }],
    });
    expect(review.ok && review.items[0]?.before).toBe('- Bakers');
  });

  it('P54 items that no longer apply carry the real apply failure; the others still apply', () => {
    const review = reviewProposal(
      reviewDocument(),
      'propose_partial_edits',
      {
        edits: [
          { targetNodeId: 'gone', mode: 'replace', content: 'x' },
          { targetNodeId: 'p-3', mode: 'replace', content: 'y' },
          { targetNodeId: 'p-1', mode: 'replace', format: 'tiptap_json', content: '{bad json' },
          { targetNodeId: 'p-2', mode: 'replace', content: 'ok' },
        ],
      },
      options,
    );
    expect(review.ok).toBe(true);
    if (!review.ok) return;
    expect(review.applicable).toBe(false);
    expect(review.items.map((item) => item.problem?.reason ?? null)).toEqual([
      'target_not_found',
      'subsection_finalized',
      'invalid_content',
      null,
    ]);
    expect(review.items[0]).toMatchObject({ before: '', sectionUuid: null, subsectionTitle: null });
    expect(review.items[2]?.after).toBe('');
    // The items that apply are exactly what applyPartialEdits accepts.
    const parsed = parseProposal('propose_partial_edits', {
      edits: [{ targetNodeId: 'p-2', mode: 'replace', content: 'ok' }],
    });
    if (!parsed.ok || parsed.proposal.tool !== 'propose_partial_edits') throw new Error('unparsed');
    expect(applyPartialEdits(reviewDocument(), parsed.proposal, options).ok).toBe(true);
  });

  it('P54 a finalized or missing subsection; allowFinalized lets it apply', () => {
    const payload = { subsection_uuid: uuid(3), content: 'New.' };
    const refused = reviewProposal(reviewDocument(), 'propose_full_subsection', payload);
    expect(refused.ok && refused.items[0]?.problem?.reason).toBe('subsection_finalized');
    expect(refused.ok && refused.applicable).toBe(false);
    const allowed = reviewProposal(reviewDocument(), 'propose_full_subsection', payload, {
      allowFinalized: true,
    });
    expect(allowed.ok && allowed.applicable).toBe(true);
    const missing = reviewProposal(reviewDocument(), 'propose_full_subsection', {
      subsection_uuid: uuid(99),
      content: 'New.',
    });
    expect(missing.ok && missing.items[0]).toMatchObject({
      before: '',
      after: 'New.',
      subsectionUuid: null,
      problem: { reason: 'target_not_found' },
    });
  });

  it('P55 the document is not changed and a broken document is a per-item problem, never a throw', () => {
    const document = reviewDocument();
    const copy = structuredClone(document);
    reviewProposal(document, 'propose_partial_edits', { edits: [{ targetNodeId: 'p-1', mode: 'delete' }] });
    expect(document).toEqual(copy);
    const broken = reviewProposal(
      { type: 'doc', content: [] } as unknown as ReturnType<typeof reviewDocument>,
      'propose_partial_edits',
      { edits: [{ targetNodeId: 'p-1', mode: 'delete' }] },
    );
    expect(broken.ok && broken.items[0]?.problem).toMatchObject({ reason: expect.any(String) });
  });
});
