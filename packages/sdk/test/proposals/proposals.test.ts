import { parseHtmlInNode } from '@planwright/sdk/formats/node';
import { normalizeDocument } from '@planwright/sdk/model';
import {
  applyFullSubsection,
  applyPartialEdits,
  applyProposal,
  type FullSubsectionProposal,
  type PartialEditsProposal,
  parseProposal,
  proposalContentToBlocks,
  revertProposal,
} from '@planwright/sdk/proposals';
import { describe, expect, it } from 'vitest';
import { checkedJson, countingIds, paragraph, specDocument, text, uuid } from '../support/model-documents.js';

const options = { generateId: countingIds(5000), parseHtml: parseHtmlInNode };

function full(payload: unknown): FullSubsectionProposal {
  const parsed = parseProposal('propose_full_subsection', payload);
  if (!parsed.ok || parsed.proposal.tool !== 'propose_full_subsection')
    throw new Error(JSON.stringify(parsed));
  return parsed.proposal;
}

function partial(payload: unknown): PartialEditsProposal {
  const parsed = parseProposal('propose_partial_edits', payload);
  if (!parsed.ok || parsed.proposal.tool !== 'propose_partial_edits') throw new Error(JSON.stringify(parsed));
  return parsed.proposal;
}

function headingLevels(markdown: string): number[] {
  const read = proposalContentToBlocks({ format: 'markdown', text: markdown }, options);
  if (!read.ok) throw new Error(read.message);
  return read.blocks.flatMap((block) => (block.type === 'heading' ? [block.attrs.level] : []));
}

describe('parseProposal (P1–P4)', () => {
  it('P1 an unknown tool is a typed failure', () => {
    expect(parseProposal('rm_rf', {})).toMatchObject({ ok: false, reason: 'unknown_tool' });
  });

  it('P2 accepts subsectionNodeId, subsection_node_id and subsection_uuid', () => {
    for (const key of ['subsectionNodeId', 'subsection_node_id', 'subsection_uuid']) {
      expect(full({ [key]: uuid(4), format: 'markdown', content: 'x' }).target).toBe(uuid(4));
    }
  });

  it('P3 a payload sent as a JSON string is read; tiptap_json takes doc or tiptapNodes', () => {
    const parsed = parseProposal(
      'propose_full_subsection',
      JSON.stringify({ subsection_uuid: uuid(4), format: 'tiptap_json', doc: { type: 'doc', content: [] } }),
    );
    expect(parsed).toMatchObject({ ok: true, proposal: { content: { format: 'tiptap_json' } } });
  });

  it('P4 malformed payloads give zod issues, never a throw', () => {
    const hostile: unknown[] = [
      null,
      42,
      'not json {',
      { subsection_uuid: 5, format: 'markdown', content: 'x' },
      { subsection_uuid: uuid(4), format: 'pdf', content: 'x' },
      { subsection_uuid: uuid(4), format: 'markdown' },
      { edits: 'all' },
      { edits: [{ targetNodeId: 'p-1', mode: 'explode' }] },
      { subsection_uuid: uuid(4), format: 'markdown', content: 'x'.repeat(5 * 1024 * 1024) },
    ];
    for (const payload of hostile) {
      const full = parseProposal('propose_full_subsection', payload);
      const edits = parseProposal('propose_partial_edits', payload);
      expect(full.ok).toBe(false);
      expect(edits.ok).toBe(false);
      if (!full.ok) expect(full.reason).toBe('invalid_payload');
    }
    const throwing = {
      get subsection_uuid(): string {
        throw new Error('boom');
      },
    };
    expect(parseProposal('propose_full_subsection', throwing)).toMatchObject({ ok: false });
  });
});

