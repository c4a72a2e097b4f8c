import { AbortedError, ApiError, NetworkError, RevisionConflictError } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { createHarness, failOnUnhandledRejections, type Harness, settle } from './support/save-harness.js';

const networkError = () => new NetworkError({ cause: new TypeError('fetch failed') });
const conflictError = (current: number) =>
  new RevisionConflictError({
    status: 412,
    data: { detail: 'Changed since you loaded it.', current_revision: current },
  });

/** A harness with the blueprint loaded at revision 1, showing "server". */
function loaded(): Harness {
  const h = createHarness();
  h.load('server', 1);
  return h;
}

failOnUnhandledRejections();

describe('S26 when a write aside runs', () => {
  it('S26: with nothing out it starts at once with If-Match = the base, and resolves with value', async () => {
    const h = loaded();
    const call = h.writeAside('hint');
    expect(h.openAsides()).toHaveLength(1);
    expect(h.asides[0]).toMatchObject({ label: 'hint', ifMatch: 1 });
    expect(h.asides[0]?.signal).toBeInstanceOf(AbortSignal);
    await h.answerAside({ revision: 2, value: { user_hint: 'Be brief' } });
    expect(call.outcome).toEqual({ state: 'resolved', value: { user_hint: 'Be brief' } });
    expect(h.snapshot()).toMatchObject({ revision: 2, status: 'idle', dirty: false, inFlight: false });
    expect(h.writes).toHaveLength(0);
  });

  it('S26: waits for the content save out, then runs with the revision it answered', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    h.writeAside();
    expect(h.asides).toHaveLength(0);
    await h.succeed(2);
    expect(h.openAsides()).toHaveLength(1);
    expect(h.asides[0]?.ifMatch).toBe(2);
  });

  it('S26: a debounce that ends while it runs waits, then saves with the adopted revision', async () => {
    const h = loaded();
    h.type('a');
    h.writeAside();
    h.clock.advance(5000);
    expect(h.writes).toHaveLength(0);
    expect(h.snapshot()).toMatchObject({ status: 'saving', dirty: true, inFlight: false });
    await h.answerAside({ revision: 2, value: null });
    expect(h.only()).toMatchObject({ content: { text: 'a' }, ifMatch: 2 });
  });

  it('S26: a retry that ends while it runs waits for it', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    await h.fail(networkError());
    h.writeAside();
    h.clock.advance(60_000);
    expect(h.open()).toHaveLength(0);
    await h.answerAside({ revision: 2, value: null });
    expect(h.only()).toMatchObject({ content: { text: 'a' }, ifMatch: 2 });
  });

  it('S26: flush() writes the draft at once, waits for it, and resolves once the save is confirmed', async () => {
    const h = loaded();
    h.writeAside();
    h.type('typed');
    const done = h.controller.flush();
    expect(h.storedDraft()?.content).toEqual({ text: 'typed' });
    expect(h.writes).toHaveLength(0);
    await h.answerAside({ revision: 2, value: null });
    expect(h.only()).toMatchObject({ content: { text: 'typed' }, ifMatch: 2 });
    await h.succeed(3);
    await expect(done).resolves.toBe(true);
  });

  it('S26: writes aside run one at a time in call order, each on the revision the one before answered', async () => {
    const h = loaded();
    h.writeAside('first');
    h.writeAside('second');
    h.writeAside('third');
    expect(h.openAsides().map((a) => a.label)).toEqual(['first']);
    await h.answerAside({ revision: 2, value: 1 });
    expect(h.openAsides().map((a) => [a.label, a.ifMatch])).toEqual([['second', 2]]);
    await h.answerAside({ revision: 3, value: 2 });
    expect(h.openAsides().map((a) => [a.label, a.ifMatch])).toEqual([['third', 3]]);
    await h.answerAside({ revision: 4, value: 3 });
    expect(h.snapshot().revision).toBe(4);
  });

  it('S26: a waiting content save is not starved by a stream of writes aside', async () => {
    const h = loaded();
    h.writeAside('first');
    h.type('a');
    void h.controller.flush(); // due behind "first"
    h.writeAside('second'); // asked for after the save: goes after it
    await h.answerAside({ revision: 2, value: null });
    expect(h.openAsides()).toHaveLength(0);
    expect(h.only()).toMatchObject({ content: { text: 'a' }, ifMatch: 2 });
    await h.succeed(3);
    expect(h.openAsides().map((a) => [a.label, a.ifMatch])).toEqual([['second', 3]]);
  });

  it('S26: a waiting write aside is not starved by follow-up content saves', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000); // save 1 out
    h.writeAside('settings'); // waits for save 1
    h.type('ab');
    void h.controller.flush(); // follow-up asked for after the write aside
    await h.succeed(2);
    expect(h.open()).toHaveLength(0);
    expect(h.openAsides().map((a) => [a.label, a.ifMatch])).toEqual([['settings', 2]]);
    await h.answerAside({ revision: 3, value: null });
    expect(h.only()).toMatchObject({ content: { text: 'ab' }, ifMatch: 3 });
  });
});

