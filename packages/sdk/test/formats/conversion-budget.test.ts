import { describe, expect, it } from 'vitest';
import { conversionBudget, DEFAULT_CONVERSION_BUDGET } from '../../src/formats/conversion-budget.js';

describe('conversionBudget', () => {
  it('gives the base limit to an empty or tiny input', () => {
    expect(conversionBudget('import', 0).timeoutMs).toBe(10_000);
    expect(conversionBudget('export', 1024).timeoutMs).toBe(10_010);
  });

  it('scales with the input: the 475 KB corpus .docx gets 37.2 s and 768 MB, and says why', () => {
    const budget = conversionBudget('import', 474_844);
    expect(budget.timeoutMs).toBe(37_171);
    expect(budget.label).toBe('the limit for a 464 KB file: 10 s plus 60 s per MB, at most 120 s');
    // 256 + 464 KB × 1024 MB/MB = 720 MB, rounded up to a 64 MB step.
    expect(budget.memoryMb).toBe(768);
    expect(budget.memoryLabel).toBe(
      'the limit for a 464 KB file: 256 MB plus 1024 MB per MB, at most 1536 MB',
    );
  });

  it('gives small files the base heap, in 64 MB steps above it', () => {
    expect(conversionBudget('import', 0).memoryMb).toBe(256);
    expect(conversionBudget('import', 1024).memoryMb).toBe(320);
    expect(conversionBudget('export', 1.4 * 1024 * 1024).memoryMb).toBe(448);
  });

  it('never passes the maximum, and follows the rules it is given', () => {
    expect(conversionBudget('import', 20 * 1024 * 1024).timeoutMs).toBe(DEFAULT_CONVERSION_BUDGET.maxMs);
    expect(conversionBudget('import', 20 * 1024 * 1024).memoryMb).toBe(DEFAULT_CONVERSION_BUDGET.maxMemoryMb);
    expect(
      conversionBudget('export', 3 * 1024 * 1024, {
        baseMs: 2_000,
        maxMs: 30_000,
        baseMemoryMb: 100,
        maxMemoryMb: 400,
      }),
    ).toEqual({
      timeoutMs: 30_000,
      label: 'the limit for a 3 MB document: 2 s plus 10 s per MB, at most 30 s',
      memoryMb: 400,
      memoryLabel: 'the limit for a 3 MB document: 100 MB plus 128 MB per MB, at most 400 MB',
    });
  });
});
