import { NetworkError, RevisionConflictError, SaveController } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { createHarness, type Harness, settle } from './support/save-harness.js';

// S11's second half: a save that landed while its answer was lost (the server was killed after its commit),
// found again when a later save meets its revision. tests/integration/crash-recovery.test.ts does it for real.

const networkError = () =>
  new NetworkError({
    method: 'PATCH',
    url: 'http://plans.test/api/v1/documents/doc-1/',
    cause: new TypeError('fetch failed'),
  });
const conflictError = (current: number) =>
  new RevisionConflictError({
    status: 412,
    data: { detail: 'changed', code: 'revision_mismatch', current_revision: current },
  });

/** Lets the waiting retry (S8) start. */
function untilRetry(h: Harness): void {
  const at = h.snapshot().retry?.at;
  if (at === undefined) throw new Error('no retry is waiting');
  h.clock.advance(at - h.clock.now());
}

function loaded(): Harness {
  const h = createHarness();
  h.load('server', 1);
  return h;
}

describe('S11 a save of ours whose answer was lost', () => {
  it('S11: theirs equal to an unanswered save is ours: its revision becomes the base and newer edits are saved', async () => {
    const h = loaded();
    h.type('edit 1');
    h.clock.advance(1000);
    h.type('edit 2'); // made while the save is out
    await h.fail(networkError()); // 'edit 1' landed at revision 2, its answer lost
    untilRetry(h);
    await h.fail(conflictError(2)); // the retry, carrying 'edit 2' on revision 1, meets it
    h.fetches[0]?.resolve({ content: { text: 'edit 1' }, revision: 2 });
    await settle();
    expect(h.snapshot()).toMatchObject({ conflict: null, failure: null, dirty: true, status: 'saving' });
    // The draft names the new base, so a reload after a crash does not meet the same 412 again.
    expect(h.storedDraft()).toMatchObject({ content: { text: 'edit 2' }, baseRevision: 2 });
    h.clock.advance(1000);
    expect(h.only()).toMatchObject({ content: { text: 'edit 2' }, ifMatch: 2 });
    h.only().resolve({ revision: 3 });
    await settle();
    expect(h.snapshot()).toMatchObject({ status: 'saved', dirty: false, revision: 3 });
    expect(h.storedDraft()).toBeNull();
  });

  it('S11: the first unanswered save is found behind later ones that never landed', async () => {
    const h = loaded();
    h.type('cut by the crash');
    h.clock.advance(1000);
    await h.fail(networkError());
    for (let i = 0; i < 10; i++) {
      h.type(`typed while down ${i}`);
      // After the last attempt (S8) the edit starts a fresh series, debounced.
      if (h.snapshot().retry) untilRetry(h);
      else h.clock.advance(1000);
      await h.fail(networkError());
    }
    untilRetry(h);
    await h.fail(conflictError(2));
    expect(h.fetches).toHaveLength(1);
    h.fetches[0]?.resolve({ content: { text: 'cut by the crash' }, revision: 2 });
    await settle();
    expect(h.snapshot()).toMatchObject({ conflict: null, dirty: true });
  });

  it('S11: theirs equal to no save of ours stays a conflict', async () => {
    const h = loaded();
    h.type('edit 1');
    h.clock.advance(1000);
    await h.fail(networkError());
    untilRetry(h);
    await h.fail(conflictError(2));
    h.fetches[0]?.resolve({ content: { text: 'someone else' }, revision: 2 });
    await settle();
    expect(h.snapshot().conflict).toMatchObject({ theirs: { text: 'someone else' }, theirRevision: 2 });
  });

  it('S11: a save that failed on an older base is not ours on the new one', async () => {
    const h = loaded();
    h.type('old');
    h.clock.advance(1000);
    await h.fail(networkError());
    untilRetry(h);
    h.only().resolve({ revision: 2 }); // the retry of 'old' landed and was answered: the base moves on
    await settle();
    h.type('new');
    h.clock.advance(1000);
    await h.fail(conflictError(3));
    h.fetches[0]?.resolve({ content: { text: 'old' }, revision: 3 });
    await settle();
    expect(h.snapshot().conflict).toMatchObject({ theirs: { text: 'old' }, theirRevision: 3 });
  });
});

describe('S15 the default equality', () => {
  it('S11 S15: JSON equal whatever the order of keys (the server answers jsonb order)', () => {
    const storage = new Map<string, string>();
    const drafts = {
      read: () => {
        const raw = storage.get('d');
        return raw ? JSON.parse(raw) : null;
      },
      write: (draft: unknown) => void storage.set('d', JSON.stringify(draft)),
      clear: () => void storage.delete('d'),
    };
    drafts.write({ content: { type: 'text', text: 'same' }, baseRevision: 1, savedAt: 1 });
    const controller = new SaveController<unknown>({
      read: () => null,
      write: async () => ({ revision: 2 }),
      debounceMs: 1000,
      drafts,
    });
    controller.beginLoading();
    expect(controller.loaded({ text: 'same', type: 'text' }, 1)).toBeNull();
    expect(storage.size).toBe(0);
    controller.dispose();
  });
});
