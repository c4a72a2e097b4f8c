import { ApiError, type DocumentOutline, type OutlineSection } from '@planwright/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collapsedSectionsKey,
  parseCollapsedSections,
  readCollapsedSections,
  serializeCollapsedSections,
  writeCollapsedSections,
} from '../../src/workspace/collapsed-sections';
import { plainTextOf } from '../../src/workspace/plain-text';
import {
  saveBadgeDetail,
  saveBadgeLabel,
  saveBadgeState,
  saveFailureText,
} from '../../src/workspace/save-status';
import {
  historyMode,
  NO_SELECTION,
  requestedSelection,
  resolveSelection,
  selectionSearch,
} from '../../src/workspace/selection-url';
import {
  CHAT_WIDE_PX,
  DEFAULT_SPLIT_LAYOUT,
  draggedSplitLayout,
  SPLIT_GUTTER_SIZE,
  SPLIT_MIN_SIZE,
  toggleSplitLayout,
  wideChatSizes,
} from '../../src/workspace/split-layout';
import {
  canDeleteSection,
  dropOrder,
  moveOrder,
  selectionAfterSectionDelete,
  selectionAfterSubsectionDelete,
  subsectionCreateOrder,
  withPendingChanges,
} from '../../src/workspace/structure-rules';
import { titleEditDecision } from '../../src/workspace/title-edit';
import { memoryStorage } from '../support/render-app';
import { hostileStrings } from './workspace-support';

function section(uuid: string, subsections: string[] = [], title = uuid): OutlineSection {
  return {
    uuid,
    blueprintUuid: null,
    title,
    displayTitle: title,
    order: 1,
    subsections: subsections.map((sub, index) => ({
      uuid: sub,
      blueprintUuid: null,
      title: sub,
      displayTitle: sub,
      order: index + 1,
      finalized: false,
    })),
  };
}

const OUTLINE: DocumentOutline = {
  sections: [section('s1', ['a', 'b', 'c']), section('s2'), section('s3', ['d'])],
};

describe('selection from the URL (SPEC.md W25, W26)', () => {
  it('W25: a section the outline has, with a subsection of that section, is kept', () => {
    expect(resolveSelection(OUTLINE, { sectionUuid: 's1', subsectionUuid: 'b' })).toEqual({
      sectionUuid: 's1',
      subsectionUuid: 'b',
    });
  });

  it('W25: a subsection of another section is dropped, the section kept', () => {
    expect(resolveSelection(OUTLINE, { sectionUuid: 's1', subsectionUuid: 'd' })).toEqual({
      sectionUuid: 's1',
      subsectionUuid: null,
    });
  });

  it('W25: an unknown or missing section falls back to the first section, without a subsection', () => {
    expect(resolveSelection(OUTLINE, { sectionUuid: 'nope', subsectionUuid: 'a' })).toEqual({
      sectionUuid: 's1',
      subsectionUuid: null,
    });
    expect(resolveSelection(OUTLINE, NO_SELECTION)).toEqual({ sectionUuid: 's1', subsectionUuid: null });
    // A subsection alone (no section) is not enough: it must belong to the section asked for.
    expect(resolveSelection(OUTLINE, { sectionUuid: null, subsectionUuid: 'd' })).toEqual({
      sectionUuid: 's1',
      subsectionUuid: null,
    });
  });

  it('W25: an empty outline selects nothing', () => {
    expect(resolveSelection({ sections: [] }, { sectionUuid: 's1', subsectionUuid: 'a' })).toEqual(
      NO_SELECTION,
    );
  });

  it('W25: the parameters are read as written; empty ones count as absent', () => {
    expect(requestedSelection(new URLSearchParams('section=&subsection=x'))).toEqual({
      sectionUuid: null,
      subsectionUuid: 'x',
    });
  });

  it('W25: any string in the URL resolves to something in the outline, never to itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom(...hostileStrings())),
        fc.oneof(fc.string(), fc.constantFrom(...hostileStrings())),
        (asked, sub) => {
          const resolved = resolveSelection(OUTLINE, { sectionUuid: asked, subsectionUuid: sub });
          const found = OUTLINE.sections.find((candidate) => candidate.uuid === resolved.sectionUuid);
          expect(found).toBeDefined();
          if (resolved.subsectionUuid !== null) {
            expect(found?.subsections.map((candidate) => candidate.uuid)).toContain(resolved.subsectionUuid);
          }
        },
      ),
    );
  });

  it('W26: other query parameters are kept; a cleared part is removed', () => {
    const current = new URLSearchParams('tab=chat&section=s1&subsection=a&x=%26');
    expect(selectionSearch(current, { sectionUuid: 's2', subsectionUuid: null }).toString()).toBe(
      'tab=chat&section=s2&x=%26',
    );
    expect(selectionSearch(current, { sectionUuid: 's1', subsectionUuid: 'b' }).toString()).toBe(
      'tab=chat&section=s1&subsection=b&x=%26',
    );
    expect(selectionSearch(current, NO_SELECTION).toString()).toBe('tab=chat&x=%26');
    // The input is not changed.
    expect(current.get('section')).toBe('s1');
  });

  it('W26: a new section pushes; a subsection of the same section replaces', () => {
    const s1 = { sectionUuid: 's1', subsectionUuid: null };
    expect(historyMode(s1, { sectionUuid: 's2', subsectionUuid: null })).toBe('push');
    expect(historyMode(s1, { sectionUuid: 's2', subsectionUuid: 'd' })).toBe('push');
    expect(historyMode(s1, { sectionUuid: 's1', subsectionUuid: 'a' })).toBe('replace');
    expect(historyMode({ sectionUuid: 's1', subsectionUuid: 'a' }, s1)).toBe('replace');
  });
});

