import { describe, expect, it, vi } from 'vitest';
import { Flow, type FlowMachine } from '../src/state/flow';
import { ManualClock } from './support/manual-clock';

type State = { count: number; note: string };
type Event =
  | { type: 'bump' }
  | { type: 'later'; note: string; delayMs: number }
  | { type: 'stop_timer' }
  | { type: 'noted'; note: string };
type Effect = { type: 'record'; value: number };

const machine: FlowMachine<State, Event, Effect> = {
  initial: { state: { count: 0, note: '' }, effects: [{ type: 'record', value: -1 }] },
  transition(state, event) {
    switch (event.type) {
      case 'bump':
        return {
          state: { ...state, count: state.count + 1 },
          effects: [{ type: 'record', value: state.count + 1 }],
        };
      case 'later':
        return {
          state,
          effects: [
            { type: 'after', timer: 't', delayMs: event.delayMs, event: { type: 'noted', note: event.note } },
          ],
        };
      case 'stop_timer':
        return { state, effects: [{ type: 'cancel', timer: 't' }] };
      case 'noted':
        return { state: { ...state, note: event.note } };
    }
  },
};

function setup() {
  const clock = new ManualClock();
  const performed: number[] = [];
  const seenStates: number[] = [];
  const flow = new Flow(machine, {
    clock,
    perform: (effect) => {
      performed.push(effect.value);
      seenStates.push(flow.getSnapshot().count);
    },
  });
  return { clock, flow, performed, seenStates };
}

describe('flow runtime (SPEC.md F1–F3)', () => {
  it('F1: publishes the new state before running the effects, and keeps the snapshot identity when nothing changed', () => {
    const { flow, performed, seenStates } = setup();
    const listener = vi.fn();
    flow.subscribe(listener);
    flow.start();
    const before = flow.getSnapshot();
    flow.send({ type: 'later', note: 'x', delayMs: 10 });
    expect(flow.getSnapshot()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
    flow.send({ type: 'bump' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(performed).toEqual([-1, 1]);
    expect(seenStates).toEqual([0, 1]);
  });

  it('F1: runs timers on the injected clock; a timer of the same name replaces the earlier one; cancel drops it', () => {
    const { clock, flow } = setup();
    flow.start();
    flow.send({ type: 'later', note: 'first', delayMs: 1_000 });
    clock.advance(600);
    flow.send({ type: 'later', note: 'second', delayMs: 1_000 });
    clock.advance(600);
    expect(flow.getSnapshot().note).toBe('');
    clock.advance(400);
    expect(flow.getSnapshot().note).toBe('second');

    flow.send({ type: 'later', note: 'third', delayMs: 1_000 });
    flow.send({ type: 'stop_timer' });
    clock.advance(5_000);
    expect(flow.getSnapshot().note).toBe('second');
    expect(clock.pending).toBe(0);
  });

  it('F2: runs the initial effects once, even when started again after a pause', () => {
    const { flow, performed } = setup();
    flow.start();
    flow.stop();
    flow.start();
    flow.start();
    expect(performed).toEqual([-1]);
  });

  it('F2: while paused, effects wait and timers are disarmed; resuming re-arms them for their due time', () => {
    const { clock, flow, performed } = setup();
    flow.start();
    flow.send({ type: 'later', note: 'due', delayMs: 3_000 });
    clock.advance(1_000);
    flow.stop();
    flow.send({ type: 'bump' });
    expect(performed).toEqual([-1]);
    clock.advance(10_000);
    expect(flow.getSnapshot().note).toBe('');

    flow.start();
    expect(performed).toEqual([-1, 1]);
    // Overdue after the long pause: it fires at once.
    clock.advance(0);
    expect(flow.getSnapshot().note).toBe('due');

    flow.send({ type: 'later', note: 'again', delayMs: 3_000 });
    clock.advance(1_000);
    flow.stop();
    flow.start();
    clock.advance(1_999);
    expect(flow.getSnapshot().note).toBe('due');
    clock.advance(1);
    expect(flow.getSnapshot().note).toBe('again');
  });

  it('F3: a flow that is not started again performs nothing more', () => {
    const { clock, flow, performed } = setup();
    flow.start();
    flow.send({ type: 'later', note: 'never', delayMs: 100 });
    flow.stop();
    flow.send({ type: 'bump' });
    clock.advance(1_000);
    expect(performed).toEqual([-1]);
    expect(flow.getSnapshot()).toEqual({ count: 1, note: '' });
  });
});