describe('S26 success', () => {
  it('S26: unsaved edits stay unsaved; status, debounce and failure are untouched', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(400);
    h.writeAside();
    const before = h.snapshot();
    await h.answerAside({ revision: 7, value: null });
    expect(h.snapshot()).toMatchObject({
      status: before.status,
      dirty: true,
      failure: null,
      lastSavedAt: null,
      revision: 7,
    });
    h.clock.advance(599);
    expect(h.writes).toHaveLength(0);
    h.clock.advance(1); // the debounce ends when it would have
    expect(h.only()).toMatchObject({ content: { text: 'a' }, ifMatch: 7 });
  });

  it('S26: when dirty the draft keeps its content and takes the new base revision', async () => {
    const h = loaded();
    h.type('unsaved');
    h.controller.persistDraft();
    h.writeAside();
    await h.answerAside({ revision: 5, value: null });
    expect(h.storedDraft()).toMatchObject({ content: { text: 'unsaved' }, baseRevision: 5 });
    // A crash now: the next page restores the draft and saves it against revision 5, not 1.
    const after = createHarness({ storage: h.storage });
    after.load('server', 5);
    after.clock.advance(1000);
    expect(after.only()).toMatchObject({ content: { text: 'unsaved' }, ifMatch: 5 });
  });

  it('S26: when clean nothing is read or stored', async () => {
    const h = loaded();
    h.writeAside();
    await h.answerAside({ revision: 2, value: null });
    expect(h.editor.reads).toBe(0);
    expect(h.storedDraft()).toBeNull();
  });

  it('S26: a null revision leaves the base as it is', async () => {
    const h = loaded();
    const call = h.writeAside();
    await h.answerAside({ revision: null, value: 'ok' });
    expect(call.outcome).toEqual({ state: 'resolved', value: 'ok' });
    h.type('a');
    h.clock.advance(1000);
    expect(h.only().ifMatch).toBe(1);
  });

  it('S26: the snapshot shows no content save in flight while a write aside runs', () => {
    const h = loaded();
    const first = h.snapshot();
    h.writeAside();
    expect(h.snapshot()).toBe(first);
  });

  it('S26: an answer that lands after a reload changed the base is not adopted', async () => {
    const h = loaded();
    h.writeAside();
    h.controller.beginLoading();
    h.controller.loaded({ text: 'reloaded' }, 9);
    await h.answerAside({ revision: 2, value: null });
    expect(h.snapshot().revision).toBe(9);
  });

  it('S26: an answer that lands during a reload is adopted, and loaded() then decides', async () => {
    const h = loaded();
    h.writeAside();
    h.controller.beginLoading();
    await h.answerAside({ revision: 2, value: null });
    expect(h.snapshot().revision).toBe(2);
    h.controller.loaded({ text: 'reloaded' }, 3);
    h.type('b');
    h.clock.advance(1000);
    expect(h.only().ifMatch).toBe(3);
  });
});

