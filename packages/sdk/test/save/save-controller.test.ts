import {
  AbortedError,
  ApiError,
  AuthRequiredError,
  BLUEPRINT_SAVE_DEBOUNCE_MS,
  createStorageDraftStore,
  DOCUMENT_SAVE_DEBOUNCE_MS,
  NetworkError,
  ResponseValidationError,
  RevisionConflictError,
  SAVE_WRITE_TIMEOUT_MS,
  SAVED_TO_IDLE_MS,
  SaveController,
  type SaveStatus,
} from '@planwright/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createHarness,
  type Doc,
  DRAFT_KEY,
  FakeStorage,
  type Harness,
  isDoc,
  settle,
} from './support/save-harness.js';

const networkError = () =>
  new NetworkError({
    method: 'PATCH',
    url: 'http://plans.test/api/v1/documents/doc-1/',
    cause: new TypeError('fetch failed'),
  });
const conflictError = (current: number | null) =>
  new RevisionConflictError({
    status: 412,
    data: {
      detail: 'This document was changed since you loaded it.',
      code: 'revision_mismatch',
      ...(current === null ? {} : { current_revision: current }),
    },
  });
const rejectedError = () =>
  new ApiError({ status: 400, text: 'Invalid content', data: { detail: 'Invalid content' } });

/** A harness with the document loaded at revision 1, showing "server". */
function loaded(options: Parameters<typeof createHarness>[0] = {}): Harness {
  const h = createHarness(options);
  h.load('server', 1);
  return h;
}

/** Records every status the controller shows, without repeats. */
function statusTrail(h: Harness): SaveStatus[] {
  const trail: SaveStatus[] = [h.snapshot().status];
  h.controller.subscribe(() => {
    const { status } = h.snapshot();
    if (trail[trail.length - 1] !== status) trail.push(status);
  });
  return trail;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('S1 constants', () => {
  it('S1: documents debounce 1000 ms, blueprints 800 ms, saved turns idle after 800 ms', () => {
    expect(DOCUMENT_SAVE_DEBOUNCE_MS).toBe(1000);
    expect(BLUEPRINT_SAVE_DEBOUNCE_MS).toBe(800);
    expect(SAVED_TO_IDLE_MS).toBe(800);
  });

  it('S1: refuses timings that are not finite non-negative numbers', () => {
    const base = { read: () => 1, write: async () => ({ revision: 1 }) };
    expect(() => new SaveController({ ...base, debounceMs: Number.NaN })).toThrow(RangeError);
    expect(() => new SaveController({ ...base, debounceMs: -1 })).toThrow(RangeError);
    expect(() => new SaveController({ ...base, debounceMs: 10, retry: { maxMs: Infinity } })).toThrow(
      RangeError,
    );
  });
});

describe('S2 edit and debounce', () => {
  it('S2: an edit sets saving and dirty without reading the content', () => {
    const h = loaded();
    const reads = h.editor.reads;
    h.type('a');
    expect(h.snapshot()).toMatchObject({ status: 'saving', dirty: true, inFlight: false });
    expect(h.editor.reads).toBe(reads);
    expect(h.writes).toHaveLength(0);
  });

  it('S2: every edit restarts the document debounce of 1000 ms', () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(600);
    h.type('ab');
    h.clock.advance(999);
    expect(h.writes).toHaveLength(0);
    h.clock.advance(1);
    expect(h.writes).toHaveLength(1);
    expect(h.only().content).toEqual({ text: 'ab' });
  });

  it('S2: a blueprint controller saves 800 ms after the last edit', () => {
    const h = loaded({ debounceMs: BLUEPRINT_SAVE_DEBOUNCE_MS });
    h.type('a');
    h.clock.advance(799);
    expect(h.writes).toHaveLength(0);
    h.clock.advance(1);
    expect(h.writes).toHaveLength(1);
  });
});

describe('S3 save start', () => {
  it('S3: reads once, stores the draft, and writes with If-Match = the loaded revision', () => {
    const h = loaded();
    h.type('hello');
    const reads = h.editor.reads;
    h.clock.advance(1000);
    expect(h.editor.reads).toBe(reads + 1);
    expect(h.only()).toMatchObject({ content: { text: 'hello' }, ifMatch: 1, keepalive: false });
    expect(h.only().signal).toBeInstanceOf(AbortSignal);
    expect(h.storedDraft()).toEqual({ content: { text: 'hello' }, baseRevision: 1, savedAt: h.clock.now() });
    expect(h.snapshot()).toMatchObject({ status: 'saving', dirty: true, inFlight: true });
  });

  it('S3: a resource without a known revision is written without If-Match', () => {
    const h = createHarness();
    h.load('server', null);
    h.type('x');
    h.clock.advance(1000);
    expect(h.only().ifMatch).toBeNull();
  });
});

