import { describe, expect, it } from 'vitest';
import {
  initialSaveState,
  type SaveEffect,
  type SaveEvent,
  type SaveState,
  type SaveTiming,
  transitionSave,
} from '../../src/save/save-machine.js';

const timing: SaveTiming = {
  debounceMs: 1000,
  savedToIdleMs: 800,
  retry: { baseMs: 1000, maxMs: 30_000, maxAttempts: 8 },
};

/** Freezes a state all the way down, so a transition that writes into its input throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Drives the pure machine, loaded at `loadedAt` (`'never'`: a new controller still loading). Every input state
 * is frozen, so purity is checked on every step.
 */
function machine(loadedAt: number | null | 'never' = 1) {
  let state: SaveState<string> = initialSaveState<string>();
  const send = (event: SaveEvent<string>): SaveEffect<string>[] => {
    const { state: next, effects } = transitionSave(timing, deepFreeze(state), event, 0);
    state = next;
    return effects;
  };
  if (loadedAt !== 'never') send({ type: 'loaded', revision: loadedAt, restored: null });
  return {
    send,
    get state() {
      return state;
    },
    /** The id of the content save out. */
    flight(): number {
      if (state.inFlight === null) throw new Error('no content save out');
      return state.inFlight.id;
    },
  };
}

const writes = (effects: SaveEffect<string>[]) => effects.filter((e) => e.type === 'write');
const asides = (effects: SaveEffect<string>[]) => effects.filter((e) => e.type === 'writeAside');

