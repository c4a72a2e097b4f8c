import { describe, expect, it } from 'vitest';
import { conversionBudget, DEFAULT_CONVERSION_BUDGET } from '../../src/formats/conversion-budget.js';

describe('conversionBudget', () => {
  it('gives the base limit to an empty or tiny input', () => {
    expect(conversionBudget('import', 0).timeoutMs).toBe(10_000);
    expect(conversionBudget('export', 1024).timeoutMs).toBe(10_010);
  });

  it('scales with the input: the 475 KB corpus .docx gets 37.2 s, and says why', () => {
    const budget = conversionBudget('import', 474_844);
    expect(budget.timeoutMs).toBe(37_171);
    expect(budget.label).toBe('the limit for a 464 KB file: 10 s plus 60 s per MB, at most 120 s');
  });

  it('never passes the maximum, and follows the rules it is given', () => {
    expect(conversionBudget('import', 20 * 1024 * 1024).timeoutMs).toBe(DEFAULT_CONVERSION_BUDGET.maxMs);
    expect(conversionBudget('export', 3 * 1024 * 1024, { baseMs: 2_000, maxMs: 30_000 })).toEqual({
      timeoutMs: 30_000,
      label: 'the limit for a 3 MB document: 2 s plus 10 s per MB, at most 30 s',
    });
  });
});
