import { parseHtmlInNode } from '@planwright/sdk/formats/node';
import type { DocumentJson } from '@planwright/sdk/model';
import { readableDraft, SuggestionQueue, type SuggestionTurn } from '@planwright/sdk/proposals';
import { describe, expect, it, vi } from 'vitest';
import {
  countingIds,
  documentOf,
  paragraph,
  section,
  subsection,
  text,
  uuid,
} from '../support/model-documents.js';

const options = { generateId: countingIds(9000), parseHtml: parseHtmlInNode };

function plan(): DocumentJson {
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
        subsection(4, 'Team', [paragraph('p-4', [text('Two bakers.')])]),
      ],
    ),
  );
}

function turn(id: string, edits: unknown[], extra: Partial<SuggestionTurn> = {}): SuggestionTurn {
  return {
    id,
    toolName: 'propose_partial_edits',
    payload: { edits },
    origin: 'chat',
    label: null,
    provider: null,
    whole: false,
    ...extra,
  };
}

const replace = (target: string, content: string) => ({
  targetNodeId: target,
  mode: 'replace',
  format: 'markdown',
  content,
});

/** A queue over a plain document held here, as a host (the web, the CLI) holds it. */
function host() {
  let document = plan();
  const applied: DocumentJson[] = [];
  const decided = vi.fn();
  const queue = new SuggestionQueue({
    getDocument: () => document,
    applyDocument: (next) => {
      applied.push(next);
      document = next;
      return true;
    },
    onTurnDecided: decided,
    options,
  });
  return { queue, applied, decided, document: () => document };
}

function bodyText(document: DocumentJson): string {
  return (
    JSON.stringify(document)
      .match(/"text":"[^"]*"/g)
      ?.join(' ') ?? ''
  );
}

