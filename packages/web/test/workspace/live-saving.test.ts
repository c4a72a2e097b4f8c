import type { LiveDocumentSnapshot } from '@planwright/sdk/live';
import { LIVE_BUSY, LIVE_REFUSED, LIVE_SIGNED_OUT } from '@planwright/sdk/live';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { caretColor, caretElement, othersOnly } from '../../src/editor/live-carets';
import { liveSaveSnapshot } from '../../src/workspace/live-saving';
import { saveBadgeDetail, saveBadgeState } from '../../src/workspace/save-status';

const connected: LiveDocumentSnapshot = {
  status: 'connected',
  synced: true,
  saved: true,
  peers: [],
  error: null,
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