describe('collapsed sections in storage (SPEC.md W15)', () => {
  it('W15: the key is made of the resource type and its uuid', () => {
    expect(collapsedSectionsKey('document', 'doc-1')).toBe('planwright:sidebar:document:doc-1');
  });

  it('W15: a JSON list of uuids reads back; only the outline’s uuids are written', () => {
    const written = serializeCollapsedSections(new Set(['s1', 'gone', 's3']), ['s1', 's2', 's3']);
    expect(JSON.parse(written)).toEqual(['s1', 's3']);
    expect([...parseCollapsedSections(written)]).toEqual(['s1', 's3']);
  });

  it.each([
    ['not JSON', '{nope'],
    ['an object', '{"s1":true}'],
    ['a string', '"s1"'],
    ['null', 'null'],
    ['nothing', null],
  ])('W15: %s reads as nothing collapsed', (_name, raw) => {
    expect(parseCollapsedSections(raw).size).toBe(0);
  });

  it('W15: only non-empty strings of a list count, and a huge list is cut', () => {
    expect([...parseCollapsedSections('["s1", 2, null, "", {"a":1}, ["s2"], "s3"]')]).toEqual(['s1', 's3']);
    const huge = JSON.stringify(Array.from({ length: 5000 }, (_, index) => `s${index}`));
    expect(parseCollapsedSections(huge).size).toBe(1000);
  });

  it('W15: hostile strings survive a round trip as data', () => {
    const strings = hostileStrings().filter((value) => value !== '');
    const written = serializeCollapsedSections(new Set(strings), strings);
    expect([...parseCollapsedSections(written)]).toEqual([...new Set(strings)].slice(0, 1000));
  });

  it('W15: storage that throws or is blocked is ignored', () => {
    const throwing = memoryStorage();
    throwing.getItem = () => {
      throw new Error('blocked');
    };
    throwing.setItem = () => {
      throw new Error('quota');
    };
    expect(readCollapsedSections(throwing, 'k').size).toBe(0);
    expect(() => writeCollapsedSections(throwing, 'k', '[]')).not.toThrow();
    expect(readCollapsedSections(null, 'k').size).toBe(0);
  });
});

