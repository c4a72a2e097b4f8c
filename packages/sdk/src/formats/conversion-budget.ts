/**
 * How long one conversion may run and how much heap it may use, scaled to what it reads: the server's
 * worker pool and the CLI's `planwright convert` use the same numbers, so a file one accepts the other
 * accepts too.
 */
export interface ConversionBudgetRules {
  /** Every conversion gets this long, however small (the server's `CONVERSION_TIMEOUT_MS`). */
  baseMs: number;
  /** The most any conversion gets (the server's `CONVERSION_MAX_TIMEOUT_MS`). */
  maxMs: number;
  /** Every conversion gets this much heap, in MB, however small (the server's `CONVERSION_MEMORY_MB`). */
  baseMemoryMb: number;
  /** The most heap any conversion gets, in MB (the server's `CONVERSION_MAX_MEMORY_MB`). */
  maxMemoryMb: number;
}

/** The defaults: 10 s and 256 MB for any file, at most 2 minutes and 1536 MB. */
export const DEFAULT_CONVERSION_BUDGET: ConversionBudgetRules = {
  baseMs: 10_000,
  maxMs: 120_000,
  baseMemoryMb: 256,
  maxMemoryMb: 1536,
};

/**
 * Extra time per MiB of input. An import reads a file (a .docx is compressed: the 475 KB corpus file
 * unpacks to 12.6 MB of XML and takes 7 s on one idle core); an export reads the content tree as JSON
 * (PDF is the slowest writer, about 2.5 s per MB of JSON).
 */
export const CONVERSION_MS_PER_MIB = { import: 60_000, export: 10_000 } as const;

/**
 * Extra heap (MB) per MiB of input, measured with bench/conversion-memory.mjs: the 475 KB corpus .docx
 * needs 528 MB (its 12.6 MB of XML become a DOM); small files need 16 to 32 MB; a 1.4 MB tree (a
 * 200-page plan) needs 112 MB to become a PDF. About half again as much as measured, for headroom.
 */
export const CONVERSION_MEMORY_MB_PER_MIB = { import: 1024, export: 128 } as const;

/** The heap limit grows in steps of this many MB, so conversions of similar files share a worker. */
const MEMORY_STEP_MB = 64;

/** A conversion's time and heap limits and the words that explain them when one is hit. */
export interface ConversionBudget {
  /** How long the conversion may run, in milliseconds. */
  timeoutMs: number;
  /** E.g. "the limit for a 464 KB file: 10 s plus 60 s per MB, at most 120 s". */
  label: string;
  /** How much heap (V8's old generation) the conversion may use, in MB. */
  memoryMb: number;
  /** E.g. "the limit for a 464 KB file: 256 MB plus 1024 MB per MB, at most 1536 MB". */
  memoryLabel: string;
}

const MIB = 1024 * 1024;

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function size(bytes: number): string {
  return bytes >= MIB
    ? `${Math.round((bytes / MIB) * 10) / 10} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The limits of an import of `bytes` (the file) or an export of `bytes` (the content tree's JSON): time,
 * `baseMs` plus a per-MiB allowance, at most `maxMs`; heap, `baseMemoryMb` plus a per-MiB allowance
 * (rounded up to 64 MB steps), at most `maxMemoryMb`.
 */
export function conversionBudget(
  kind: 'import' | 'export',
  bytes: number,
  rules: ConversionBudgetRules = DEFAULT_CONVERSION_BUDGET,
): ConversionBudget {
  const perMib = CONVERSION_MS_PER_MIB[kind];
  const timeoutMs = Math.round(
    Math.min(rules.maxMs, Math.max(rules.baseMs, rules.baseMs + (bytes / MIB) * perMib)),
  );
  const memoryPerMib = CONVERSION_MEMORY_MB_PER_MIB[kind];
  const extraMb = Math.ceil(((bytes / MIB) * memoryPerMib) / MEMORY_STEP_MB) * MEMORY_STEP_MB;
  const memoryMb = Math.max(1, Math.min(rules.maxMemoryMb, rules.baseMemoryMb + extraMb));
  const what = `the limit for a ${size(bytes)} ${kind === 'import' ? 'file' : 'document'}`;
  return {
    timeoutMs,
    label: `${what}: ${seconds(rules.baseMs)} plus ${seconds(perMib)} per MB, at most ${seconds(rules.maxMs)}`,
    memoryMb,
    memoryLabel: `${what}: ${rules.baseMemoryMb} MB plus ${memoryPerMib} MB per MB, at most ${rules.maxMemoryMb} MB`,
  };
}