describe('S4 one save at a time', () => {
  it('S4: edits during a save are squashed into exactly one follow-up, sent with the revision it answered', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.type('ab');
    h.clock.advance(400);
    h.type('abc');
    h.clock.advance(5000); // the debounce ends during the flight: it waits
    expect(h.writes).toHaveLength(1);
    await h.succeed(2);
    expect(h.writes).toHaveLength(2);
    expect(h.only()).toMatchObject({ content: { text: 'abc' }, ifMatch: 2 });
    await h.succeed(3);
    h.clock.advance(60_000);
    expect(h.writes).toHaveLength(2);
    expect(h.snapshot()).toMatchObject({ status: 'idle', dirty: false, revision: 3 });
  });

  it('S4: when the flight ends before the debounce, the follow-up still waits for the debounce', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.clock.advance(100);
    h.type('ab');
    await h.succeed(2);
    expect(h.writes).toHaveLength(1);
    expect(h.snapshot()).toMatchObject({ status: 'saving', dirty: true, inFlight: false });
    h.clock.advance(999);
    expect(h.writes).toHaveLength(1);
    h.clock.advance(1);
    expect(h.only()).toMatchObject({ content: { text: 'ab' }, ifMatch: 2 });
  });
});

describe('S5 success and statuses', () => {
  it('S5: idle → saving (dirty) → saved → idle after 800 ms', async () => {
    const h = loaded();
    const trail = statusTrail(h);
    h.type('a');
    expect(h.snapshot().dirty).toBe(true);
    h.clock.advance(1000);
    await h.succeed(2);
    expect(h.snapshot()).toMatchObject({
      status: 'saved',
      dirty: false,
      revision: 2,
      lastSavedAt: h.clock.now(),
    });
    h.clock.advance(799);
    expect(h.snapshot().status).toBe('saved');
    h.clock.advance(1);
    expect(trail).toEqual(['idle', 'saving', 'saved', 'idle']);
  });

  it('S5: never saved while dirty: an edit during the save keeps saving', async () => {
    const h = loaded();
    const seen: Array<{ status: SaveStatus; dirty: boolean }> = [];
    h.controller.subscribe(() => seen.push({ status: h.snapshot().status, dirty: h.snapshot().dirty }));
    h.type('a');
    h.clock.advance(1000);
    h.type('ab');
    await h.succeed(2);
    expect(h.snapshot()).toMatchObject({ status: 'saving', dirty: true, revision: 2 });
    h.clock.advance(1000);
    await h.succeed(3);
    expect(h.snapshot()).toMatchObject({ status: 'saved', dirty: false });
    expect(seen.some((s) => s.status === 'saved' && s.dirty)).toBe(false);
  });

  it('S5: an edit while saved sets saving and cancels the switch to idle', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.succeed(2);
    h.clock.advance(500);
    h.type('ab');
    expect(h.snapshot().status).toBe('saving');
    h.clock.advance(300);
    expect(h.snapshot().status).toBe('saving');
    h.clock.advance(700);
    expect(h.only().content).toEqual({ text: 'ab' });
  });

  it('S5: a success clears the previous failure', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(rejectedError());
    expect(h.snapshot().failure?.kind).toBe('rejected');
    h.type('ab');
    h.clock.advance(1000);
    await h.succeed(2);
    expect(h.snapshot()).toMatchObject({ status: 'saved', failure: null });
  });
});

describe('S6 forced save', () => {
  it('S6: flush saves at once, cancels the debounce, and resolves true when confirmed', async () => {
    const h = loaded();
    h.type('a');
    const done = h.controller.flush();
    expect(h.only().content).toEqual({ text: 'a' });
    await h.succeed(2);
    await expect(done).resolves.toBe(true);
    h.clock.advance(5000);
    expect(h.writes).toHaveLength(1);
  });

  it('S6: flush with nothing unsaved resolves true without writing', async () => {
    const h = loaded();
    await expect(h.controller.flush()).resolves.toBe(true);
    expect(h.writes).toHaveLength(0);
  });

  it('S6: flush during a save stores the draft now, waits, then saves the rest', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.type('ab');
    const done = h.controller.flush();
    expect(h.storedDraft()?.content).toEqual({ text: 'ab' });
    let result: boolean | undefined;
    void done.then((ok) => {
      result = ok;
    });
    await h.succeed(2);
    expect(result).toBeUndefined();
    expect(h.only()).toMatchObject({ content: { text: 'ab' }, ifMatch: 2 });
    await h.succeed(3);
    expect(result).toBe(true);
  });

  it('S6: a flush that covers the save in flight resolves with that save', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    const done = h.controller.flush();
    await h.succeed(2);
    await expect(done).resolves.toBe(true);
    expect(h.writes).toHaveLength(1);
  });

  it('S6: flush resolves false when the save fails', async () => {
    const h = loaded();
    h.type('a');
    const done = h.controller.flush();
    await h.fail(networkError());
    await expect(done).resolves.toBe(false);
  });

  it('S6: flush writes the draft synchronously even when the save cannot start (loading)', async () => {
    const h = loaded();
    h.type('a');
    h.controller.beginLoading();
    h.storage.items.clear();
    h.editor.text = 'typed while loading';
    const done = h.controller.flush();
    expect(h.storedDraft()?.content).toEqual({ text: 'typed while loading' });
    await expect(done).resolves.toBe(false);
  });
});

