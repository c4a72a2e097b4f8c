import { conversionBudget } from '@planwright/sdk/formats';
import type { ConversionConfig } from '../config/config.js';
import type { RunOptions } from './conversion-pool.js';

/**
 * Who a conversion is for and its time and heap budgets, scaled to the bytes it reads (the file
 * for an import, the tree's JSON for an export), between `CONVERSION_TIMEOUT_MS` and
 * `CONVERSION_MAX_TIMEOUT_MS`, and `CONVERSION_MEMORY_MB` and `CONVERSION_MAX_MEMORY_MB`.
 */
export function conversionRunOptions(
  config: ConversionConfig,
  owner: string,
  kind: 'import' | 'export',
  bytes: number,
): RunOptions {
  const budget = conversionBudget(kind, bytes, {
    baseMs: config.timeoutMs,
    maxMs: config.maxTimeoutMs,
    baseMemoryMb: config.memoryMb,
    maxMemoryMb: config.maxMemoryMb,
  });
  return {
    owner,
    timeoutMs: budget.timeoutMs,
    limitLabel: budget.label,
    memoryMb: budget.memoryMb,
    memoryLabel: budget.memoryLabel,
  };
}
