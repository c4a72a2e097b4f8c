import type { LiveDocument, LiveDocumentSnapshot } from '@planwright/sdk/live';
import { LIVE_BUSY, LIVE_REFUSED, LIVE_SIGNED_OUT } from '@planwright/sdk/live';
import { ManualClock } from '@planwright/sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { caretColor, caretElement, caretName, othersOnly } from '../../src/editor/live-carets';
import {
  LIVE_HIDDEN_RELEASE_MS,
  LIVE_SAVED_SETTLE_MS,
  LiveSaving,
  liveSaveSnapshot,
} from '../../src/workspace/live-saving';
import { saveBadgeDetail, saveBadgeState } from '../../src/workspace/save-status';
import { SAVE_STATUS_TEXTS } from '../../src/workspace/workspace-texts';

const connected: LiveDocumentSnapshot = {
  status: 'connected',
  synced: true,
  saved: true,
  readOnly: false,
  peers: [],
  error: null,
  commentsRevision: 0,
};

const badge = (live: LiveDocumentSnapshot) => {
  const snapshot = liveSaveSnapshot(live);
  return [saveBadgeState(snapshot), saveBadgeDetail(snapshot)] as const;
};

describe('the save badge of a live plan (SPEC.md W40)', () => {
  it('says Saved once the server stored everything, and Saving… while it has not', () => {
    expect(badge(connected)).toEqual(['saved', null]);
    expect(badge({ ...connected, saved: false })).toEqual(['saving', null]);
  });

  it('offline with changes not stored yet: they are kept on this device, never a failure to act on', () => {
    const offline = liveSaveSnapshot({ ...connected, status: 'disconnected', saved: false });
    expect(saveBadgeState(offline)).toBe('error');
    expect(saveBadgeDetail(offline)).toBe('Offline — your changes are kept on this device');
    // The workspace's "Save failed" alert shows only for failures with no retry coming.
    expect(offline.retry).not.toBeNull();
    // Offline with nothing waiting is simply saved.
    expect(badge({ ...connected, status: 'disconnected' })).toEqual(['saved', null]);
  });

  it('a refused plan or an ended session is an error with the SDK words; busy waits like offline', () => {
    for (const [code, message] of [
      ['refused', LIVE_REFUSED],
      ['signed_out', LIVE_SIGNED_OUT],
    ] as const) {
      const snapshot = liveSaveSnapshot({ ...connected, synced: false, error: { code, message } });
      expect(snapshot.status).toBe('error');
      expect(snapshot.failure?.message).toBe(message);
      expect(snapshot.retry).toBeNull();
    }
    const busy = liveSaveSnapshot({
      ...connected,
      synced: false,
      saved: false,
      error: { code: 'busy', message: LIVE_BUSY },
    });
    expect(busy.failure?.message).toBe(LIVE_BUSY);
    expect(busy.retry).not.toBeNull();
  });

  it('never carries a revision or a conflict: REST calls beside a live plan send no If-Match', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('connecting', 'connected', 'disconnected' as const),
        fc.boolean(),
        fc.boolean(),
        (status, synced, saved) => {
          const snapshot = liveSaveSnapshot({ ...connected, status, synced, saved });
          expect(snapshot.revision).toBeNull();
          expect(snapshot.conflict).toBeNull();
          expect(snapshot.dirty).toBe(!saved);
        },
      ),
    );
  });
});