describe('S26 writes aside (machine)', () => {
  it('S26: with nothing out a write aside starts at once with If-Match = the base', () => {
    const m = machine(3);
    expect(m.send({ type: 'writeAside', id: 1 })).toEqual([{ type: 'writeAside', id: 1, ifMatch: 3 }]);
    expect(m.state.aside).toEqual({ id: 1, base: 3 });
    expect(m.state.inFlight).toBeNull();
  });

  it('S26: behind a content save it waits, then starts on the revision the save answered', () => {
    const m = machine();
    m.send({ type: 'edit' });
    m.send({ type: 'debounceElapsed' });
    const id = m.flight();
    expect(m.send({ type: 'writeAside', id: 1 })).toEqual([]);
    const effects = m.send({ type: 'writeSucceeded', id, revision: 2, content: 'a' });
    expect(asides(effects)).toEqual([{ type: 'writeAside', id: 1, ifMatch: 2 }]);
    expect(writes(effects)).toEqual([]);
  });

  it('S26: while it runs, a debounce end and a flush wait; its success starts the save with its revision', () => {
    const m = machine();
    m.send({ type: 'writeAside', id: 1 });
    m.send({ type: 'edit' });
    expect(writes(m.send({ type: 'debounceElapsed' }))).toEqual([]);
    const flush = m.send({ type: 'flush', waiter: 7, keepalive: true });
    expect(writes(flush)).toEqual([]);
    expect(flush).toContainEqual({ type: 'persistDraft', baseRevision: 1, content: null });
    expect(m.state.due).toMatchObject({ keepalive: true });
    const effects = m.send({ type: 'asideSucceeded', id: 1, revision: 5 });
    expect(writes(effects)).toEqual([{ type: 'write', id: expect.any(Number), ifMatch: 5, keepalive: true }]);
    // The save started right away stores the draft itself: no second read.
    expect(effects.filter((e) => e.type === 'persistDraft')).toEqual([]);
  });

  it('S26: writes aside and a due save take turns by age', () => {
    const m = machine();
    m.send({ type: 'edit' });
    m.send({ type: 'debounceElapsed' });
    const first = m.flight();
    m.send({ type: 'writeAside', id: 1 }); // asked before the follow-up
    m.send({ type: 'edit' });
    m.send({ type: 'debounceElapsed' }); // the follow-up is due
    m.send({ type: 'writeAside', id: 2 }); // asked after it
    let effects = m.send({ type: 'writeSucceeded', id: first, revision: 2, content: 'a' });
    expect(asides(effects)).toEqual([{ type: 'writeAside', id: 1, ifMatch: 2 }]);
    expect(writes(effects)).toEqual([]);
    effects = m.send({ type: 'asideSucceeded', id: 1, revision: 3 });
    expect(writes(effects)).toEqual([
      { type: 'write', id: expect.any(Number), ifMatch: 3, keepalive: false },
    ]);
    expect(asides(effects)).toEqual([]);
    effects = m.send({ type: 'writeSucceeded', id: m.flight(), revision: 4, content: 'ab' });
    expect(asides(effects)).toEqual([{ type: 'writeAside', id: 2, ifMatch: 4 }]);
  });

  it('S26: a due save asked before a write aside goes first', () => {
    const m = machine();
    m.send({ type: 'edit' });
    m.send({ type: 'debounceElapsed' });
    const first = m.flight();
    m.send({ type: 'edit' });
    m.send({ type: 'flush', waiter: 1, keepalive: false });
    m.send({ type: 'writeAside', id: 1 });
    const effects = m.send({ type: 'writeSucceeded', id: first, revision: 2, content: 'a' });
    expect(writes(effects)).toEqual([
      { type: 'write', id: expect.any(Number), ifMatch: 2, keepalive: false },
    ]);
    expect(asides(effects)).toEqual([]);
  });

  it('S26: success adopts the revision and touches neither dirty, status nor the debounce', () => {
    const m = machine();
    m.send({ type: 'edit' });
    m.send({ type: 'writeAside', id: 1 });
    const before = m.state;
    const effects = m.send({ type: 'asideSucceeded', id: 1, revision: 9 });
    expect(m.state).toMatchObject({
      base: 9,
      revision: 9,
      edits: before.edits,
      confirmed: before.confirmed,
      status: before.status,
      debouncing: true,
      aside: null,
    });
    expect(effects).toEqual([{ type: 'persistDraft', baseRevision: 9, content: null }]);
  });

  it('S26: success when clean stores no draft', () => {
    const m = machine();
    m.send({ type: 'writeAside', id: 1 });
    expect(m.send({ type: 'asideSucceeded', id: 1, revision: 2 })).toEqual([]);
    expect(m.state.base).toBe(2);
  });

  it('S26: a null revision, a moved base or a conflict adopts nothing', () => {
    const m = machine();
    m.send({ type: 'writeAside', id: 1 });
    m.send({ type: 'asideSucceeded', id: 1, revision: null });
    expect(m.state.base).toBe(1);

    m.send({ type: 'writeAside', id: 2 });
    m.send({ type: 'beginLoading' });
    m.send({ type: 'loaded', revision: 8, restored: null });
    m.send({ type: 'asideSucceeded', id: 2, revision: 2 });
    expect(m.state).toMatchObject({ base: 8, revision: 8 });

    m.send({ type: 'edit' });
    m.send({ type: 'debounceElapsed' });
    m.send({
      type: 'writeFailed',
      id: m.flight(),
      failure: { kind: 'conflict', message: '412', error: null },
      jitter: 0,
      mine: { value: 'mine' },
      theirRevision: 10,
    });
    m.send({ type: 'writeAside', id: 3 });
    expect(m.state.aside).toEqual({ id: 3, base: 8 });
    m.send({ type: 'asideSucceeded', id: 3, revision: 11 });
    expect(m.state).toMatchObject({ base: 8, aside: null });
  });

  it('S26: failure changes nothing but ends the write aside; the due save then starts', () => {
    const m = machine();
    m.send({ type: 'writeAside', id: 1 });
    m.send({ type: 'edit' });
    m.send({ type: 'flush', waiter: 1, keepalive: false });
    const before = m.state;
    const effects = m.send({ type: 'asideFailed', id: 1 });
    expect(writes(effects)).toEqual([
      { type: 'write', id: expect.any(Number), ifMatch: 1, keepalive: false },
    ]);
    expect(m.state).toMatchObject({
      base: before.base,
      revision: before.revision,
      failure: null,
      conflict: null,
    });
  });

  it('S26: answers for a write aside that is not out are ignored', () => {
    const m = machine();
    m.send({ type: 'writeAside', id: 1 });
    const before = m.state;
    expect(m.send({ type: 'asideSucceeded', id: 2, revision: 5 })).toEqual([]);
    expect(m.send({ type: 'asideFailed', id: 2 })).toEqual([]);
    expect(m.state).toEqual(before);
  });

  it('S26: while loading it waits; loaded() starts it with the loaded revision', () => {
    const fresh = machine('never');
    expect(fresh.send({ type: 'writeAside', id: 1 })).toEqual([]);
    expect(
      fresh.send({ type: 'loadFailed', failure: { kind: 'network', message: 'down', error: null } }),
    ).toEqual([]);
    const effects = fresh.send({ type: 'loaded', revision: 4, restored: null });
    expect(asides(effects)).toEqual([{ type: 'writeAside', id: 1, ifMatch: 4 }]);
  });

  it('S26: during a reload a loadFailed() that ends the load starts it', () => {
    const m = machine(2);
    m.send({ type: 'beginLoading' });
    expect(m.send({ type: 'writeAside', id: 1 })).toEqual([]);
    const effects = m.send({
      type: 'loadFailed',
      failure: { kind: 'network', message: 'down', error: null },
    });
    expect(asides(effects)).toEqual([{ type: 'writeAside', id: 1, ifMatch: 2 }]);
  });

  it('S26: during a conflict it runs with the old base', () => {
    const m = machine();
    m.send({ type: 'edit' });
    m.send({ type: 'debounceElapsed' });
    m.send({
      type: 'writeFailed',
      id: m.flight(),
      failure: { kind: 'conflict', message: '412', error: null },
      jitter: 0,
      mine: { value: 'mine' },
      theirRevision: 4,
    });
    expect(asides(m.send({ type: 'writeAside', id: 1 }))).toEqual([
      { type: 'writeAside', id: 1, ifMatch: 1 },
    ]);
  });

  it('S26: dispose rejects the waiting ones and ignores the one out', () => {
    const m = machine();
    m.send({ type: 'writeAside', id: 1 });
    m.send({ type: 'writeAside', id: 2 });
    m.send({ type: 'writeAside', id: 3 });
    expect(m.send({ type: 'dispose' })).toContainEqual({ type: 'abortAsides', ids: [2, 3] });
    const after = m.state;
    expect(m.send({ type: 'asideSucceeded', id: 1, revision: 2 })).toEqual([]);
    expect(m.state).toBe(after);
    expect(m.send({ type: 'writeAside', id: 4 })).toEqual([]);
  });

  it('S24, S26: never a content save and a write aside out together', () => {
    const m = machine();
    m.send({ type: 'edit' });
    m.send({ type: 'writeAside', id: 1 });
    m.send({ type: 'retryNow' });
    m.send({ type: 'debounceElapsed' });
    m.send({ type: 'flush', waiter: 1, keepalive: false });
    m.send({ type: 'resolveMine', waiter: 2 });
    expect(m.state.inFlight).toBeNull();
    expect(m.state.aside).not.toBeNull();
  });
});
