/**
 * How long one conversion may run, scaled to what it reads: the server's worker pool and the CLI's
 * `planwright convert` use the same numbers, so a file one accepts the other accepts too.
 */
export interface ConversionBudgetRules {
  /** Every conversion gets this long, however small (the server's `CONVERSION_TIMEOUT_MS`). */
  baseMs: number;
  /** The most any conversion gets (the server's `CONVERSION_MAX_TIMEOUT_MS`). */
  maxMs: number;
}

/** The defaults: 10 s for any file, at most 2 minutes. */
export const DEFAULT_CONVERSION_BUDGET: ConversionBudgetRules = { baseMs: 10_000, maxMs: 120_000 };

/**
 * Extra time per MiB of input. An import reads a file (a .docx is compressed: the 475 KB corpus file
 * unpacks to 12.6 MB of XML and takes 7 s on one idle core); an export reads the content tree as JSON
 * (PDF is the slowest writer, about 2.5 s per MB of JSON).
 */
export const CONVERSION_MS_PER_MIB = { import: 60_000, export: 10_000 } as const;

/** A conversion's time limit and the words that explain it in a time-out message. */
export interface ConversionBudget {
  /** How long the conversion may run, in milliseconds. */
  timeoutMs: number;
  /** E.g. "the limit for a 464 KB file: 10 s plus 60 s per MB, at most 120 s". */
  label: string;
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
 * The time limit of an import of `bytes` (the file) or an export of `bytes` (the content tree's JSON):
 * `baseMs` plus a per-MiB allowance, at most `maxMs`.
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
  const what = kind === 'import' ? 'file' : 'document';
  return {
    timeoutMs,
    label: `the limit for a ${size(bytes)} ${what}: ${seconds(rules.baseMs)} plus ${seconds(perMib)} per MB, at most ${seconds(rules.maxMs)}`,
  };
}
