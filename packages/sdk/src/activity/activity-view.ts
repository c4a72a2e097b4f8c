/** Spec 000 §9: how many activity entries show before "Show all N". */
export const ACTIVITY_VISIBLE = 10;

/** Spec 000 §2, §9: the levels each screen's Recent Activity panel reads. */
export const ACTIVITY_LEVELS = {
  /** The dashboard: level 1 only. */
  dashboard: { level: 1 },
  /** A document's page: levels 1 to 2. */
  document: { levelGte: 1, levelLte: 2 },
} as const;

/** Spec 000 §2 "Activity list". */
export const ACTIVITY_TEXTS = {
  empty: 'No activity yet.',
  collapse: 'Collapse',
  loadFailed: 'Failed to load activity',
} as const;

/** Spec 000 §2: the toggle's label when collapsed. */
export function showAllLabel(count: number): string {
  return `Show all ${count}`;
}

/** What an activity panel shows. */
export interface ActivityView<T> {
  /** The entries to render. */
  items: readonly T[];
  /** `Show all N`, `Collapse`, or `null` when everything fits. */
  toggleLabel: string | null;
  /** `No activity yet.` when there are no entries, else `null`. */
  emptyText: string | null;
}

/**
 * Spec 000 §2 "Activity list": the first 10 entries with a `Show all N` toggle (N is the number of
 * entries), all of them with `Collapse` when expanded; no toggle when 10 or fewer.
 */
export function activityView<T>(activities: readonly T[], options: { expanded: boolean }): ActivityView<T> {
  const count = activities.length;
  if (count === 0) return { items: [], toggleLabel: null, emptyText: ACTIVITY_TEXTS.empty };
  if (count <= ACTIVITY_VISIBLE) return { items: activities, toggleLabel: null, emptyText: null };
  return options.expanded
    ? { items: activities, toggleLabel: ACTIVITY_TEXTS.collapse, emptyText: null }
    : { items: activities.slice(0, ACTIVITY_VISIBLE), toggleLabel: showAllLabel(count), emptyText: null };
}
