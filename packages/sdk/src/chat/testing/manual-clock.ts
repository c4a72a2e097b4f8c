import type { Clock } from '../../state/clock.js';

/**
 * A simulated clock that moves only when told: `advance(ms)` runs every timer that falls due, in order.
 * It fits every clock option of the SDK (`ChatClock`, `SaveClock`) and the web app's `Clock`.
 */
export class ManualClock implements Clock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = Date.UTC(2026, 0, 15, 9, 0, 0)) {
    this.time = start;
  }

  /** The simulated time, in milliseconds since the epoch. */
  now = (): number => this.time;

  /** Schedules `callback` at the simulated time `now() + delayMs`; answers the timer's id. */
  setTimeout = (callback: () => void, delayMs: number): number => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, delayMs), callback });
    return id;
  };

  /** Cancels the timer with that id (an unknown id is ignored). */
  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the next timer falls due, or `null` when none waits. */
  get nextAt(): number | null {
    let next: number | null = null;
    for (const timer of this.timers.values()) if (next === null || timer.at < next) next = timer.at;
    return next;
  }

  /** Moves time forward by `ms`, running due timers (including ones they schedule) at their own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].at > end) continue;
        if (!due || entry[1].at < due[1].at || (entry[1].at === due[1].at && entry[0] < due[0])) due = entry;
      }
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }
}