describe('S7 failure kinds', () => {
  const cases: Array<[string, () => unknown, 'network' | 'rejected' | 'conflict']> = [
    ['a NetworkError', networkError, 'network'],
    ['a 503', () => new ApiError({ status: 503 }), 'network'],
    ['a 429', () => new ApiError({ status: 429 }), 'network'],
    [
      'a timed-out request',
      () => new AbortedError({ reason: new DOMException('t', 'TimeoutError') }),
      'network',
    ],
    ['a 400', rejectedError, 'rejected'],
    ['a 404', () => new ApiError({ status: 404 }), 'rejected'],
    ['a 401', () => new AuthRequiredError({ status: 401 }), 'rejected'],
    [
      'an answer that fails validation',
      () => new ResponseValidationError({ issues: [], data: null }),
      'rejected',
    ],
    ['a plain Error', () => new Error('boom'), 'rejected'],
    ['a thrown string', () => 'nope', 'rejected'],
    ['undefined', () => undefined, 'rejected'],
    ['a 412', () => conflictError(5), 'conflict'],
  ];

  it.each(cases)('S7: %s is a %s failure with a message', async (_name, error, kind) => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(error());
    const { failure, status } = h.snapshot();
    expect(status).toBe('error');
    expect(failure?.kind).toBe(kind);
    expect(failure?.message.trim()).not.toBe('');
  });

  it('S7: an error whose message getter throws still gives a message', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    const hostile = Object.defineProperty({}, 'message', {
      get() {
        throw new Error('gotcha');
      },
    });
    await h.fail(hostile);
    expect(h.snapshot().failure).toMatchObject({ kind: 'rejected', message: 'Failed to save changes' });
  });
});

describe('S8 network failures', () => {
  it('S8: retries with exponential backoff and full jitter, bounded, keeping the draft', async () => {
    const h = loaded({ retry: { baseMs: 1000, maxMs: 4000, maxAttempts: 3 }, random: () => 0.5 });
    h.type('a');
    h.clock.advance(1000);
    const start = h.clock.now();
    await h.fail(networkError());
    expect(h.snapshot()).toMatchObject({
      status: 'error',
      dirty: true,
      retry: { attempt: 1, at: start + 500 },
    });
    expect(h.storedDraft()?.content).toEqual({ text: 'a' });
    h.clock.advance(499);
    expect(h.open()).toHaveLength(0);
    h.clock.advance(1);
    expect(h.snapshot().status).toBe('saving');
    await h.fail(networkError());
    expect(h.snapshot().retry).toEqual({ attempt: 2, at: h.clock.now() + 1000 });
    h.clock.advance(1000);
    await h.fail(networkError());
    expect(h.snapshot().retry).toEqual({ attempt: 3, at: h.clock.now() + 2000 });
    h.clock.advance(2000);
    await h.fail(networkError());
    // Attempts are spent: no more automatic writes, the error stays, the draft stays.
    expect(h.snapshot()).toMatchObject({ status: 'error', retry: null, dirty: true });
    h.clock.advance(10 * 60_000);
    expect(h.writes).toHaveLength(4);
    expect(h.storedDraft()?.content).toEqual({ text: 'a' });
  });

  it('S8: the delay is capped at maxMs and scaled by random()', async () => {
    const draws = [0, 0.999, 0.25];
    const h = loaded({
      retry: { baseMs: 1000, maxMs: 1500, maxAttempts: 5 },
      random: () => draws.shift() ?? 0,
    });
    h.type('a');
    h.clock.advance(1000);
    await h.fail(networkError());
    expect(h.snapshot().retry?.at).toBe(h.clock.now());
    h.clock.advance(0);
    await h.fail(networkError());
    expect(h.snapshot().retry?.at).toBe(h.clock.now() + Math.floor(0.999 * 1500));
  });

  it('S8: edits while a retry waits join it instead of saving on their own', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(networkError());
    h.type('ab');
    expect(h.snapshot()).toMatchObject({ status: 'error', dirty: true });
    h.clock.advance(499);
    expect(h.open()).toHaveLength(0);
    h.clock.advance(1);
    expect(h.only().content).toEqual({ text: 'ab' });
  });

  it('S8: after the last attempt, an edit starts a fresh series', async () => {
    const h = loaded({ retry: { maxAttempts: 0 } });
    h.type('a');
    h.clock.advance(1000);
    await h.fail(networkError());
    expect(h.snapshot().retry).toBeNull();
    h.type('ab');
    expect(h.snapshot().status).toBe('saving');
    h.clock.advance(1000);
    expect(h.only().content).toEqual({ text: 'ab' });
  });

  it('S8: retryNow saves at once and a success resets the count', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(networkError());
    h.clock.advance(500);
    await h.fail(networkError());
    expect(h.snapshot().retry?.attempt).toBe(2);
    h.controller.retryNow();
    expect(h.open()).toHaveLength(1);
    await h.succeed(2);
    h.type('ab');
    h.clock.advance(1000);
    await h.fail(networkError());
    expect(h.snapshot().retry?.attempt).toBe(1);
  });
});

describe('S9 rejected saves', () => {
  it('S9: no automatic retry; the next edit saves after the debounce', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(rejectedError());
    expect(h.snapshot()).toMatchObject({ status: 'error', retry: null, dirty: true });
    expect(h.storedDraft()?.content).toEqual({ text: 'a' });
    h.clock.advance(10 * 60_000);
    expect(h.writes).toHaveLength(1);
    h.type('ab');
    h.clock.advance(1000);
    expect(h.only().content).toEqual({ text: 'ab' });
  });

  it('S9: flush and retryNow save at once', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(rejectedError());
    h.controller.retryNow();
    expect(h.open()).toHaveLength(1);
    await h.fail(rejectedError());
    const done = h.controller.flush();
    await h.succeed(2);
    await expect(done).resolves.toBe(true);
  });
});

