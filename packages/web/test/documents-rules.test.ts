import type { BlueprintSummary, DocumentSummary } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { documentStats } from '../src/documents/document-stats';
import { newDocumentSelection } from '../src/documents/new-document-flow';
import { pageCount } from '../src/ui/pagination';
import { renameDecision } from '../src/ui/rename-decision';
import { shownTime } from '../src/ui/shown-time';

function blueprint(overrides: Partial<BlueprintSummary> = {}): BlueprintSummary {
  return {
    uuid: 'bp-1',
    title: 'Seed round plan',
    description: '',
    status: 'published',
    version: 1,
    visibility: 'public',
    allowed_orgs: [],
    published_at: null,
    system_prompt: '',
    sections_count: 1,
    sections: [],
    user: { username: 'ada', first_name: 'Ada', last_name: '' },
    owner: { username: 'ada' },
    publisher: null,
    is_owner: true,
    is_default: false,
    revision: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const preferred = blueprint({
  uuid: 'bp-default',
  title: 'Business Plan',
  publisher: 'Planwright Studio',
  owner: null,
  user: null,
  is_owner: false,
  is_default: true,
});
const own = blueprint({ uuid: 'bp-own' });
const impostor = blueprint({ uuid: 'bp-impostor', title: 'Business Plan' });

describe('new-document selection (SPEC.md ND2–ND5)', () => {
  it('ND2: the preferred blueprint is selected when it is in the list, wherever it is', () => {
    const selection = newDocumentSelection({ blueprints: [own, impostor, preferred], failed: false }, null);
    expect(selection.selected).toBe('bp-default');
    expect(selection).toMatchObject({
      source: { kind: 'blueprint', uuid: 'bp-default' },
      notice: null,
      message: null,
      canCreate: true,
    });
  });

  it('ND2: otherwise the first; a blueprint merely titled "Business Plan" is not the preferred one', () => {
    expect(newDocumentSelection({ blueprints: [own, impostor], failed: false }, null).selected).toBe(
      'bp-own',
    );
  });

  it("ND2: the user's pick wins while it is offered, and falls back when it no longer is", () => {
    const choices = { blueprints: [own, preferred], failed: false };
    expect(newDocumentSelection(choices, 'bp-own').selected).toBe('bp-own');
    expect(newDocumentSelection(choices, 'bp-gone').selected).toBe('bp-default');
  });

  it('ND3: while the first list loads nothing is selected and nothing can be created', () => {
    expect(newDocumentSelection({ blueprints: undefined, failed: false }, 'bp-default')).toEqual({
      options: [],
      selected: null,
      source: null,
      notice: 'loading',
      message: null,
      canCreate: false,
    });
  });

  it('ND4: a failed load keeps the list that loaded before, so the preferred one stays selected', () => {
    const selection = newDocumentSelection({ blueprints: [own, preferred], failed: true }, null);
    expect(selection).toMatchObject({
      selected: 'bp-default',
      source: { kind: 'blueprint', uuid: 'bp-default' },
      notice: 'failed',
      message: 'An error occurred fetching blueprints.',
      canCreate: true,
    });
  });

  it('ND4: a failed first load says so and selects the default template: Create works, no uuid to send', () => {
    expect(newDocumentSelection({ blueprints: undefined, failed: true }, 'bp-default')).toEqual({
      options: [],
      selected: null,
      source: { kind: 'default-template' },
      notice: 'failed',
      message: 'An error occurred fetching blueprints.',
      canCreate: true,
    });
  });

  it('ND4: an empty list says so and selects the default template', () => {
    expect(newDocumentSelection({ blueprints: [], failed: false }, 'bp-gone')).toEqual({
      options: [],
      selected: null,
      source: { kind: 'default-template' },
      notice: 'empty',
      message: 'No blueprints available. Using default template.',
      canCreate: true,
    });
  });

  it('ND4: an empty list read before, then a failed reload: the error, and still the default template', () => {
    expect(newDocumentSelection({ blueprints: [], failed: true }, null)).toMatchObject({
      source: { kind: 'default-template' },
      notice: 'failed',
      canCreate: true,
    });
  });

  it('ND5: Create is disabled while a creation is running, the default template included', () => {
    expect(newDocumentSelection({ blueprints: [preferred], failed: false }, null, true).canCreate).toBe(
      false,
    );
    expect(newDocumentSelection({ blueprints: [], failed: false }, null, true).canCreate).toBe(false);
  });
});

describe('rename decision (SPEC.md RN3, RN4)', () => {
  const validate = (title: string) => (title.trim() === '' ? 'Title cannot be empty' : undefined);

  it('RN3: a refused title is not sent', () => {
    expect(renameDecision('   ', 'Acme', validate)).toEqual({
      kind: 'invalid',
      message: 'Title cannot be empty',
    });
  });

  it('RN4: the same title closes without a call; anything else is sent trimmed', () => {
    expect(renameDecision(' Acme ', 'Acme', validate)).toEqual({ kind: 'unchanged' });
    expect(renameDecision('  مرحبا 🚀 ', 'Acme', validate)).toEqual({ kind: 'send', title: 'مرحبا 🚀' });
  });
});

describe('document stats (SPEC.md DS1)', () => {
  const now = Date.UTC(2026, 0, 15, 9);
  const doc = (finalized: number, total: number, created: string) =>
    ({ progress: { finalized, total, percent: 0 }, created_at: created }) as DocumentSummary;

  it('DS1: finalized of all subsections, the mean of the percentages, and what is new this week', () => {
    expect(
      documentStats(
        [
          doc(1, 4, '2026-01-14T09:00:00Z'),
          doc(4, 4, '2026-01-01T09:00:00Z'),
          doc(0, 0, 'not a date'),
          doc(0, 2, '2026-01-15T09:01:00Z'),
        ],
        now,
      ),
    ).toEqual({ finalized: 5, total: 10, averagePercent: 31, newThisWeek: 2 });
  });

  it('DS1: nothing at all is zeros, never NaN', () => {
    expect(documentStats([], now)).toEqual({ finalized: 0, total: 0, averagePercent: 0, newThisWeek: 0 });
  });
});

describe('shown times and pages', () => {
  const now = Date.UTC(2026, 0, 15, 9);

  it('reads relative while recent, the date from a week on, and never "Invalid Date"', () => {
    expect(shownTime('2026-01-15T08:59:30Z', now).label).toBe('just now');
    expect(shownTime('2026-01-15T09:02:00Z', now).label).toBe('just now');
    expect(shownTime('2026-01-15T08:55:00Z', now).label).toBe('5 minutes ago');
    expect(shownTime('2026-01-15T06:00:00Z', now).label).toBe('3 hours ago');
    expect(shownTime('2026-01-14T08:00:00Z', now).label).toBe('yesterday');
    expect(shownTime('2026-01-12T09:00:00Z', now).label).toBe('3 days ago');
    expect(shownTime('2025-12-01T12:00:00Z', now).label).toBe('1 Dec 2025');
    expect(shownTime('2026-01-15T08:55:00Z', now).iso).toBe('2026-01-15T08:55:00.000Z');
    expect(shownTime('<img src=x>', now)).toEqual({ label: '<img src=x>', exact: '', iso: undefined });
    // Meant to be ahead (an invitation's expiry): forward, then the date from a week away.
    expect(shownTime('2026-01-15T09:30:00Z', now).label).toBe('in 30 minutes');
    expect(shownTime('2026-01-15T12:00:00Z', now).label).toBe('in 3 hours');
    expect(shownTime('2026-01-16T09:00:00Z', now).label).toBe('tomorrow');
    expect(shownTime('2026-01-29T09:00:00Z', now).label).toBe('29 Jan 2026');
  });

  it('counts pages, at least one', () => {
    expect([pageCount(0, 20), pageCount(20, 20), pageCount(21, 20)]).toEqual([1, 1, 2]);
  });
});
