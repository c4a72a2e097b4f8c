import { readFileSync } from 'node:fs';
import { FormatError } from '@planwright/sdk/formats';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { ConversionBusyError, ConversionPool, type PoolTimers } from '../../src/formats/conversion-pool.js';
import { paragraphBomb } from './hostile-docx.js';

/** Timers fired by the test: a time-out never needs a real wait. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  const delays = new Map<number, number>();
  let next = 1;
  const timers: PoolTimers = {
    setTimeout: (callback, ms) => {
      const id = next++;
      pending.set(id, callback);
      delays.set(id, ms);
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    fireAll: () => {
      const callbacks = [...pending.values()];
      pending.clear();
      for (const callback of callbacks) callback();
    },
    /** Fires only the timers set for `ms` (a queue-time limit, not the running jobs' limits). */
    fireSetFor: (ms: number) => {
      const due = [...pending].filter(([id]) => delays.get(id) === ms);
      for (const [id, callback] of due) {
        pending.delete(id);
        callback();
      }
      return due.length;
    },
    get pending() {
      return pending.size;
    },
  };
}

const markdown = (text: string) => ({
  kind: 'import' as const,
  format: 'md' as const,
  bytes: new TextEncoder().encode(text),
  maxUnpackedBytes: 50 * 1024 * 1024,
});

const ALICE = { owner: 'alice' };

