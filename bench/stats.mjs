/** Median, p90, min and max of a list of numbers, rounded to 0.1. */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (n) => Math.round(n * 10) / 10;
  return {
    runs: sorted.length,
    median: round(
      sorted.length % 2 ? at(0.5) : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2,
    ),
    p90: round(at(0.9)),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
  };
}
