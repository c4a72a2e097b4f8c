import { Subscribable } from '@planwright/sdk';
import type { Clock } from '../platform/clock';

/**
 * A timer the runtime runs itself: `after` sends `event` once `delayMs` have passed (a timer of the same
 * name is replaced), `cancel` drops a pending one. Everything else a transition asks for goes to the flow's
 * own `perform`.
 */
export type TimerEffect<E> =
  | { type: 'after'; timer: string; delayMs: number; event: E }
  | { type: 'cancel'; timer: string };

/** What a transition returns: the next state and what should happen because of it. */
export interface Step<S, F> {
  state: S;
  effects?: readonly F[];
}

/** A flow's pure heart: where it starts and how each event moves it. */
export interface FlowMachine<S, E, F> {
  /** The first state, and the effects to run when the flow starts (a call to make on arrival, say). */
  initial: Step<S, F | TimerEffect<E>>;
  transition(state: S, event: E): Step<S, F | TimerEffect<E>>;
}

export interface FlowOptions<E, F> {
  /** Runs one effect; results come back as events through `send`. */
  perform(effect: F, send: (event: E) => void): void;
  clock: Clock;
}

interface PendingTimer<E> {
  dueAt: number;
  event: E;
  handle?: unknown;
}

function isTimerEffect<E>(effect: { type: string }): effect is TimerEffect<E> {
  return effect.type === 'after' || effect.type === 'cancel';
}

/**
 * Runs a {@link FlowMachine}: holds the state (`subscribe` / `getSnapshot` for `useSyncExternalStore`),
 * feeds events through the transition and runs the effects it returns.
 *
 * `stop()` pauses rather than ends. React mounts, unmounts and mounts again in development, so a flow
 * must survive a pause without repeating its start (a second e-mail verification would report a used key)
 * and without losing a redirect timer. While paused, effects wait and timers are disarmed; `start()` runs
 * what waited and re-arms the timers for their due time. A flow whose page has gone for good is
 * simply never started again, so nothing it asked for (a navigation, say) happens after the page left.
 */
export class Flow<S, E, F extends { type: string }> extends Subscribable {
  private state: S;
  private started = false;
  private running = false;
  private readonly waiting: Array<F | TimerEffect<E>> = [];
  private readonly timers = new Map<string, PendingTimer<E>>();

  constructor(
    private readonly machine: FlowMachine<S, E, F>,
    private readonly options: FlowOptions<E, F>,
  ) {
    super();
    this.state = machine.initial.state;
  }

  readonly getSnapshot = (): S => this.state;

  /** Feeds one event through the transition. Safe to pass unbound. */
  readonly send = (event: E): void => {
    const step = this.machine.transition(this.state, event);
    if (!Object.is(step.state, this.state)) {
      this.state = step.state;
      this.notify();
    }
    this.enqueue(step.effects ?? []);
  };

  /** Starts the flow (its initial effects run once, ever), or resumes it after `stop()`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (!this.started) {
      this.started = true;
      this.waiting.unshift(...(this.machine.initial.effects ?? []));
    }
    for (const name of this.timers.keys()) this.arm(name);
    const waiting = this.waiting.splice(0);
    for (const effect of waiting) this.execute(effect);
  }

  /** Pauses: timers are disarmed and effects wait until the next `start()`. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.timers.values()) {
      if (timer.handle !== undefined) this.options.clock.clearTimeout(timer.handle);
      timer.handle = undefined;
    }
  }

  private enqueue(effects: readonly (F | TimerEffect<E>)[]): void {
    if (!this.running) {
      this.waiting.push(...effects);
      return;
    }
    for (const effect of effects) this.execute(effect);
  }

  private execute(effect: F | TimerEffect<E>): void {
    if (!isTimerEffect<E>(effect)) {
      this.options.perform(effect as F, this.send);
      return;
    }
    this.disarm(effect.timer);
    if (effect.type === 'after') {
      this.timers.set(effect.timer, {
        dueAt: this.options.clock.now() + effect.delayMs,
        event: effect.event,
      });
      this.arm(effect.timer);
    }
  }

  private arm(name: string): void {
    const timer = this.timers.get(name);
    if (!timer || timer.handle !== undefined) return;
    const left = Math.max(0, timer.dueAt - this.options.clock.now());
    timer.handle = this.options.clock.setTimeout(() => {
      if (this.timers.get(name) !== timer) return;
      this.timers.delete(name);
      this.send(timer.event);
    }, left);
  }

  private disarm(name: string): void {
    const timer = this.timers.get(name);
    if (timer?.handle !== undefined) this.options.clock.clearTimeout(timer.handle);
    this.timers.delete(name);
  }
}

/** The two events a flow hears back from a call: its answer, or the error it threw. */
export type CallEvent<R> = { type: 'answered'; result: R } | { type: 'crashed'; error: unknown };

/** Runs a port's call and sends `answered` with its result, or `crashed` with what it threw. */
export function sendOutcome<R>(call: Promise<R>, send: (event: CallEvent<R>) => void): void {
  call.then(
    (result) => send({ type: 'answered', result }),
    (error: unknown) => send({ type: 'crashed', error }),
  );
}
