import { ACTIVITY_LEVELS, ACTIVITY_TEXTS, ACTIVITY_VISIBLE, activityView } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';

const entries = (count: number) => Array.from({ length: count }, (_, index) => ({ id: String(index) }));

describe('activityView (spec 000 §2, §9)', () => {
  it('shows "No activity yet." for an empty feed', () => {
    expect(activityView([], { expanded: false })).toEqual({
      items: [],
      toggleLabel: null,
      emptyText: 'No activity yet.',
    });
    expect(activityView([], { expanded: true }).emptyText).toBe(ACTIVITY_TEXTS.empty);
  });

  it('shows everything without a toggle up to 10 entries', () => {
    expect(ACTIVITY_VISIBLE).toBe(10);
    for (const count of [1, 9, 10]) {
      const view = activityView(entries(count), { expanded: false });
      expect(view.items).toHaveLength(count);
      expect(view.toggleLabel).toBeNull();
      expect(view.emptyText).toBeNull();
    }
  });

  it('shows the first 10 and "Show all N" when collapsed, everything and "Collapse" when expanded', () => {
    const all = entries(23);
    const collapsed = activityView(all, { expanded: false });
    expect(collapsed.items.map((e) => e.id)).toEqual(all.slice(0, 10).map((e) => e.id));
    expect(collapsed.toggleLabel).toBe('Show all 23');
    const expanded = activityView(all, { expanded: true });
    expect(expanded.items).toBe(all);
    expect(expanded.toggleLabel).toBe('Collapse');
    expect(activityView(entries(11), { expanded: false }).toggleLabel).toBe('Show all 11');
  });

  it('names the levels each panel reads', () => {
    expect(ACTIVITY_LEVELS).toEqual({ dashboard: { level: 1 }, document: { levelGte: 1, levelLte: 2 } });
  });
});