describe('S26 failure', () => {
  it('S26: a 412 rejects for the caller and is no controller conflict; the waiting save runs', async () => {
    const h = loaded();
    const call = h.writeAside();
    h.type('a');
    void h.controller.flush();
    const before = h.snapshot();
    const error = conflictError(4);
    await h.failAside(error);
    expect(call.outcome).toEqual({ state: 'rejected', error });
    expect(h.snapshot()).toMatchObject({ conflict: null, failure: null, revision: before.revision });
    expect(h.only()).toMatchObject({ content: { text: 'a' }, ifMatch: 1 });
  });

  it.each([
    ['a network error', networkError],
    ['a 400', () => new ApiError({ status: 400 })],
    ['a string', () => 'nope'],
    ['undefined', () => undefined],
  ])('S26: a write aside failing with %s rejects with it and changes nothing', async (_name, make) => {
    const h = loaded();
    h.type('a');
    h.clock.advance(300);
    const call = h.writeAside();
    const before = h.snapshot();
    const error = make();
    await h.failAside(error);
    expect(call.outcome).toEqual({ state: 'rejected', error });
    expect(h.snapshot()).toBe(before);
    h.clock.advance(700);
    expect(h.only().ifMatch).toBe(1);
  });

  it('S26: a write that throws synchronously rejects with its error and the next one still runs', async () => {
    const h = loaded();
    const boom = new TypeError('not a function');
    const thrown = h.controller.writeAside(() => {
      throw boom;
    });
    await expect(thrown).rejects.toBe(boom);
    h.writeAside('next');
    expect(h.openAsides().map((a) => a.label)).toEqual(['next']);
  });
});

describe('S26 hostile answers', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'ok'],
    ['a number', 7],
  ])('S26: an answer that is %s rejects with a TypeError and adopts nothing', async (_name, answer) => {
    const h = loaded();
    const call = h.writeAside();
    await h.answerAside(answer);
    expect(call.outcome.state).toBe('rejected');
    const { error } = call.outcome as { error: unknown };
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/revision, value/);
    expect(h.snapshot().revision).toBe(1);
  });

  it.each([
    ['a string', '7'],
    ['a negative number', -1],
    ['NaN', Number.NaN],
    ['a fraction', 2.5],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['missing', undefined],
  ])('S26: a revision that is %s resolves with value and adopts nothing', async (_name, revision) => {
    const h = loaded();
    const call = h.writeAside();
    await h.answerAside({ revision, value: 'v' });
    expect(call.outcome).toEqual({ state: 'resolved', value: 'v' });
    expect(h.snapshot().revision).toBe(1);
  });

  it('S26: an answer whose getters throw rejects with that error, or adopts no revision', async () => {
    const h = loaded();
    const gotcha = new Error('gotcha');
    const call = h.writeAside();
    await h.answerAside(
      Object.defineProperty({ revision: 2 }, 'value', {
        get() {
          throw gotcha;
        },
      }),
    );
    expect(call.outcome).toEqual({ state: 'rejected', error: gotcha });
    const next = h.writeAside();
    await h.answerAside(
      Object.defineProperty({ value: 'v' }, 'revision', {
        get() {
          throw gotcha;
        },
      }),
    );
    expect(next.outcome).toEqual({ state: 'resolved', value: 'v' });
    expect(h.snapshot().revision).toBe(1);
  });

  it('S26: a revoked proxy as the answer rejects and the controller goes on', async () => {
    const h = loaded();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const call = h.writeAside();
    await h.answerAside(proxy);
    expect(call.outcome.state).toBe('rejected');
    h.type('a');
    h.clock.advance(1000);
    expect(h.only().ifMatch).toBe(1);
  });

  it('S26: a write answering a hostile BLNS-style value hands it back unchanged', async () => {
    const h = loaded();
    const value = { user_hint: '\u0000<script>alert(1)</script>\u202e𝕿𝖍𝖊 ﷽', mcp_url: 'javascript:alert(1)' };
    const call = h.writeAside();
    await h.answerAside({ revision: 2, value });
    expect(call.outcome).toEqual({ state: 'resolved', value });
  });
});

