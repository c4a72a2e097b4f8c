import { describe, expect, it } from 'vitest';
import { FairQueue, type FairQueueLimits, type PoolTimers } from '../../src/formats/fair-queue.js';

/** A clock the test moves: timers fire when `advance` passes their time, never by waiting. */
function simulatedClock() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: PoolTimers = {
    setTimeout: (callback, ms) => {
      const id = next++;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.callback();
      }
    },
    get pending() {
      return pending.size;
    },
  };
}

const LIMITS: FairQueueLimits = {
  maxQueued: 64,
  maxPerOwner: 30,
  maxRunningPerOwner: 1,
  queueTimeoutMs: 30_000,
};

function queueWith(limits: Partial<FairQueueLimits> = {}) {
  const clock = simulatedClock();
  const expired: string[] = [];
  const queue = new FairQueue<string>({ ...LIMITS, ...limits }, clock.timers, (item) => expired.push(item));
  return { queue, clock, expired };
}

/** Runs the queue with `threads` workers where every job takes `jobMs`; the order jobs started in. */
function runAll(
  queue: FairQueue<string>,
  clock: ReturnType<typeof simulatedClock>,
  threads: number,
  jobMs: number,
) {
  const started: string[] = [];
  let running: { owner: string; endsIn: number }[] = [];
  for (;;) {
    while (running.length < threads) {
      const next = queue.take();
      if (!next) break;
      started.push(next.item);
      running.push({ owner: next.owner, endsIn: jobMs });
    }
    if (running.length === 0) return started;
    clock.advance(jobMs);
    for (const job of running) queue.finished(job.owner);
    running = [];
  }
}

describe('FairQueue', () => {
  it('takes turns between users: one user’s twenty exports do not stand in front of another’s one', () => {
    const { queue, clock } = queueWith();
    for (let n = 1; n <= 20; n += 1) expect(queue.add('alice', `alice-${n}`)).toBeUndefined();
    expect(queue.add('bob', 'bob-1')).toBeUndefined();
    const started = runAll(queue, clock, 1, 1_000);
    // Bob's job is second, not twenty-first.
    expect(started.slice(0, 3)).toEqual(['alice-1', 'bob-1', 'alice-2']);
    expect(started).toHaveLength(21);
  });

  it('bounds the wait: when one user’s backlog outlasts the queue-time limit, their latest jobs are dropped, not everyone’s', () => {
    const { queue, clock, expired } = queueWith({ queueTimeoutMs: 30_000 });
    for (let n = 1; n <= 20; n += 1) queue.add('alice', `alice-${n}`);
    queue.add('bob', 'bob-1');
    const started = runAll(queue, clock, 1, 4_000);
    expect(started.slice(0, 2)).toEqual(['alice-1', 'bob-1']);
    // 4 s a job on one thread: jobs that would start after 30 s of waiting are refused instead.
    expect(started).toHaveLength(8);
    expect(expired).toEqual(Array.from({ length: 13 }, (_, i) => `alice-${i + 8}`));
  });

  it('round-robins three users in the order they arrived', () => {
    const { queue, clock } = queueWith({ maxRunningPerOwner: 2 });
    for (const item of ['a1', 'a2', 'a3', 'b1', 'b2', 'c1']) queue.add(item[0] as string, item);
    expect(runAll(queue, clock, 1, 100)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('holds back a user at their running cap even when a thread is free', () => {
    const { queue } = queueWith({ maxRunningPerOwner: 1 });
    queue.add('alice', 'a1');
    queue.add('alice', 'a2');
    expect(queue.take()?.item).toBe('a1');
    expect(queue.take()).toBeUndefined();
    queue.finished('alice');
    expect(queue.take()?.item).toBe('a2');
  });

  it('refuses a user over their cap of waiting and running jobs, and no one else', () => {
    const { queue } = queueWith({ maxPerOwner: 2 });
    expect(queue.add('alice', 'a1')).toBeUndefined();
    queue.take();
    expect(queue.add('alice', 'a2')).toBeUndefined();
    expect(queue.add('alice', 'a3')).toBe('owner_limit');
    expect(queue.add('bob', 'b1')).toBeUndefined();
    queue.finished('alice');
    expect(queue.add('alice', 'a3')).toBeUndefined();
  });

  it('refuses anyone once the whole queue is full', () => {
    const { queue } = queueWith({ maxQueued: 2 });
    queue.add('alice', 'a1');
    queue.add('bob', 'b1');
    expect(queue.add('carol', 'c1')).toBe('full');
    expect(queue.queued).toBe(2);
  });

  it('drops a job that waited past the queue-time limit; time spent running does not count', () => {
    const { queue, clock, expired } = queueWith({ queueTimeoutMs: 30_000 });
    queue.add('alice', 'a1');
    queue.add('alice', 'a2');
    expect(queue.take()?.item).toBe('a1');
    // a1 runs for 40 s: it was taken, so its waiting timer is gone.
    clock.advance(29_999);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual(['a2']);
    expect(queue.queued).toBe(0);
    queue.finished('alice');
    expect(queue.take()).toBeUndefined();
  });

  it('drain hands back every waiting job and clears their timers', () => {
    const { queue, clock } = queueWith();
    queue.add('alice', 'a1');
    queue.add('bob', 'b1');
    expect(queue.drain().sort()).toEqual(['a1', 'b1']);
    expect(clock.pending).toBe(0);
    expect(queue.take()).toBeUndefined();
  });
});

describe('FairQueue.ahead (the place an import’s progress stream tells)', () => {
  it('counts the jobs taken before an item when turns go round the owners, and matches the real order', () => {
    const { queue } = queueWith({ maxRunningPerOwner: 30 });
    for (const item of ['a1', 'a2', 'a3', 'b1', 'c1', 'c2']) queue.add(item.slice(0, 1), item);
    const places = Object.fromEntries(
      ['a1', 'a2', 'a3', 'b1', 'c1', 'c2'].map((item) => [item, queue.ahead(item)]),
    );
    // Turns: a1 b1 c1, then a2 c2, then a3.
    expect(places).toEqual({ a1: 0, b1: 1, c1: 2, a2: 3, c2: 4, a3: 5 });
    const taken: string[] = [];
    for (let next = queue.take(); next; next = queue.take()) taken.push(next.item);
    expect(taken).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('moves up as jobs are taken, and is undefined once the item has left the line', () => {
    const { queue } = queueWith({ maxRunningPerOwner: 30 });
    for (const item of ['a1', 'b1', 'a2']) queue.add(item.slice(0, 1), item);
    expect(queue.ahead('a2')).toBe(2);
    queue.take();
    expect(queue.ahead('a2')).toBe(1);
    queue.take();
    expect(queue.ahead('a2')).toBe(0);
    queue.take();
    expect(queue.ahead('a2')).toBeUndefined();
    expect(queue.ahead('never queued')).toBeUndefined();
  });
});