describe('S10 conflicts', () => {
  async function conflicted(options: Parameters<typeof createHarness>[0] = {}) {
    const h = loaded(options);
    h.type('mine');
    h.clock.advance(1000);
    h.type('mine, more');
    await h.fail(conflictError(4));
    return h;
  }

  it('S10: a 412 overwrites nothing and reports both versions', async () => {
    const h = await conflicted();
    expect(h.snapshot()).toMatchObject({
      status: 'error',
      dirty: true,
      failure: { kind: 'conflict', message: 'This document was changed since you loaded it.' },
      conflict: { mine: { text: 'mine, more' }, theirs: null, theirRevision: 4 },
    });
    expect(h.fetches).toHaveLength(1);
    h.fetches[0]?.resolve({ content: { text: 'theirs' }, revision: 5 });
    await settle();
    expect(h.snapshot().conflict).toEqual({
      mine: { text: 'mine, more' },
      theirs: { text: 'theirs' },
      theirRevision: 5,
    });
    expect(h.snapshot().revision).toBe(5);
    h.clock.advance(10 * 60_000);
    expect(h.writes).toHaveLength(1);
  });

  it('S10: the draft keeps mine with the old base revision', async () => {
    const h = await conflicted();
    expect(h.storedDraft()).toMatchObject({ content: { text: 'mine, more' }, baseRevision: 1 });
  });

  it('S10: autosave pauses: edits schedule nothing, flush stores the draft and says false, retryNow waits', async () => {
    const h = await conflicted();
    h.type('mine, even more');
    h.clock.advance(5000);
    h.controller.retryNow();
    expect(h.writes).toHaveLength(1);
    expect(h.snapshot()).toMatchObject({ status: 'error', dirty: true });
    await expect(h.controller.flush()).resolves.toBe(false);
    expect(h.storedDraft()?.content).toEqual({ text: 'mine, even more' });
    expect(h.writes).toHaveLength(1);
  });

  it('S10: without fetchLatest theirs stays null; a failed fetch too', async () => {
    const h = await conflicted({ noFetchLatest: true });
    expect(h.snapshot().conflict).toMatchObject({ theirs: null, theirRevision: 4 });
    const g = await conflicted();
    g.fetches[0]?.reject(networkError());
    await settle();
    expect(g.snapshot().conflict).toMatchObject({ theirs: null, theirRevision: 4 });
  });

  it('S10: mine falls back to the content sent when read() throws at the 412', async () => {
    let broken = false;
    let text = 'sent';
    const h = loaded({
      read: () => {
        if (broken) throw new Error('editor destroyed');
        return { text };
      },
    });
    h.controller.edit();
    h.clock.advance(1000);
    text = 'unreadable';
    broken = true;
    await h.fail(conflictError(4));
    expect(h.snapshot().conflict?.mine).toEqual({ text: 'sent' });
  });
});

describe('S11 a conflict with ourselves', () => {
  it('S11: when theirs equals mine the conflict resolves by itself', async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(networkError()); // the write landed, its answer was lost
    h.clock.advance(500);
    await h.fail(conflictError(2));
    h.fetches[0]?.resolve({ content: { text: 'mine' }, revision: 2 });
    await settle();
    expect(h.snapshot()).toMatchObject({
      status: 'saved',
      dirty: false,
      conflict: null,
      failure: null,
      revision: 2,
    });
    expect(h.storedDraft()).toBeNull();
    h.type('mine 2');
    h.clock.advance(1000);
    expect(h.only().ifMatch).toBe(2);
  });

  it('S11: edits made meanwhile are saved next, against their revision', async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(2));
    h.type('mine plus');
    h.fetches[0]?.resolve({ content: { text: 'mine' }, revision: 2 });
    await settle();
    expect(h.snapshot()).toMatchObject({ status: 'saving', dirty: true, conflict: null });
    h.clock.advance(1000);
    expect(h.only()).toMatchObject({ content: { text: 'mine plus' }, ifMatch: 2 });
  });
});