describe('S26 conflicts and loading', () => {
  it("S26: during a conflict it runs with the old base; a 412 is the caller's and the conflict stays", async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(4));
    const conflict = h.snapshot().conflict;
    const call = h.writeAside();
    expect(h.openAsides()[0]?.ifMatch).toBe(1);
    await h.failAside(conflictError(4));
    expect(call.outcome.state).toBe('rejected');
    expect(h.snapshot().conflict).toBe(conflict);
  });

  it('S26: a success during a conflict adopts nothing (mine stays on its base)', async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(4));
    h.writeAside();
    await h.answerAside({ revision: 5, value: null });
    expect(h.storedDraft()).toMatchObject({ content: { text: 'mine' }, baseRevision: 1 });
    const keep = h.controller.resolveConflict('mine');
    expect(h.only().ifMatch).toBe(4);
    await h.succeed(6);
    await expect(keep).resolves.toBe(true);
  });

  it('S26: "keep mine" asked while a write aside runs waits for it', async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(4));
    h.writeAside();
    const keep = h.controller.resolveConflict('mine');
    expect(h.open()).toHaveLength(0);
    await h.failAside(conflictError(4));
    expect(h.only()).toMatchObject({ content: { text: 'mine' }, ifMatch: 4 });
    await h.succeed(5);
    await expect(keep).resolves.toBe(true);
  });

  it('S26: before the first load it waits, then runs with the loaded revision', () => {
    const h = createHarness();
    h.writeAside();
    expect(h.asides).toHaveLength(0);
    h.load('server', 3);
    expect(h.openAsides()[0]?.ifMatch).toBe(3);
  });

  it('S26: a failed first load leaves it waiting; a later loaded() starts it', () => {
    const h = createHarness();
    h.writeAside();
    h.controller.loadFailed(networkError());
    expect(h.asides).toHaveLength(0);
    h.load('server', 2);
    expect(h.openAsides()[0]?.ifMatch).toBe(2);
  });

  it('S26: during a reload it waits; a loadFailed() that ends the load starts it on the old base', () => {
    const h = loaded();
    h.controller.beginLoading();
    h.writeAside();
    expect(h.asides).toHaveLength(0);
    h.controller.loadFailed(networkError());
    expect(h.openAsides()[0]?.ifMatch).toBe(1);
  });

  it("S26: after 'reload theirs' it waits for loaded() and runs on their revision", async () => {
    const h = loaded();
    h.type('mine');
    h.clock.advance(1000);
    await h.fail(conflictError(4));
    h.fetches[0]?.resolve({ content: { text: 'theirs' }, revision: 4 });
    await settle();
    h.controller.resolveConflict('theirs');
    h.writeAside();
    expect(h.asides).toHaveLength(0);
    h.controller.loaded({ text: 'theirs' }, 4);
    expect(h.openAsides()[0]?.ifMatch).toBe(4);
  });
});

describe('S26 dispose', () => {
  it('S26: writes aside not yet started reject with AbortedError and never run', async () => {
    const h = loaded();
    h.type('a');
    h.clock.advance(1000);
    const waiting = h.writeAside('waiting');
    h.controller.dispose();
    await settle();
    expect(waiting.outcome.state).toBe('rejected');
    expect(AbortedError.isInstance((waiting.outcome as { error: unknown }).error)).toBe(true);
    await h.succeed(2);
    expect(h.asides).toHaveLength(0);
  });

  it('S26: one already out is not aborted; its caller gets the answer, the controller ignores it', async () => {
    const h = loaded();
    const out = h.writeAside('out');
    h.controller.dispose();
    const before = h.snapshot();
    expect(h.asides[0]?.signal.aborted).toBe(false);
    await h.answerAside({ revision: 2, value: 'landed' });
    expect(out.outcome).toEqual({ state: 'resolved', value: 'landed' });
    expect(h.snapshot()).toBe(before);
  });

  it('S26: writeAside() after dispose() rejects with AbortedError without calling write', async () => {
    const h = loaded();
    h.controller.dispose();
    let called = false;
    const late = h.controller.writeAside(async () => {
      called = true;
      return { revision: 2, value: null };
    });
    await expect(late).rejects.toSatisfy((error: unknown) => AbortedError.isInstance(error));
    expect(called).toBe(false);
  });
});