describe('AI-insert heading rules (P6, P7)', () => {
  it('P6 Markdown: levels ≥ 3 are demoted by two (min 1), then 1 → 3 and 2 → 4', () => {
    expect(headingLevels('# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n\n###### f\n')).toEqual([
      3, 4, 3, 4, 3, 4,
    ]);
  });

  it('P6 content before any heading gets no "Untitled" heading; ##### inside a quote is demoted too', () => {
    const read = proposalContentToBlocks({ format: 'markdown', text: 'Intro\n\n> ##### deep\n' }, options);
    expect(read.ok && read.blocks.map((block) => block.type)).toEqual(['paragraph', 'blockquote']);
    expect(JSON.stringify(read)).not.toContain('Untitled');
    expect(JSON.stringify(read)).toContain('"level":3');
  });

  it('P7 tiptap_json: headings clamped to 3–4, section and subsection headings become level 3', () => {
    const read = proposalContentToBlocks(
      {
        format: 'tiptap_json',
        json: [
          { type: 'heading', attrs: { level: 1 }, content: [text('one')] },
          { type: 'heading', attrs: { level: 6 }, content: [text('six')] },
          { type: 'sectionHeading', content: [text('section')] },
          { type: 'subsection', content: [{ type: 'subsectionHeading', content: [text('sub')] }] },
        ],
      },
      options,
    );
    expect(read.ok && read.blocks.map((block) => (block.type === 'heading' ? block.attrs.level : 0))).toEqual(
      [3, 4, 3, 3],
    );
  });

  it('P7 HTML: h1/h2 → 3, h3, h4, h5/h6 → 4', () => {
    const read = proposalContentToBlocks(
      { format: 'html', text: '<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4><h5>e</h5><h6>f</h6>' },
      options,
    );
    expect(read.ok && read.blocks.map((block) => (block.type === 'heading' ? block.attrs.level : 0))).toEqual(
      [3, 3, 3, 4, 4, 4],
    );
  });

  it('P8 javascript: links are removed in every format, the text stays', () => {
    for (const content of [
      { format: 'markdown' as const, text: '[click](javascript:alert(1))' },
      { format: 'html' as const, text: '<p><a href="javascript:alert(1)">click</a></p>' },
      {
        format: 'tiptap_json' as const,
        json: [
          {
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: 'click',
                marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
              },
            ],
          },
        ],
      },
    ]) {
      const read = proposalContentToBlocks(content, options);
      expect(read.ok).toBe(true);
      expect(JSON.stringify(read)).not.toContain('javascript');
      expect(JSON.stringify(read)).toContain('click');
    }
  });

  it('P9 deep nesting and huge trees are invalid_content, never a throw', () => {
    let deep: unknown = { type: 'paragraph' };
    for (let i = 0; i < 5000; i += 1) deep = { type: 'blockquote', content: [deep] };
    expect(proposalContentToBlocks({ format: 'tiptap_json', json: deep }, options)).toMatchObject({
      ok: false,
      reason: 'invalid_content',
    });
    const huge = Array.from({ length: 100_001 }, () => ({ type: 'text', text: 'x' }));
    expect(proposalContentToBlocks({ format: 'tiptap_json', json: huge }, options)).toMatchObject({
      ok: false,
      reason: 'invalid_content',
    });
    expect(proposalContentToBlocks({ format: 'tiptap_json', text: '{nope' }, options)).toMatchObject({
      ok: false,
    });
    const cycle: { type: string; content: unknown[] } = { type: 'blockquote', content: [] };
    cycle.content.push(cycle);
    expect(proposalContentToBlocks({ format: 'tiptap_json', json: cycle }, options)).toMatchObject({
      ok: false,
    });
  });
});