describe('S12 resolving a conflict', () => {
  async function withTheirs() {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(4));
    h.fetches[0]?.resolve({ content: { text: 'theirs' }, revision: 4 });
    await settle();
    return h;
  }

  it("S12: 'mine' overwrites with If-Match = their revision and resolves like flush", async () => {
    const h = await withTheirs();
    h.editor.text = 'mine, final';
    const done = h.controller.resolveConflict('mine');
    expect(h.only()).toMatchObject({ content: { text: 'mine, final' }, ifMatch: 4 });
    expect(h.snapshot()).toMatchObject({ conflict: null, failure: null, status: 'saving' });
    await h.succeed(5);
    await expect(done).resolves.toBe(true);
    expect(h.storedDraft()).toBeNull();
  });

  it("S12: 'mine' meeting another 412 gives a new conflict", async () => {
    const h = await withTheirs();
    const done = h.controller.resolveConflict('mine');
    await h.fail(conflictError(6));
    await expect(done).resolves.toBe(false);
    expect(h.snapshot().conflict?.theirRevision).toBe(6);
  });

  it("S12: 'theirs' returns theirs, discards the draft and suppresses saving until loaded()", async () => {
    const h = await withTheirs();
    expect(h.storedDraft()).not.toBeNull();
    const theirs = h.controller.resolveConflict('theirs');
    expect(theirs).toEqual({ content: { text: 'theirs' }, revision: 4 });
    expect(h.storedDraft()).toBeNull();
    expect(h.snapshot()).toMatchObject({ loading: true, conflict: null, failure: null, status: 'idle' });
    h.type('setContent fires an edit');
    h.clock.advance(5000);
    expect(h.open()).toHaveLength(0);
    expect(h.controller.loaded({ text: 'theirs' }, 4)).toBeNull();
    expect(h.snapshot()).toMatchObject({ loading: false, dirty: false, status: 'idle', revision: 4 });
    h.type('next');
    h.clock.advance(1000);
    expect(h.only().ifMatch).toBe(4);
  });

  it("S12: 'theirs' before theirs was fetched returns null (the caller loads it)", async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(4));
    expect(h.controller.resolveConflict('theirs')).toBeNull();
    expect(h.fetches[0]?.signal.aborted).toBe(true);
    expect(h.snapshot()).toMatchObject({ loading: true, conflict: null });
  });

  it("S12: without a conflict 'theirs' returns null and 'mine' acts as flush", async () => {
    const h = loaded();
    expect(h.controller.resolveConflict('theirs')).toBeNull();
    expect(h.snapshot().loading).toBe(false);
    h.type('a');
    const done = h.controller.resolveConflict('mine');
    expect(h.only().ifMatch).toBe(1);
    await h.succeed(2);
    await expect(done).resolves.toBe(true);
  });

  it("S12: 'mine' with an unknown revision overwrites without If-Match", async () => {
    const h = loaded({ noFetchLatest: true });
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(null));
    void h.controller.resolveConflict('mine');
    expect(h.only().ifMatch).toBeNull();
  });
});

describe('S13 loading', () => {
  it('S13: a new controller is loading: edits before the first loaded() schedule nothing', () => {
    const h = createHarness();
    expect(h.snapshot()).toMatchObject({ loading: true, status: 'idle', dirty: false });
    h.type('placeholder');
    h.clock.advance(5000);
    expect(h.writes).toHaveLength(0);
    expect(h.editor.reads).toBe(0);
  });

  it('S13: beginLoading clears the debounce and resolves pending flushes false, storing the draft', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.type('ab');
    const done = h.controller.flush();
    h.storage.items.clear();
    h.controller.beginLoading();
    await expect(done).resolves.toBe(false);
    expect(h.storedDraft()?.content).toEqual({ text: 'ab' });
    h.clock.advance(5000);
    expect(h.writes).toHaveLength(1);
    expect(h.snapshot()).toMatchObject({ loading: true, status: 'idle' });
  });

  it('S13: a save out when loading starts is not aborted; its success confirms what it sent', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.controller.beginLoading();
    await h.succeed(2);
    expect(h.snapshot()).toMatchObject({ loading: true, revision: 2, dirty: false, status: 'idle' });
    expect(h.storedDraft()).toBeNull();
  });

  it('S13: a failure answered while loading only ends the flight', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.controller.beginLoading();
    await h.fail(networkError());
    expect(h.snapshot()).toMatchObject({
      loading: true,
      status: 'idle',
      failure: null,
      retry: null,
      inFlight: false,
    });
    expect(h.clock.pending).toBe(0);
  });
});

describe('S14 loaded', () => {
  it('S14: loaded() confirms the content at the revision and ends loading', () => {
    const h = createHarness();
    expect(h.controller.loaded({ text: 'server' }, 7)).toBeNull();
    expect(h.snapshot()).toMatchObject({
      loading: false,
      dirty: false,
      status: 'idle',
      revision: 7,
      failure: null,
    });
  });

  it('S14: the answer of a save from before loaded() changes nothing, but the next save waits for it', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    const stale = h.only();
    h.controller.loaded({ text: 'structure tree' }, 5);
    h.editor.text = 'structure tree';
    h.type('structure tree + edit');
    h.clock.advance(1000);
    expect(h.writes).toHaveLength(1);
    stale.resolve({ revision: 2 });
    await settle();
    expect(h.snapshot().revision).toBe(5);
    expect(h.only()).toMatchObject({ content: { text: 'structure tree + edit' }, ifMatch: 5 });
  });

  it('S14: a stale failure does not report an error or retry', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    const stale = h.only();
    h.controller.loaded({ text: 'reloaded' }, 5);
    stale.reject(networkError());
    await settle();
    expect(h.snapshot()).toMatchObject({ status: 'idle', failure: null, retry: null, inFlight: false });
  });
});