describe("the others' carets (SPEC.md W40)", () => {
  it('shows the name as text and only a plain colour, whatever another browser sends', () => {
    const caret = caretElement({ name: '<img src=x onerror=alert(1)>', color: 'red;background:url(x)' });
    expect(caret.querySelector('img')).toBeNull();
    expect(caret.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(caret.style.borderColor).toBe('#6b7280');
    expect(caretElement(null).textContent).toBe('Someone');
    expect(caretElement({ name: 'x'.repeat(500), color: '#2563eb' }).textContent).toHaveLength(80);
  });

  it("names you by your name, else your address's local part: never the whole address (readers may be strangers)", () => {
    expect(caretName({ name: ' Ada Lovelace ', email: 'ada@founders.example' })).toBe('Ada Lovelace');
    expect(caretName({ name: '', email: 'ada@founders.example' })).toBe('ada');
    expect(caretName({ name: null, email: '"a@b"@quoted.example' })).toBe('"a@b"');
    expect(caretName({ name: null, email: null })).toBe('Someone');
  });

  it('gives one person the same colour every time, from the palette', () => {
    fc.assert(
      fc.property(fc.string(), (key) => {
        expect(caretColor(key)).toBe(caretColor(key));
        expect(caretColor(key)).toMatch(/^#[0-9a-f]{6}$/);
      }),
    );
  });
});

describe("the caret plugin's view of awareness (E4)", () => {
  it("hears of other people's carets, never of one's own (which moves with every keystroke)", () => {
    const mine = new Awareness(new Y.Doc());
    const theirs = new Awareness(new Y.Doc());
    const view = othersOnly(mine);
    const heard: number[][] = [];
    const listener = ({ added, updated }: { added: number[]; updated: number[] }) => {
      heard.push([...added, ...updated]);
    };
    view.on('change', listener);
    mine.setLocalStateField('cursor', { anchor: 1, head: 1 });
    mine.setLocalStateField('cursor', { anchor: 2, head: 2 });
    expect(heard).toEqual([]);
    theirs.setLocalStateField('cursor', { anchor: 5, head: 5 });
    applyAwarenessUpdate(mine, encodeAwarenessUpdate(theirs, [theirs.clientID]), 'remote');
    expect(heard).toEqual([[theirs.clientID]]);
    expect(view.getStates().get(theirs.clientID)).toEqual({ cursor: { anchor: 5, head: 5 } });
    view.off('change', listener);
    theirs.setLocalStateField('cursor', { anchor: 6, head: 6 });
    applyAwarenessUpdate(mine, encodeAwarenessUpdate(theirs, [theirs.clientID]), 'remote');
    expect(heard).toHaveLength(1);
    mine.destroy();
    theirs.destroy();
  });
});

/** The part of a live document the saving reads: its snapshots, which the test sets. */
function liveSource(initial: LiveDocumentSnapshot) {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  const calls: string[] = [];
  const live = {
    connect: () => calls.push('connect'),
    disconnect: () => calls.push('disconnect'),
    getSnapshot: () => snapshot,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    live: live as unknown as LiveDocument,
    /** `connect` and `disconnect` as the saving called them. */
    calls,
    set(next: Partial<LiveDocumentSnapshot>) {
      snapshot = { ...snapshot, ...next };
      for (const listener of [...listeners]) listener();
    },
  };
}

describe('the live save badge while someone types (W40)', () => {
  it(`stays Saving… through a burst of stored keystrokes and says Saved ${LIVE_SAVED_SETTLE_MS} ms after the last`, () => {
    const clock = new ManualClock();
    const source = liveSource(connected);
    const saving = new LiveSaving({ live: source.live, close: () => {} }, clock);
    let changes = 0;
    const shown: string[] = [];
    saving.subscribe(() => {
      changes += 1;
      shown.push(saveBadgeState(saving.getSnapshot()));
    });
    expect(saveBadgeState(saving.getSnapshot())).toBe('saved');
    for (let key = 0; key < 20; key++) {
      source.set({ saved: false });
      // Not stored yet: dirty, so leaving would wait for it.
      expect(saving.getSnapshot().dirty).toBe(true);
      source.set({ saved: true });
      // Stored: nothing left to lose, though the badge still says Saving….
      expect(saving.getSnapshot().dirty).toBe(false);
      clock.advance(100);
    }
    expect(new Set(shown)).toEqual(new Set(['saving']));
    // The last keystroke was stored 100 ms ago.
    clock.advance(LIVE_SAVED_SETTLE_MS - 101);
    expect(saveBadgeState(saving.getSnapshot())).toBe('saving');
    clock.advance(1);
    expect(saveBadgeState(saving.getSnapshot())).toBe('saved');
    expect(changes).toBe(41);
    // Offline shows at once, never held back.
    source.set({ status: 'disconnected', saved: false });
    expect(saveBadgeDetail(saving.getSnapshot())).toBe(SAVE_STATUS_TEXTS.offlineKept);
    saving.dispose();
    source.set({ status: 'connected', saved: true });
    expect(clock.pending).toBe(0);
  });
});

describe('a hidden tab lets go of its live plan (W41)', () => {
  it(`disconnects after ${LIVE_HIDDEN_RELEASE_MS / 60_000} minutes hidden with everything stored, and syncs again once shown`, () => {
    const clock = new ManualClock();
    const source = liveSource(connected);
    const saving = new LiveSaving({ live: source.live, close: () => {} }, clock);
    // Shown again before the time is up: nothing happens.
    saving.setPageHidden(true);
    clock.advance(LIVE_HIDDEN_RELEASE_MS - 1);
    saving.setPageHidden(false);
    clock.advance(LIVE_HIDDEN_RELEASE_MS);
    expect(source.calls).toEqual([]);
    // Hidden with a change not stored yet: it keeps the connection to send it, and lets go once it is stored.
    saving.setPageHidden(true);
    source.set({ saved: false });
    clock.advance(LIVE_HIDDEN_RELEASE_MS);
    expect(source.calls).toEqual([]);
    source.set({ status: 'connecting' });
    expect(source.calls).toEqual([]);
    source.set({ status: 'connected', saved: true });
    expect(source.calls).toEqual(['disconnect']);
    source.set({ status: 'disconnected' });
    // Let go, everything is stored: the badge still says so.
    clock.advance(LIVE_SAVED_SETTLE_MS);
    expect(saveBadgeState(saving.getSnapshot())).toBe('saved');
    saving.setPageHidden(false);
    expect(source.calls).toEqual(['disconnect', 'connect']);
    // Hidden again past the time with something unsent, then shown: it stays, and nothing is left waiting.
    saving.setPageHidden(true);
    source.set({ status: 'connected', saved: false });
    clock.advance(LIVE_HIDDEN_RELEASE_MS);
    saving.setPageHidden(false);
    source.set({ saved: true });
    expect(source.calls).toEqual(['disconnect', 'connect']);
    // Hidden again, then the page goes: no timer is left behind.
    saving.setPageHidden(true);
    saving.dispose();
    expect(clock.pending).toBe(0);
  });
});