describe('order numbers and edges (SPEC.md W18, W21)', () => {
  it('W21: up sends the 0-based index, down index + 2 (the new 1-based place)', () => {
    expect(moveOrder(1, 3, 'up')).toBe(1);
    expect(moveOrder(2, 3, 'up')).toBe(2);
    expect(moveOrder(0, 3, 'down')).toBe(2);
    expect(moveOrder(1, 3, 'down')).toBe(3);
  });

  it('W21: the first up and the last down are ignored; so is an item not in the list', () => {
    expect(moveOrder(0, 3, 'up')).toBeNull();
    expect(moveOrder(2, 3, 'down')).toBeNull();
    expect(moveOrder(0, 1, 'up')).toBeNull();
    expect(moveOrder(0, 1, 'down')).toBeNull();
    expect(moveOrder(-1, 3, 'down')).toBeNull();
  });

  it('W21: a move’s order always names a neighbour’s place', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.nat(60), fc.boolean(), (count, index, up) => {
        const order = moveOrder(index, count, up ? 'up' : 'down');
        if (order === null) return;
        expect(order).toBe(index + 1 + (up ? -1 : 1));
        expect(order).toBeGreaterThanOrEqual(1);
        expect(order).toBeLessThanOrEqual(count);
      }),
    );
  });

  it('W18: a drop sends the target’s 1-based place; a drop in place sends nothing', () => {
    expect(dropOrder(0, 2, 3)).toBe(3);
    expect(dropOrder(2, 0, 3)).toBe(1);
    expect(dropOrder(1, 1, 3)).toBeNull();
    expect(dropOrder(0, 3, 3)).toBeNull();
  });

  it('W20: a new subsection goes after the current one, else first', () => {
    const s1 = OUTLINE.sections[0] as OutlineSection;
    expect(subsectionCreateOrder(s1, 'b')).toBe(3);
    expect(subsectionCreateOrder(s1, 'c')).toBe(4);
    expect(subsectionCreateOrder(s1, null)).toBe(1);
    expect(subsectionCreateOrder(s1, 'not-here')).toBe(1);
  });
});

describe('delete rules (SPEC.md W22)', () => {
  it('W22: the only section cannot be deleted', () => {
    expect(canDeleteSection({ sections: [section('s1')] })).toBe(false);
    expect(canDeleteSection(OUTLINE)).toBe(true);
  });

  it('W22: deleting the selected section selects the previous one, or the next after the first', () => {
    expect(selectionAfterSectionDelete(OUTLINE, 's2', { sectionUuid: 's2', subsectionUuid: null })).toEqual({
      sectionUuid: 's1',
      subsectionUuid: null,
    });
    expect(selectionAfterSectionDelete(OUTLINE, 's1', { sectionUuid: 's1', subsectionUuid: 'a' })).toEqual({
      sectionUuid: 's2',
      subsectionUuid: null,
    });
    expect(selectionAfterSectionDelete(OUTLINE, 's3', { sectionUuid: 's3', subsectionUuid: null })).toEqual({
      sectionUuid: 's2',
      subsectionUuid: null,
    });
  });

  it('W22: deleting a section that is not selected keeps the selection (the same object)', () => {
    const current = { sectionUuid: 's1', subsectionUuid: 'a' };
    expect(selectionAfterSectionDelete(OUTLINE, 's3', current)).toBe(current);
  });

  it('W22: a deleted selected subsection gives way to the previous, the next, or its section', () => {
    expect(
      selectionAfterSubsectionDelete(OUTLINE, 's1', 'b', { sectionUuid: 's1', subsectionUuid: 'b' }),
    ).toEqual({
      sectionUuid: 's1',
      subsectionUuid: 'a',
    });
    expect(
      selectionAfterSubsectionDelete(OUTLINE, 's1', 'a', { sectionUuid: 's1', subsectionUuid: 'a' }),
    ).toEqual({
      sectionUuid: 's1',
      subsectionUuid: 'b',
    });
    expect(
      selectionAfterSubsectionDelete(OUTLINE, 's3', 'd', { sectionUuid: 's3', subsectionUuid: 'd' }),
    ).toEqual({
      sectionUuid: 's3',
      subsectionUuid: null,
    });
    const other = { sectionUuid: 's1', subsectionUuid: 'c' };
    expect(selectionAfterSubsectionDelete(OUTLINE, 's1', 'a', other)).toBe(other);
  });

  it('W22/W18: pending changes hide items and show moves; none gives the same outline', () => {
    expect(withPendingChanges(OUTLINE, [])).toBe(OUTLINE);
    const hidden = withPendingChanges(OUTLINE, [{ kind: 'hide', uuid: 's2' }]);
    expect(hidden.sections.map((candidate) => candidate.uuid)).toEqual(['s1', 's3']);
    const hiddenSub = withPendingChanges(OUTLINE, [{ kind: 'hide', uuid: 'b' }]);
    expect(hiddenSub.sections[0]?.subsections.map((candidate) => candidate.uuid)).toEqual(['a', 'c']);
    const moved = withPendingChanges(OUTLINE, [{ kind: 'move-section', uuid: 's1', order: 3 }]);
    expect(moved.sections.map((candidate) => candidate.uuid)).toEqual(['s2', 's3', 's1']);
    const movedSub = withPendingChanges(OUTLINE, [
      { kind: 'move-subsection', sectionUuid: 's1', uuid: 'c', order: 1 },
    ]);
    expect(movedSub.sections[0]?.subsections.map((candidate) => candidate.uuid)).toEqual(['c', 'a', 'b']);
    // The live outline itself is never changed.
    expect(OUTLINE.sections.map((candidate) => candidate.uuid)).toEqual(['s1', 's2', 's3']);
  });
});