describe('S15 restoring a draft', () => {
  function withStoredDraft(text: string, baseRevision: number | null = 1, savedAt = 1_700_000_000_000) {
    const h = createHarness();
    h.drafts.write({ content: { text }, baseRevision, savedAt });
    return h;
  }

  it('S15: a stored draft that differs is returned, noticed, dirty, and saved against its base revision', async () => {
    const h = withStoredDraft('unsaved words', 3);
    const draft = h.load('server', 4);
    expect(draft).toEqual({
      content: { text: 'unsaved words' },
      baseRevision: 3,
      savedAt: 1_700_000_000_000,
    });
    expect(h.snapshot()).toMatchObject({
      status: 'saving',
      dirty: true,
      revision: 4,
      restoredDraft: { savedAt: 1_700_000_000_000 },
    });
    h.clock.advance(1000);
    expect(h.only()).toMatchObject({ content: { text: 'unsaved words' }, ifMatch: 3 });
    await h.fail(conflictError(4));
    expect(h.snapshot().conflict?.mine).toEqual({ text: 'unsaved words' });
  });

  it('S15: edits that never reached the server survive a crash and are saved by the next page', async () => {
    const before = loaded();
    before.type('typed offline');
    before.clock.advance(1000);
    await before.fail(networkError());
    before.type('typed offline, more');
    before.controller.persistDraft(); // pagehide
    before.controller.dispose(); // the tab dies

    const after = createHarness({ storage: before.storage });
    const draft = after.load('server', 1);
    expect(draft?.content).toEqual({ text: 'typed offline, more' });
    after.clock.advance(1000);
    expect(after.only()).toMatchObject({ content: { text: 'typed offline, more' }, ifMatch: 1 });
    await after.succeed(2);
    expect(after.storedDraft()).toBeNull();
    expect(after.snapshot()).toMatchObject({ status: 'saved', dirty: false });
  });

  it('S15: a stored draft equal to the loaded content is cleared', () => {
    const h = withStoredDraft('server');
    expect(h.load('server', 1)).toBeNull();
    expect(h.storedDraft()).toBeNull();
    expect(h.snapshot()).toMatchObject({ dirty: false, restoredDraft: null });
  });

  it('S15: later loaded() calls never restore and leave storage alone', () => {
    const h = createHarness();
    h.load('server', 1);
    h.drafts.write({ content: { text: 'other tab' }, baseRevision: 1, savedAt: 5 });
    expect(h.controller.loaded({ text: 'tree from a structure call' }, 2)).toBeNull();
    expect(h.storedDraft()?.content).toEqual({ text: 'other tab' });
    expect(h.snapshot().dirty).toBe(false);
  });

  it('S15: the notice stays until the next loaded() or dismissRestoredDraft()', async () => {
    const h = withStoredDraft('unsaved');
    h.load('server', 1);
    h.clock.advance(1000);
    await h.succeed(2);
    expect(h.snapshot().restoredDraft).not.toBeNull();
    h.controller.dismissRestoredDraft();
    expect(h.snapshot().restoredDraft).toBeNull();
  });

  it('S15: a custom equals decides, and one that throws counts as different', () => {
    const h = createHarness({ equals: (a: Doc, b: Doc) => a.text.trim() === b.text.trim() });
    h.drafts.write({ content: { text: ' server ' }, baseRevision: 1, savedAt: 5 });
    expect(h.load('server', 1)).toBeNull();
    const g = createHarness({
      equals: () => {
        throw new Error('bad compare');
      },
    });
    g.drafts.write({ content: { text: 'server' }, baseRevision: 1, savedAt: 5 });
    expect(g.load('server', 1)?.content).toEqual({ text: 'server' });
  });
});

describe('S16 load failure', () => {
  it('S16: before the first load: error, and saving stays suppressed', () => {
    const h = createHarness();
    h.controller.beginLoading();
    h.controller.loadFailed(networkError());
    expect(h.snapshot()).toMatchObject({ status: 'error', loading: true, failure: { kind: 'network' } });
    h.type('x');
    h.clock.advance(5000);
    expect(h.writes).toHaveLength(0);
  });

  it('S16: after a load: error, then autosave resumes with edits made during the load', () => {
    const h = loaded();
    h.controller.beginLoading();
    h.type('typed while reloading');
    expect(h.snapshot().dirty).toBe(false);
    h.controller.loadFailed(new ApiError({ status: 500 }));
    expect(h.snapshot()).toMatchObject({ status: 'error', loading: false, dirty: true });
    h.clock.advance(1000);
    expect(h.only()).toMatchObject({ content: { text: 'typed while reloading' }, ifMatch: 1 });
  });
});

describe('S17 drafts', () => {
  it('S17: the draft is cleared once the server confirmed exactly what it holds', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    expect(h.storedDraft()).not.toBeNull();
    await h.succeed(2);
    expect(h.storedDraft()).toBeNull();
  });

  it('S17: its own last draft is confirmed from the stored savedAt, without reading the draft back', async () => {
    const storage = new FakeStorage();
    const store = createStorageDraftStore<Doc>({
      storage: () => storage,
      key: DRAFT_KEY,
      parse: (value) => (isDoc(value) ? { text: value.text } : null),
    });
    const reads = vi.fn(store.read);
    const h = loaded({ storage, drafts: { ...store, read: reads } });
    reads.mockClear();
    h.type('a');
    h.clock.advance(1000);
    expect(storage.items.has(DRAFT_KEY)).toBe(true);
    await h.succeed(2);
    expect(storage.items.has(DRAFT_KEY)).toBe(false);
    expect(reads).not.toHaveBeenCalled();
  });

  it('S17: a draft another tab stored under the same key meanwhile is not cleared', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    const other = JSON.stringify({ v: 1, savedAt: 1, baseRevision: 1, content: { text: 'other tab' } });
    h.storage.setItem(DRAFT_KEY, other);
    await h.succeed(2);
    expect(h.storedDraft()?.content).toEqual({ text: 'other tab' });
  });

  it('S17: a save whose content was superseded by a newer draft leaves the draft', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.type('ab');
    h.controller.persistDraft();
    await h.succeed(2);
    expect(h.storedDraft()?.content).toEqual({ text: 'ab' });
    h.clock.advance(1000);
    await h.succeed(3);
    expect(h.storedDraft()).toBeNull();
  });

  it('S17: persistDraft stores nothing when everything is saved', () => {
    const h = loaded();
    h.controller.persistDraft();
    expect(h.storedDraft()).toBeNull();
    expect(h.editor.reads).toBe(0);
  });

  it('S17: persistDraft stores what the editor holds against the base revision', () => {
    const h = loaded();
    h.type('half a sentence');
    h.controller.persistDraft();
    expect(h.storedDraft()).toEqual({
      content: { text: 'half a sentence' },
      baseRevision: 1,
      savedAt: h.clock.now(),
    });
  });

  it('S17: failures keep the draft', async () => {
    for (const error of [networkError(), rejectedError(), conflictError(3)]) {
      const h = loaded();
      h.type('keep me');
      h.clock.advance(1000);
      await h.fail(error);
      expect(h.storedDraft()?.content).toEqual({ text: 'keep me' });
    }
  });

  it('S17: storage that throws never breaks saving', async () => {
    const h = loaded();
    h.storage.failing.add('setItem').add('getItem').add('removeItem');
    h.type('a');
    h.clock.advance(1000);
    await h.succeed(2);
    expect(h.snapshot()).toMatchObject({ status: 'saved', dirty: false });
  });
});

