/** Timers the conversion pool and its queue use; tests pass manual ones so a time-out never needs a real wait. */
export interface PoolTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How much one owner (a user) and everyone together may have waiting or running. */
export interface FairQueueLimits {
  /** Jobs waiting, all owners together; beyond it a job is refused (`full`). */
  maxQueued: number;
  /** Jobs one owner may have waiting and running together; beyond it theirs are refused (`owner_limit`). */
  maxPerOwner: number;
  /** Jobs of one owner that may run at once; the rest wait even when a thread is free. */
  maxRunningPerOwner: number;
  /** A job still waiting after this long is dropped and its `onExpired` called; running time is not counted. */
  queueTimeoutMs: number;
}

/** Why a job was not queued. */
export type FairQueueRefusal = 'owner_limit' | 'full';

interface Waiting<T> {
  item: T;
  timer: unknown;
}

interface OwnerTurn<T> {
  waiting: Waiting<T>[];
  running: number;
}

/**
 * The waiting line of the conversion pool: one line per owner, served round-robin, so one user's twenty
 * exports take turns with everyone else's instead of standing in front of them. Each owner has a cap on
 * jobs waiting and running, and a job's waiting time is bounded separately from its running time.
 * Pure bookkeeping: the pool decides when a thread is free and calls {@link take}.
 */
export class FairQueue<T> {
  // A Map keeps insertion order: the owner served last is moved to the end, which makes the turns.
  readonly #owners = new Map<string, OwnerTurn<T>>();
  #queued = 0;

  constructor(
    private readonly limits: FairQueueLimits,
    private readonly timers: PoolTimers,
    /** Called with a job dropped because it waited longer than `queueTimeoutMs`. */
    private readonly onExpired: (item: T) => void,
  ) {}

  /** How many jobs wait, all owners together. */
  get queued(): number {
    return this.#queued;
  }

  /** Queues `item` for `owner`, or says why not. */
  add(owner: string, item: T): FairQueueRefusal | undefined {
    const turn = this.#owners.get(owner) ?? { waiting: [], running: 0 };
    if (turn.waiting.length + turn.running >= this.limits.maxPerOwner) return 'owner_limit';
    if (this.#queued >= this.limits.maxQueued) return 'full';
    const waiting: Waiting<T> = { item, timer: undefined };
    waiting.timer = this.timers.setTimeout(() => this.#expire(owner, waiting), this.limits.queueTimeoutMs);
    turn.waiting.push(waiting);
    this.#owners.set(owner, turn);
    this.#queued += 1;
    return undefined;
  }

  /**
   * The next job to run: the oldest of the first owner in turn order who has one waiting and is below
   * their running cap. That owner goes to the back of the turns. The caller reports its end with
   * {@link finished}.
   */
  take(): { owner: string; item: T } | undefined {
    for (const [owner, turn] of this.#owners) {
      if (turn.waiting.length === 0 || turn.running >= this.limits.maxRunningPerOwner) continue;
      const next = turn.waiting.shift() as Waiting<T>;
      this.timers.clearTimeout(next.timer);
      this.#queued -= 1;
      turn.running += 1;
      this.#owners.delete(owner);
      this.#owners.set(owner, turn);
      return { owner, item: next.item };
    }
    return undefined;
  }

  /**
   * How many waiting jobs {@link take} gives out before `item` if no one else arrives and no cap holds a
   * turn back: the turns go round the owners in order, one job each, so the `k`-th job of an owner waits
   * for up to `k + 1` jobs of each owner before it in the turns and up to `k` of each after it.
   * `undefined` when `item` is not waiting.
   */
  ahead(item: T): number | undefined {
    const turns = [...this.#owners.values()];
    for (const [index, turn] of turns.entries()) {
      const k = turn.waiting.findIndex((waiting) => waiting.item === item);
      if (k === -1) continue;
      let ahead = k;
      for (const [other, otherTurn] of turns.entries()) {
        if (other === index) continue;
        ahead += Math.min(otherTurn.waiting.length, other < index ? k + 1 : k);
      }
      return ahead;
    }
    return undefined;
  }

  /** A job {@link take} gave out has ended (done, failed or stopped). */
  finished(owner: string): void {
    const turn = this.#owners.get(owner);
    if (!turn) return;
    turn.running = Math.max(0, turn.running - 1);
    this.#forgetIfIdle(owner, turn);
  }

  /** Empties the queue, handing back every waiting job (the pool fails them on close). */
  drain(): T[] {
    const items: T[] = [];
    for (const turn of this.#owners.values()) {
      for (const waiting of turn.waiting.splice(0)) {
        this.timers.clearTimeout(waiting.timer);
        items.push(waiting.item);
      }
    }
    this.#owners.clear();
    this.#queued = 0;
    return items;
  }

  #expire(owner: string, waiting: Waiting<T>): void {
    const turn = this.#owners.get(owner);
    const index = turn?.waiting.indexOf(waiting) ?? -1;
    if (!turn || index === -1) return;
    turn.waiting.splice(index, 1);
    this.#queued -= 1;
    this.#forgetIfIdle(owner, turn);
    this.onExpired(waiting.item);
  }

  #forgetIfIdle(owner: string, turn: OwnerTurn<T>): void {
    if (turn.waiting.length === 0 && turn.running === 0) this.#owners.delete(owner);
  }
}