describe('SuggestionQueue (S1–S8)', () => {
  it('S1, S2: sync lists each pending change; a new sync keeps decisions and leaves the other origin alone', () => {
    const { queue } = host();
    queue.sync([turn('t1', [replace('p-1', 'We bake bread.'), replace('p-4', 'Three bakers.')])]);
    queue.add(turn('a1', [replace('p-2', 'Every day.')], { origin: 'action', whole: true }));
    expect(queue.getSnapshot().suggestions.map((s) => s.id)).toEqual(['t1#0', 't1#1', 'a1#0']);
    expect(queue.getSnapshot().currentId).toBe('a1#0');
    queue.reject('t1#0');
    queue.sync([turn('t1', [replace('p-1', 'We bake bread.'), replace('p-4', 'Three bakers.')])]);
    expect(queue.getSnapshot().suggestions.map((s) => s.id)).toEqual(['t1#1', 'a1#0']);
    queue.sync([]);
    expect(queue.getSnapshot().suggestions.map((s) => s.id)).toEqual(['a1#0']);
  });

  it('S4, S5: accepting applies exactly that edit; the turn is reported once all its edits are decided', () => {
    const { queue, applied, decided, document } = host();
    queue.sync([turn('t1', [replace('p-1', 'We bake bread.'), replace('p-4', 'Three bakers.')])]);
    expect(queue.accept('t1#1')).toEqual({ ok: true, applied: 1 });
    expect(applied).toHaveLength(1);
    expect(bodyText(document())).toContain('Three bakers.');
    expect(bodyText(document())).toContain('We sell bread.');
    expect(decided).not.toHaveBeenCalled();
    expect(queue.reject('t1#0')).toEqual({ ok: true, applied: 0 });
    expect(decided).toHaveBeenCalledTimes(1);
    expect(decided.mock.calls[0]?.[1]).toBe('accepted');
    expect(queue.getSnapshot()).toEqual({ suggestions: [], currentId: null });
  });

  it('S6: acceptAll across turns is one editor edit', () => {
    const { queue, applied, decided, document } = host();
    queue.sync([
      turn('t1', [replace('p-1', 'We bake bread.')]),
      turn('t2', [replace('p-4', 'Three bakers.')]),
    ]);
    expect(queue.acceptAll()).toEqual({ ok: true, applied: 2 });
    expect(applied).toHaveLength(1);
    expect(bodyText(document())).toContain('We bake bread.');
    expect(bodyText(document())).toContain('Three bakers.');
    expect(decided.mock.calls.map((call) => [call[0].id, call[1]])).toEqual([
      ['t1', 'accepted'],
      ['t2', 'accepted'],
    ]);
  });

  it('S4: per subsection: acceptAll({subsectionUuid}) takes only that subsection', () => {
    const { queue, document } = host();
    queue.sync([turn('t1', [replace('p-1', 'We bake bread.'), replace('p-4', 'Three bakers.')])]);
    queue.acceptAll({ subsectionUuid: uuid(4) });
    expect(bodyText(document())).toContain('Three bakers.');
    expect(bodyText(document())).toContain('We sell bread.');
    expect(queue.getSnapshot().suggestions.map((s) => s.id)).toEqual(['t1#0']);
  });

  it('S6: a whole turn is decided as one', () => {
    const { queue, applied } = host();
    queue.add(
      turn('a1', [replace('p-1', 'One.'), { targetNodeId: 'p-2', mode: 'delete' }], {
        origin: 'action',
        whole: true,
      }),
    );
    expect(queue.accept('a1#1')).toEqual({ ok: true, applied: 2 });
    expect(applied).toHaveLength(1);
    expect(queue.getSnapshot().suggestions).toEqual([]);
  });

  it('S3, S4: a change into a finalized subsection is listed with its problem and refused; nothing applied', () => {
    const { queue, applied } = host();
    queue.sync([turn('t1', [replace('p-3', 'Rewritten.')])]);
    const [only] = queue.getSnapshot().suggestions;
    expect(only?.item.problem?.reason).toBe('subsection_finalized');
    const outcome = queue.accept('t1#0');
    expect(outcome.ok).toBe(false);
    expect(applied).toEqual([]);
    expect(queue.reject('t1#0').ok).toBe(true);
  });

  it('S4: an editor that refuses the change decides nothing', () => {
    const decided = vi.fn();
    const queue = new SuggestionQueue({
      getDocument: plan,
      applyDocument: () => false,
      onTurnDecided: decided,
      options,
    });
    queue.sync([turn('t1', [replace('p-1', 'X.')])]);
    expect(queue.accept('t1#0')).toEqual({ ok: false, message: 'The editor did not take the change.' });
    expect(queue.getSnapshot().suggestions).toHaveLength(1);
    expect(decided).not.toHaveBeenCalled();
  });

  it('S7: step wraps both ways; selectTurn picks its first change; unknown ids change nothing', () => {
    const { queue } = host();
    queue.sync([
      turn('t1', [replace('p-1', 'A.'), replace('p-2', 'B.')]),
      turn('t2', [replace('p-4', 'C.')]),
    ]);
    expect(queue.getSnapshot().currentId).toBe('t1#0');
    expect(queue.step(-1)).toBe('t2#0');
    expect(queue.step(1)).toBe('t1#0');
    expect(queue.selectTurn('t2')).toBe('t2#0');
    queue.select('nope');
    expect(queue.getSnapshot().currentId).toBe('t2#0');
    queue.reject('t2#0');
    expect(queue.getSnapshot().currentId).toBe('t1#0');
    expect(queue.selectTurn('t2')).toBeNull();
  });

  it('S8: unreadable turns list nothing; deciding an unknown id is a message, not a throw', () => {
    const { queue } = host();
    queue.sync([
      { ...turn('h1', []), payload: 'garbage' },
      { ...turn('h2', []), toolName: 'drop_tables' },
      { ...turn('h3', []), payload: { edits: [{ mode: 'replace' }] } },
    ]);
    expect(queue.getSnapshot().suggestions).toEqual([]);
    expect(queue.accept('h1#0')).toEqual({ ok: false, message: 'This suggestion was already decided.' });
    expect(() => queue.acceptAll()).not.toThrow();
  });

  it('S9: a streaming turn is drawn as it grows, cannot be decided, and becomes decidable when complete', () => {
    const { queue, applied } = host();
    const partial = { edits: [replace('p-1', 'We bake'), { targetNodeId: 'p-4', mode: 'repl' }] };
    queue.sync([
      { ...turn('t1', []), payload: readableDraft('propose_partial_edits', partial), streaming: true },
    ]);
    expect(queue.getSnapshot().suggestions.map((s) => [s.id, s.streaming, s.item.after])).toEqual([
      ['t1#0', true, 'We bake'],
    ]);
    expect(queue.accept('t1#0')).toEqual({ ok: false, message: 'This suggestion is still being written.' });
    expect(queue.reject('t1#0').ok).toBe(false);
    queue.sync([
      {
        ...turn('t1', []),
        payload: readableDraft('propose_partial_edits', { edits: [replace('p-1', 'We bake bread.')] }),
        streaming: true,
      },
    ]);
    expect(queue.getSnapshot().suggestions[0]?.item.after).toBe('We bake bread.');
    queue.sync([turn('t1', [replace('p-1', 'We bake bread.'), replace('p-4', 'Three bakers.')])]);
    expect(queue.getSnapshot().suggestions.map((s) => [s.id, s.streaming])).toEqual([
      ['t1#0', false],
      ['t1#1', false],
    ]);
    expect(queue.acceptAll()).toEqual({ ok: true, applied: 2 });
    expect(applied).toHaveLength(1);
  });

  it('S9: readableDraft keeps only edits that can be shown; other tools pass through; hostile input never throws', () => {
    expect(
      readableDraft('propose_partial_edits', {
        edits: [
          replace('a', 'x'),
          { targetNodeId: 'b' },
          { mode: 'delete' },
          { target_node_id: 'c', mode: 'delete' },
          7,
          null,
        ],
      }),
    ).toEqual({ edits: [replace('a', 'x'), { target_node_id: 'c', mode: 'delete' }] });
    expect(readableDraft('propose_partial_edits', { edits: 'no' })).toEqual({ edits: [] });
    expect(readableDraft('propose_full_subsection', { content: 'We' })).toEqual({ content: 'We' });
  });
});