describe('S19 snapshot and listeners', () => {
  it('S19: the snapshot is frozen and keeps its identity until something visible changes', () => {
    const h = loaded();
    const first = h.snapshot();
    expect(Object.isFrozen(first)).toBe(true);
    h.controller.persistDraft();
    h.controller.retryNow();
    expect(h.snapshot()).toBe(first);
    h.type('a');
    const second = h.snapshot();
    expect(second).not.toBe(first);
    h.type('ab'); // still saving and dirty: nothing visible changed
    expect(h.snapshot()).toBe(second);
  });

  it('S19: listeners hear once per change and can unsubscribe', () => {
    const h = loaded();
    const listener = vi.fn();
    const stop = h.controller.subscribe(listener);
    h.type('a');
    h.type('ab');
    expect(listener).toHaveBeenCalledTimes(1);
    h.clock.advance(1000);
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    h.controller.beginLoading();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('S19: a listener that throws does not stop the controller; the error surfaces from a microtask', async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('queueMicrotask', (task: () => void) => {
      try {
        task();
      } catch (error) {
        reported.push(error);
      }
    });
    const h = loaded();
    const other = vi.fn();
    h.controller.subscribe(() => {
      throw new Error('listener bug');
    });
    h.controller.subscribe(other);
    h.type('a');
    h.clock.advance(1000);
    await h.succeed(2);
    expect(h.snapshot().status).toBe('saved');
    expect(other).toHaveBeenCalled();
    expect(reported.length).toBeGreaterThan(0);
    expect((reported[0] as Error).message).toBe('listener bug');
  });
});

describe('S20 dispose', () => {
  it('S20: clears every timer, resolves flushes false, ignores later answers and calls', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.type('ab');
    const done = h.controller.flush();
    h.controller.dispose();
    await expect(done).resolves.toBe(false);
    expect(h.clock.pending).toBe(0);
    const before = h.snapshot();
    await h.succeed(2);
    expect(h.snapshot()).toBe(before);
    h.type('abc');
    h.controller.retryNow();
    h.controller.persistDraft();
    expect(h.controller.loaded({ text: 'x' }, 3)).toBeNull();
    await expect(h.controller.flush()).resolves.toBe(false);
    await expect(h.controller.resolveConflict('mine')).resolves.toBe(false);
    h.clock.advance(60_000);
    expect(h.writes).toHaveLength(1);
    expect(h.snapshot()).toBe(before);
  });

  it('S20: aborts a fetchLatest call and clears the retry timer', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(conflictError(2));
    h.controller.dispose();
    expect(h.fetches[0]?.signal.aborted).toBe(true);
    const g = loaded();
    g.type('a');
    g.clock.advance(1000);
    await g.fail(networkError());
    expect(g.clock.pending).toBe(1);
    g.controller.dispose();
    expect(g.clock.pending).toBe(0);
  });
});