describe('split layout (SPEC.md W2)', () => {
  it('W2: the wide layout gives the chat 500 px (with half the gutter) in a wide split', () => {
    const [editor, chat] = wideChatSizes(2000);
    expect(editor + chat).toBeCloseTo(100, 6);
    expect((chat / 100) * 2000 - SPLIT_GUTTER_SIZE / 2).toBeCloseTo(CHAT_WIDE_PX, 1);
  });

  it('W2: in a narrow split the editor keeps its minimum; an unknown width keeps 65/35', () => {
    const [editor] = wideChatSizes(550);
    expect((editor / 100) * 550 - SPLIT_GUTTER_SIZE / 2).toBeCloseTo(SPLIT_MIN_SIZE, 1);
    expect(wideChatSizes(0)).toEqual([65, 35]);
    expect(wideChatSizes(Number.NaN)).toEqual([65, 35]);
  });

  it('W2: a double-click toggles 500 px and back to 65/35; from a dragged split it goes to 500 px', () => {
    const wide = toggleSplitLayout(DEFAULT_SPLIT_LAYOUT, 2000);
    expect(wide.mode).toBe('wide');
    expect(toggleSplitLayout(wide, 2000)).toBe(DEFAULT_SPLIT_LAYOUT);
    const dragged = draggedSplitLayout(DEFAULT_SPLIT_LAYOUT, [50, 50]);
    expect(dragged).toEqual({ mode: 'custom', sizes: [50, 50] });
    expect(toggleSplitLayout(dragged, 2000).mode).toBe('wide');
  });

  it('W2: dragged sizes are scaled to 100; garbage keeps the layout', () => {
    expect(draggedSplitLayout(DEFAULT_SPLIT_LAYOUT, [30, 10]).sizes).toEqual([75, 25]);
    expect(draggedSplitLayout(DEFAULT_SPLIT_LAYOUT, [Number.NaN, 10])).toBe(DEFAULT_SPLIT_LAYOUT);
    expect(draggedSplitLayout(DEFAULT_SPLIT_LAYOUT, [0, 0])).toBe(DEFAULT_SPLIT_LAYOUT);
    expect(draggedSplitLayout(DEFAULT_SPLIT_LAYOUT, [1])).toBe(DEFAULT_SPLIT_LAYOUT);
  });
});

