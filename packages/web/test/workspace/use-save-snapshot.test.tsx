import type { SaveSnapshot } from '@planwright/sdk';
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pageSaveState, samePageSaveState } from '../../src/workspace/save-status';
import { useSaveSnapshot } from '../../src/workspace/use-autosave';

const saved: SaveSnapshot<string> = {
  status: 'saved',
  dirty: false,
  loading: false,
  revision: null,
  inFlight: false,
  conflict: null,
  failure: null,
  retry: null,
  restoredDraft: null,
  lastSavedAt: null,
};

/** A save's snapshots as a live plan makes them: one per change, each a new object. */
function saveStore() {
  let snapshot = saved;
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    set(next: Partial<SaveSnapshot<string>>) {
      snapshot = { ...snapshot, ...next };
      for (const listener of listeners) listener();
    },
  };
}

describe('useSaveSnapshot (the workspace page re-renders only for what it shows)', () => {
  it('a keystroke\'s "Saving…" and "Saved" re-render nothing; a failure to act on and a conflict do', () => {
    const store = saveStore();
    const seen: ReturnType<typeof pageSaveState<string>>[] = [];
    function Page() {
      seen.push(useSaveSnapshot(store, pageSaveState<string>, samePageSaveState));
      return null;
    }
    render(<Page />);
    const renders = seen.length;
    act(() => {
      for (let key = 0; key < 50; key++) {
        store.set({ status: 'saving', dirty: true });
        store.set({ status: 'saved', dirty: false });
      }
    });
    expect(seen.length).toBe(renders);
    // An offline failure that retries by itself is the badge's, not the page's.
    const offline = { kind: 'network', message: 'offline', error: null } as const;
    act(() => store.set({ status: 'error', failure: offline, retry: { attempt: 1, at: 0 } }));
    expect(seen.length).toBe(renders);
    const rejected = { kind: 'rejected', message: 'Too large', error: null } as const;
    act(() => store.set({ status: 'error', failure: rejected, retry: null }));
    expect(seen.length).toBe(renders + 1);
    expect(seen.at(-1)?.failure).toBe(rejected);
    act(() => store.set({ status: 'saving', failure: null }));
    expect(seen.at(-1)?.failure).toBeNull();
  });
});