describe('S21 hostile ports', () => {
  it('S21: a read() that throws is a rejected failure, never an unhandled rejection', async () => {
    const h = loaded({
      read: () => {
        throw new Error('editor is gone');
      },
    });
    h.controller.edit();
    h.clock.advance(1000);
    expect(h.writes).toHaveLength(0);
    expect(h.snapshot()).toMatchObject({
      status: 'error',
      inFlight: false,
      failure: { kind: 'rejected', message: 'editor is gone' },
    });
    await expect(h.controller.flush()).resolves.toBe(false);
  });

  it('S21: a write() that throws synchronously is a rejected failure', async () => {
    const h = loaded({
      write: () => {
        throw new TypeError('not a function');
      },
    });
    h.controller.edit();
    await expect(h.controller.flush()).resolves.toBe(false);
    expect(h.snapshot().failure).toMatchObject({ kind: 'rejected', message: 'not a function' });
  });

  it.each([
    ['undefined', undefined],
    ['a string', 'ok'],
    ['a bad revision', { revision: 'abc' }],
    ['a negative revision', { revision: -3 }],
    ['a fractional revision', { revision: 2.5 }],
  ])('S21: a write answering %s succeeds with an unknown revision', async (_name, answer) => {
    const h = loaded({ write: async () => answer as never });
    h.controller.edit();
    await expect(h.controller.flush()).resolves.toBe(true);
    expect(h.snapshot()).toMatchObject({ status: 'saved', revision: null });
  });

  it('S21: a fetchLatest that throws or answers garbage leaves theirs null', async () => {
    for (const fetchLatest of [
      () => {
        throw new Error('sync');
      },
      async () => null as never,
      async () => ({ revision: 2 }) as never,
    ]) {
      const h = loaded({ fetchLatest });
      h.type('a');
      h.clock.advance(1000);
      await h.fail(conflictError(2));
      await settle();
      expect(h.snapshot().conflict).toMatchObject({ theirs: null, theirRevision: 2 });
    }
  });

  it('S21: a draft store that throws is ignored', async () => {
    const throwing = () => {
      throw new Error('store bug');
    };
    const h = createHarness({ drafts: { read: throwing, write: throwing, clear: throwing } });
    expect(h.load('server', 1)).toBeNull();
    h.type('a');
    h.controller.persistDraft();
    const done = h.controller.flush();
    await h.succeed(2);
    await expect(done).resolves.toBe(true);
  });

  it('S21: a random() that throws or answers NaN still schedules a retry', async () => {
    for (const random of [
      () => {
        throw new Error('no entropy');
      },
      () => Number.NaN,
    ]) {
      const h = loaded({ random, retry: { baseMs: 1000 } });
      h.type('a');
      h.clock.advance(1000);
      await h.fail(networkError());
      expect(h.snapshot().retry).toEqual({ attempt: 1, at: h.clock.now() + 500 });
    }
  });
});

describe('S22 keepalive', () => {
  it('S22: flush({ keepalive: true }) sends keepalive, also for the follow-up it waits for', async () => {
    const h = loaded();
    h.type('a');
    void h.controller.flush({ keepalive: true });
    expect(h.only().keepalive).toBe(true);
    h.type('ab');
    void h.controller.flush({ keepalive: true });
    await h.succeed(2);
    expect(h.only()).toMatchObject({ keepalive: true, content: { text: 'ab' } });
    await h.succeed(3);
    h.type('abc');
    h.clock.advance(1000);
    expect(h.only().keepalive).toBe(false);
  });
});

describe('S23 injected time', () => {
  it('S23: the default clock reads the global timers when used, not at construction', async () => {
    const writes: Doc[] = [];
    const controller = new SaveController<Doc>({
      read: () => ({ text: 'late' }),
      write: async (content) => {
        writes.push(content);
        return { revision: 2 };
      },
      debounceMs: 1000,
    });
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    controller.loaded({ text: '' }, 1);
    controller.edit();
    vi.advanceTimersByTime(999);
    expect(writes).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual([{ text: 'late' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.getSnapshot()).toMatchObject({
      status: 'saved',
      lastSavedAt: Date.UTC(2026, 0, 1) + 1000,
    });
    controller.dispose();
  });
});

describe('S27 write time-out', () => {
  it('S27: a save with no answer is aborted after writeTimeoutMs (30 s by default) and retried like a network failure', async () => {
    expect(SAVE_WRITE_TIMEOUT_MS).toBe(30_000);
    const h = loaded({ retry: { baseMs: 1000, maxMs: 4000, maxAttempts: 3 }, random: () => 0.5 });
    h.type('a');
    h.clock.advance(1000);
    const stalled = h.only();
    h.clock.advance(SAVE_WRITE_TIMEOUT_MS - 1);
    expect(stalled.signal.aborted).toBe(false);
    h.clock.advance(1);
    await settle();
    expect(stalled.signal.aborted).toBe(true);
    expect((stalled.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(h.snapshot()).toMatchObject({ status: 'error', dirty: true, retry: { attempt: 1 } });
    expect(h.snapshot().failure).toMatchObject({ kind: 'network' });
    expect(AbortedError.isInstance(h.snapshot().failure?.error)).toBe(true);
    expect(h.storedDraft()?.content).toEqual({ text: 'a' });
    // The retry sends the same content; its answer saves.
    h.clock.advance(500);
    expect(h.only().content).toEqual({ text: 'a' });
    h.only().resolve({ revision: 2 });
    await settle();
    expect(h.snapshot()).toMatchObject({ status: 'saved', dirty: false, revision: 2 });
  });

  it('S27: the timed-out save answering late changes nothing; an answer in time cancels the time-out', async () => {
    const h = loaded({ writeTimeoutMs: 5000 });
    h.type('a');
    h.clock.advance(1000);
    const late = h.only();
    h.clock.advance(5000);
    await settle();
    late.resolve({ revision: 7 });
    await settle();
    expect(h.snapshot()).toMatchObject({ status: 'error', dirty: true, revision: 1 });
    // The retry answers in time: no time-out fires after it.
    h.clock.advance(1000);
    const retry = h.only();
    retry.resolve({ revision: 2 });
    await settle();
    h.clock.advance(60_000);
    await settle();
    expect(retry.signal.aborted).toBe(false);
    expect(h.snapshot()).toMatchObject({ status: 'idle', dirty: false, revision: 2, failure: null });
  });

  it('S27: refuses a time-out below 1 ms', () => {
    const base = { read: () => 1, write: async () => ({ revision: 1 }), debounceMs: 10 };
    expect(() => new SaveController({ ...base, writeTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => new SaveController({ ...base, writeTimeoutMs: Number.NaN })).toThrow(RangeError);
  });
});