describe('applyFullSubsection (P10–P14)', () => {
  it('P10 replaces the body of the subsection named by uuid; the input is unchanged', () => {
    const doc = specDocument();
    const before = structuredClone(doc);
    const result = applyFullSubsection(
      doc,
      full({ subsection_uuid: uuid(4), format: 'markdown', content: 'New **text**' }),
      options,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(doc).toEqual(before);
    checkedJson(result.document);
    const sub = result.document.content[1]?.content[2];
    expect(sub).toMatchObject({ type: 'subsection', attrs: { uuid: uuid(4) } });
    expect(JSON.stringify(sub)).toContain('New');
    expect(result.changes).toEqual([
      expect.objectContaining({
        kind: 'replace_subsection',
        subsectionUuid: uuid(4),
        removedNodeIds: ['p-6'],
      }),
    ]);
    expect(result.document.content[0]).toEqual(doc.content[0]);
  });

  it('P10 a nodeId inside the subsection names it too; an unknown target is target_not_found', () => {
    const doc = specDocument();
    const result = applyFullSubsection(
      doc,
      full({ subsectionNodeId: 'p-6', format: 'html', content: '<p>hi</p>' }),
      options,
    );
    expect(result.ok && result.changes[0]?.subsectionUuid).toBe(uuid(4));
    for (const target of ['nope', uuid(99), uuid(1), 'p-1']) {
      expect(
        applyFullSubsection(
          doc,
          full({ subsectionNodeId: target, format: 'markdown', content: 'x' }),
          options,
        ),
      ).toMatchObject({
        ok: false,
        reason: 'target_not_found',
      });
    }
  });

  it('P11 a title renames the subsection; revert restores the title and body', () => {
    const doc = specDocument();
    const result = applyFullSubsection(
      doc,
      full({
        subsection_uuid: uuid(4),
        format: 'tiptap_json',
        doc: { type: 'doc', content: [paragraph('p-6', [text('x')])] },
        title: ' Plan ',
      }),
      options,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.stringify(result.document.content[1]?.content[2])).toContain('"text":"Plan"');
    expect(result.changes[0]?.renamed).toBe(true);
    // P13 echoed ids of the replaced blocks are kept.
    expect(result.changes[0]?.insertedNodeIds).toEqual(['p-6']);
    expect(revertProposal(result.document, result.inverse)).toEqual(
      expect.objectContaining({ ok: true, document: doc }),
    );
  });

  it('P12 a finalized subsection is refused unless allowFinalized', () => {
    const doc = specDocument();
    const proposal = full({ subsection_uuid: uuid(3), format: 'markdown', content: 'x' });
    expect(applyFullSubsection(doc, proposal, options)).toMatchObject({
      ok: false,
      reason: 'subsection_finalized',
    });
    expect(applyFullSubsection(doc, proposal, { ...options, allowFinalized: true }).ok).toBe(true);
  });

  it('P13 ids used elsewhere in the document are never taken by new content', () => {
    const doc = specDocument();
    const result = applyFullSubsection(
      doc,
      full({
        subsection_uuid: uuid(4),
        format: 'tiptap_json',
        tiptapNodes: [paragraph('p-1', [text('stolen?')])],
      }),
      options,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.content[0]).toEqual(doc.content[0]);
    expect(result.changes[0]?.insertedNodeIds).not.toContain('p-1');
  });

  it('P14 empty content leaves one empty paragraph', () => {
    const result = applyFullSubsection(
      specDocument(),
      full({ subsection_uuid: uuid(4), format: 'markdown', content: '' }),
      options,
    );
    expect(result.ok && result.document.content[1]?.content[2]).toMatchObject({
      content: [{ type: 'subsectionHeading' }, { type: 'paragraph' }],
    });
  });
});

describe('applyPartialEdits (P20–P25)', () => {
  const doc = specDocument();

  it('P20 replace, insert_after, insert_before and delete on top-level blocks', () => {
    const result = applyPartialEdits(
      doc,
      partial({
        edits: [
          { targetNodeId: 'p-1', mode: 'replace', format: 'markdown', content: 'Replaced' },
          { targetNodeId: 'p-2', mode: 'insert_before', format: 'html', content: '<p>Before</p>' },
          {
            targetNodeId: 'p-2',
            mode: 'insert_after',
            format: 'tiptap_json',
            tiptapNodes: [paragraph('new-1', [text('After')])],
          },
          { targetNodeId: 'p-6', mode: 'delete' },
        ],
      }),
      options,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    checkedJson(result.document);
    const first = result.document.content[0]?.content.slice(1).map((block) => JSON.stringify(block));
    expect(first?.map((block) => /"text":"(\w+)/.exec(block)?.[1])).toEqual([
      'Replaced',
      'Before',
      'Indented',
      'After',
    ]);
    expect(result.document.content[1]?.content[2]).toMatchObject({
      content: [{ type: 'subsectionHeading' }],
    });
    expect(result.changes.map((change) => change.kind)).toEqual([
      'replace',
      'insert_before',
      'insert_after',
      'delete',
    ]);
    expect(result.changes[3]).toMatchObject({ removedNodeIds: ['p-6'], subsectionUuid: uuid(4) });
    expect(revertProposal(result.document, result.inverse)).toEqual(
      expect.objectContaining({ ok: true, document: doc }),
    );
  });

  it('P21 each edit is accepted or rejected on its own (predicate or indexes)', () => {
    const proposal = partial({
      edits: [
        { targetNodeId: 'p-1', mode: 'delete' },
        { targetNodeId: 'p-2', mode: 'delete' },
      ],
    });
    const byIndex = applyPartialEdits(doc, proposal, { ...options, accept: [1] });
    expect(byIndex).toMatchObject({ ok: true, applied: [1], rejected: [0] });
    expect(JSON.stringify(byIndex.ok && byIndex.document)).toContain('p-1');
    expect(JSON.stringify(byIndex.ok && byIndex.document)).not.toContain('"p-2"');
    const none = applyPartialEdits(doc, proposal, { ...options, accept: () => false });
    expect(none).toMatchObject({ ok: true, document: doc, changes: [] });
  });

  it('P22 all or nothing: one failing edit reports its index and nothing applies', () => {
    const result = applyPartialEdits(
      doc,
      partial({
        edits: [
          { targetNodeId: 'p-1', mode: 'delete' },
          { targetNodeId: 'p-1', mode: 'delete' },
        ],
      }),
      options,
    );
    expect(result).toMatchObject({ ok: false, reason: 'target_not_found', editIndex: 1 });
    expect(
      applyPartialEdits(
        doc,
        partial({ edits: [{ targetNodeId: 'p-1', mode: 'replace', format: 'markdown', content: '' }] }),
        options,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'empty_content',
      editIndex: 0,
    });
  });

  it('P23 nested targets (a paragraph inside a list item) are edited in place and repaired', () => {
    const result = applyPartialEdits(
      doc,
      partial({ edits: [{ targetNodeId: 'p-4', mode: 'replace', format: 'markdown', content: 'Butchers' }] }),
      { ...options, allowFinalized: true },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    checkedJson(result.document);
    expect(JSON.stringify(result.document)).toContain('Butchers');
    expect(JSON.stringify(result.document)).not.toContain('Bakers');
    expect(revertProposal(result.document, result.inverse)).toEqual(
      expect.objectContaining({ ok: true, document: doc }),
    );
  });

  it('P24 edits in a finalized subsection are refused unless allowFinalized', () => {
    const proposal = partial({ edits: [{ targetNodeId: 'h-1', mode: 'delete' }] });
    expect(applyPartialEdits(doc, proposal, options)).toMatchObject({
      ok: false,
      reason: 'subsection_finalized',
      editIndex: 0,
    });
    expect(applyPartialEdits(doc, proposal, { ...options, allowFinalized: true }).ok).toBe(true);
  });

  it('P32 revert refuses when the changed body was edited since', () => {
    const result = applyPartialEdits(
      doc,
      partial({ edits: [{ targetNodeId: 'p-1', mode: 'delete' }] }),
      options,
    );
    if (!result.ok) throw new Error(result.message);
    const edited = applyPartialEdits(
      result.document,
      partial({ edits: [{ targetNodeId: 'p-2', mode: 'delete' }] }),
      options,
    );
    if (!edited.ok) throw new Error(edited.message);
    expect(revertProposal(edited.document, result.inverse)).toMatchObject({ ok: false, reason: 'conflict' });
  });

  it('P33 a document that cannot be read is invalid_document', () => {
    expect(
      applyPartialEdits(
        { type: 'nope' },
        partial({ edits: [{ targetNodeId: 'p-1', mode: 'delete' }] }),
        options,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'invalid_document',
    });
  });

  it('P1 applyProposal reads and applies in one call', () => {
    expect(
      applyProposal(
        doc,
        'propose_partial_edits',
        { edits: [{ targetNodeId: 'p-1', mode: 'delete' }] },
        options,
      ).ok,
    ).toBe(true);
    expect(applyProposal(doc, 'x', {}, options)).toMatchObject({ ok: false, reason: 'unknown_tool' });
    expect(normalizeDocument(doc).ok).toBe(true);
  });
});