describe('save badge (SPEC.md W8)', () => {
  const base = { status: 'idle', dirty: false, failure: null, retry: null } as const;

  it.each([
    [{ ...base, status: 'saving', dirty: true }, 'saving', 'Saving…'],
    [{ ...base, status: 'idle', dirty: true }, 'unsaved', 'Unsaved changes'],
    [{ ...base, status: 'saved' }, 'saved', 'Saved'],
    [{ ...base, status: 'idle' }, 'saved', 'Saved'],
    [{ ...base, status: 'error', dirty: true }, 'error', 'Error saving'],
  ] as const)('W8: %o is %s (%s)', (snapshot, state, label) => {
    expect(saveBadgeState(snapshot)).toBe(state);
    expect(saveBadgeLabel(state)).toBe(label);
  });

  it('W8: never Saved while dirty, whatever the status', () => {
    for (const status of ['idle', 'saving', 'saved', 'error'] as const) {
      expect(saveBadgeState({ ...base, status, dirty: true })).not.toBe('saved');
    }
  });

  it('W8: a failed first read is an error', () => {
    expect(saveBadgeState(base, true)).toBe('error');
  });

  it('W8: a network failure with a retry waiting says Offline — retrying; others say nothing more', () => {
    const failure = { kind: 'network', message: 'down', error: null } as const;
    expect(saveBadgeDetail({ ...base, status: 'error', failure, retry: { attempt: 1, at: 5 } })).toBe(
      'Offline — retrying',
    );
    expect(saveBadgeDetail({ ...base, status: 'error', failure, retry: null })).toBeNull();
    expect(
      saveBadgeDetail({
        ...base,
        status: 'error',
        failure: { ...failure, kind: 'rejected' },
        retry: { attempt: 1, at: 5 },
      }),
    ).toBeNull();
  });
});

describe('save failure text (SPEC.md W8)', () => {
  it('W8: the server’s detail rather than the raw body; else the failure’s message', () => {
    const error = new ApiError({ status: 400, data: { detail: 'Refused.' }, text: '{"detail":"Refused."}' });
    expect(saveFailureText({ kind: 'rejected', message: error.message, error })).toBe('Refused.');
    expect(saveFailureText({ kind: 'network', message: 'Network error', error: new TypeError('x') })).toBe(
      'Network error',
    );
  });
});

describe('title edits (SPEC.md W11, W17)', () => {
  it('W11: empty does nothing in the inline editor; W17: a dialog closes silently', () => {
    expect(titleEditDecision('   ', 'Acme', 'ignore')).toEqual({ kind: 'ignore' });
    expect(titleEditDecision('', 'Acme', 'close')).toEqual({ kind: 'close' });
  });

  it('W11/W17: the same title (after trimming) just closes', () => {
    expect(titleEditDecision('  Acme ', 'Acme', 'ignore')).toEqual({ kind: 'close' });
  });

  it('W11/W17: a new title is sent trimmed; a refused one says why', () => {
    expect(titleEditDecision(' Acme 2 ', 'Acme', 'ignore')).toEqual({ kind: 'send', title: 'Acme 2' });
    const long = titleEditDecision('x'.repeat(201), 'Acme', 'ignore');
    expect(long.kind).toBe('invalid');
    expect(titleEditDecision('a\u0007b', 'Acme', 'ignore').kind).toBe('invalid');
  });
});

describe('my version as text (SPEC.md W9)', () => {
  it('W9: titles, headings, lists, quotes and code read as Markdown-like text', () => {
    const text = plainTextOf({
      type: 'doc',
      content: [
        {
          type: 'section',
          content: [
            { type: 'sectionHeading', content: [{ type: 'text', text: 'Market' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Intro', marks: [{ type: 'bold' }] }] },
            {
              type: 'subsection',
              content: [
                { type: 'subsectionHeading', content: [{ type: 'text', text: 'Size' }] },
                { type: 'heading', attrs: { level: 4 }, content: [{ type: 'text', text: 'TAM' }] },
                {
                  type: 'bulletList',
                  content: [
                    {
                      type: 'listItem',
                      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }],
                    },
                  ],
                },
                {
                  type: 'blockquote',
                  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'q' }] }],
                },
                { type: 'codeBlock', content: [{ type: 'text', text: 'x = 1' }] },
              ],
            },
          ],
        },
      ],
    });
    expect(text).toBe('# Market\n\nIntro\n\n## Size\n\n#### TAM\n\n- one\n\n> q\n\n```\nx = 1\n```\n');
  });

  it('W9: anything at all gives text, never an error', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(typeof plainTextOf(value)).toBe('string');
      }),
    );
  });
});
