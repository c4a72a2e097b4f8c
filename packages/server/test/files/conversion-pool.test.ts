import { readFileSync } from 'node:fs';
import { FormatError } from '@planwright/sdk/formats';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { ConversionBusyError, ConversionPool, type PoolTimers } from '../../src/formats/conversion-pool.js';

/** Timers fired by the test: a time-out never needs a real wait. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  const timers: PoolTimers = {
    setTimeout: (callback) => {
      const id = next++;
      pending.set(id, callback);
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
    const result = await pool.run(markdown('# Market\n\nText'));
    expect(result.document.content[0]?.content[0]).toMatchObject({ type: 'sectionHeading' });
    expect(clock.pending).toBe(0);
    const exported = await pool.run({
      kind: 'export',
      format: 'md',
      contentJson: JSON.stringify(result.document),
      title: 'T',
    });
    expect(new TextDecoder().decode(exported)).toContain('# Market');
  });

  it('a job over its time limit has its thread killed and fails timed_out; the next job gets a fresh thread', async () => {
    const clock = manualTimers();
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, timers: clock.timers });
    const big = readFileSync(corpusPath('docx/poi-bug65649-very-large.docx'));
    const slow = pool.run({ kind: 'import', format: 'docx', bytes: big, maxUnpackedBytes: 50 * 1024 * 1024 });
    clock.fireAll();
    const error = await rejectionOf(slow);
    expect(FormatError.isInstance(error) && [error.reason, error.message]).toEqual([
      'timed_out',
      'The conversion took longer than 10 s and was stopped.',
    ]);
    const after = await pool.run(markdown('# Still works'));
    expect(after.document.content).toHaveLength(1);
  });

  it('passes a refusal through as the same FormatError', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000 });
    const encrypted = readFileSync(corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx'));
    const error = await rejectionOf(
      pool.run({ kind: 'import', format: 'docx', bytes: encrypted, maxUnpackedBytes: 1024 * 1024 }),
    );
    expect(FormatError.isInstance(error) && error.reason).toBe('encrypted');
  });

  it('queues jobs in order beyond its size and refuses more than maxQueued', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000, maxQueued: 1 });
    const first = pool.run(markdown('# One'));
    const second = pool.run(markdown('# Two'));
    const third = await rejectionOf(pool.run(markdown('# Three')));
    expect(third).toBeInstanceOf(ConversionBusyError);
    const titles = await Promise.all([first, second]);
    expect(titles.map((r) => JSON.stringify(r.document))).toEqual([
      expect.stringContaining('One'),
      expect.stringContaining('Two'),
    ]);
  });

  it('close() fails waiting and running jobs and refuses new ones', async () => {
    pool = new ConversionPool({ size: 1, timeoutMs: 10_000 });
    const running = expect(pool.run(markdown('# One'))).rejects.toThrow(/closed/);
    const waiting = expect(pool.run(markdown('# Two'))).rejects.toThrow(/closed/);
    await pool.close();
    await running;
    await waiting;
    await expect(pool.run(markdown('# Three'))).rejects.toThrow(/closed/);
  });
});