let pool: ConversionPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('ConversionPool', () => {
  it('converts in a worker thread and clears the job’s timer', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, timers: clock.timers });
    const result = await pool.run(markdown('# Market\n\nText'), ALICE);
    expect(result.document.content[0]?.content[0]).toMatchObject({ type: 'sectionHeading' });
    expect(clock.pending).toBe(0);
    const exported = await pool.run(
      {
        kind: 'export',
        format: 'md',
        contentJson: JSON.stringify(result.document),
        title: 'T',
      },
      ALICE,
    );
    expect(new TextDecoder().decode(exported)).toContain('# Market');
  });

  it('a job over its time limit has its thread killed and fails timed_out; the next job gets a fresh thread', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, timers: clock.timers });
    const big = readFileSync(corpusPath('docx/poi-bug65649-very-large.docx'));
    const slow = pool.run(
      { kind: 'import', format: 'docx', bytes: big, maxUnpackedBytes: 50 * 1024 * 1024 },
      ALICE,
    );
    clock.fireAll();
    const error = await rejectionOf(slow);
    expect(FormatError.isInstance(error) && [error.reason, error.message]).toEqual([
      'timed_out',
      'The conversion took longer than 10 s and was stopped.',
    ]);
    const after = await pool.run(markdown('# Still works'), ALICE);
    expect(after.document.content).toHaveLength(1);
  });

  it('passes a refusal through as the same FormatError', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000 });
    const encrypted = readFileSync(corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx'));
    const error = await rejectionOf(
      pool.run({ kind: 'import', format: 'docx', bytes: encrypted, maxUnpackedBytes: 1024 * 1024 }, ALICE),
    );
    expect(FormatError.isInstance(error) && error.reason).toBe('encrypted');
  });

  it('queues jobs in order beyond its size and refuses more than maxQueued', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxQueued: 1 });
    const first = pool.run(markdown('# One'), ALICE);
    const second = pool.run(markdown('# Two'), ALICE);
    const third = await rejectionOf(pool.run(markdown('# Three'), ALICE));
    expect(third).toBeInstanceOf(ConversionBusyError);
    const titles = await Promise.all([first, second]);
    expect(titles.map((r) => JSON.stringify(r.document))).toEqual([
      expect.stringContaining('One'),
      expect.stringContaining('Two'),
    ]);
  });

  it('a job runs under its own budget, and its time-out says which limit it hit', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, timers: clock.timers });
    const big = readFileSync(corpusPath('docx/poi-bug65649-very-large.docx'));
    const slow = pool.run(
      { kind: 'import', format: 'docx', bytes: big, maxUnpackedBytes: 50 * 1024 * 1024 },
      { owner: 'alice', timeoutMs: 37_800, limitLabel: 'the limit for a 464 KB file' },
    );
    expect(clock.fireSetFor(37_800)).toBe(1);
    const error = await rejectionOf(slow);
    expect(FormatError.isInstance(error) && error.message).toBe(
      'The conversion took longer than 37.8 s (the limit for a 464 KB file) and was stopped.',
    );
  });

  it('refuses a user over their cap with a retry time, while another user still gets in', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxPerOwner: 2, timers: clock.timers });
    const first = pool.run(markdown('# One'), ALICE);
    const second = pool.run(markdown('# Two'), ALICE);
    const third = await rejectionOf(pool.run(markdown('# Three'), ALICE));
    expect(third instanceof ConversionBusyError && [third.reason, third.retryAfterSeconds]).toEqual([
      'owner_limit',
      10,
    ]);
    const bob = pool.run(markdown('# Bob'), { owner: 'bob' });
    expect((await bob).document.content).toHaveLength(1);
    await Promise.all([first, second]);
  });

  it('a job that waited past the queue-time limit fails busy; the running one is untouched', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, queueTimeoutMs: 30_000, timers: clock.timers });
    const running = pool.run(markdown('# One'), ALICE);
    const waiting = pool.run(markdown('# Two'), ALICE);
    expect(clock.fireSetFor(30_000)).toBe(1);
    const error = await rejectionOf(waiting);
    expect(error instanceof ConversionBusyError && error.reason).toBe('queue_timeout');
    expect((await running).document.content).toHaveLength(1);
  });

  it('runs a job in a thread with exactly its heap limit: reuses one that fits, else replaces an idle one', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, memoryMb: 256 });
    await pool.run(markdown('# Default'), ALICE);
    expect(pool.threadLimits).toEqual([256]);
    await pool.run(markdown('# Bigger'), { ...ALICE, memoryMb: 320 });
    expect(pool.threadLimits).toEqual([320]);
    await pool.run(markdown('# Same'), { ...ALICE, memoryMb: 320 });
    expect(pool.threadLimits).toEqual([320]);
    await pool.run(markdown('# Back'), ALICE);
    expect(pool.threadLimits).toEqual([256]);
  });

  it('keeps threads of different limits side by side up to its size, never more', async () => {
    pool = new ConversionPool({ size: 2, timeoutMs: 10_000, memoryMb: 256 });
    await pool.run(markdown('# Small'), ALICE);
    await pool.run(markdown('# Big'), { ...ALICE, memoryMb: 384 });
    expect(pool.threadLimits).toEqual([256, 384]);
    await pool.run(markdown('# Small again'), ALICE);
    await pool.run(markdown('# Big again'), { ...ALICE, memoryMb: 384 });
    expect(pool.threadLimits).toEqual([256, 384]);
    await pool.run(markdown('# Third limit'), { ...ALICE, memoryMb: 448 });
    expect(pool.threadLimits).toHaveLength(2);
    expect(pool.threadLimits).toContain(448);
  });

  it('a file that needs more heap than its budget fails out_of_memory naming the limit; the next job works', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 120_000, memoryMb: 256 });
    const error = await rejectionOf(
      pool.run(
        { kind: 'import', format: 'docx', bytes: paragraphBomb(), maxUnpackedBytes: 50 * 1024 * 1024 },
        { ...ALICE, memoryMb: 96, memoryLabel: 'the limit for a 38 KB file' },
      ),
    );
    expect(FormatError.isInstance(error) && [error.reason, error.message]).toEqual([
      'out_of_memory',
      'The conversion needed more than 96 MB of memory (the limit for a 38 KB file) and was stopped.',
    ]);
    expect(pool.threadLimits).toEqual([]);
    const after = await pool.run(markdown('# Still works'), ALICE);
    expect(after.document.content).toHaveLength(1);
  });

  it('names its work in its refusals (the content pool’s are saves)', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({
      size: 1,
      timeoutMs: 10_000,
      maxPerOwner: 2,
      noun: 'save',
      timers: clock.timers,
    });
    const first = pool.run(markdown('# One'), ALICE);
    const second = pool.run(markdown('# Two'), ALICE);
    const third = await rejectionOf(pool.run(markdown('# Three'), ALICE));
    expect(third instanceof ConversionBusyError && third.message).toBe(
      'You have 2 saves waiting or running; try again when one has finished.',
    );
    await Promise.all([first, second]);
  });

  it('close() fails waiting and running jobs and refuses new ones', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000 });
    const running = expect(pool.run(markdown('# One'), ALICE)).rejects.toThrow(/closed/);
    const waiting = expect(pool.run(markdown('# Two'), ALICE)).rejects.toThrow(/closed/);
    await pool.close();
    await running;
    await waiting;
    await expect(pool.run(markdown('# Three'), ALICE)).rejects.toThrow(/closed/);
  });

  it('tells a job’s caller when it joins the line (with its place) and when a thread takes it', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxRunningPerOwner: 1, queueTimeoutMs: 30_000 });
    const told: string[] = [];
    const places: Array<{ ahead(): number; limitMs: number }> = [];
    const options = (name: string) => ({
      owner: name.slice(0, 1),
      timeoutMs: 12_000,
      onQueued: (place: { ahead(): number; limitMs: number }) => {
        places.push(place);
        told.push(`${name} queued ${place.ahead()} of ${place.limitMs}`);
      },
      onStart: ({ timeoutMs }: { timeoutMs: number }) => told.push(`${name} started (${timeoutMs})`),
    });
    const first = pool.run(markdown('# One'), options('a1'));
    const second = pool.run(markdown('# Two'), options('a2'));
    const third = pool.run(markdown('# Three'), options('b1'));
    // Told synchronously: a1 takes the thread at once; a2 waits first in line, b1 behind it (a's turn
    // comes before b's, who arrived after it).
    expect(told).toEqual([
      'a1 queued 0 of 30000',
      'a1 started (12000)',
      'a2 queued 0 of 30000',
      'b1 queued 1 of 30000',
    ]);
    expect(places.map((place) => place.ahead())).toEqual([0, 0, 1]);
    await Promise.all([first, second, third]);
    expect(told.slice(4)).toEqual(['a2 started (12000)', 'b1 started (12000)']);
    expect(places.map((place) => place.ahead())).toEqual([0, 0, 0]);
  });

  it('a caller’s callback that throws changes nothing about the job', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000 });
    const result = await pool.run(markdown('# Still converted'), {
      owner: 'alice',
      onQueued: () => {
        throw new Error('listener bug');
      },
      onStart: () => {
        throw new Error('listener bug');
      },
    });
    expect(JSON.stringify(result.document)).toContain('Still converted');
  });
});
