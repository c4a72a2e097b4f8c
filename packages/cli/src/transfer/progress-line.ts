import type { TextSink } from '../cli-io.js';

/** A one-line status that redraws itself on a terminal, for long runs (`export --all`, `import`). */
export interface ProgressLine {
  /** Replaces the line with `text` (already terminal-safe). */
  show(text: string): void;
  /** Removes the line, so what is printed next starts on a clean line. */
  clear(): void;
}

// Carriage return, then "erase the whole line" (ECMA-48 EL 2).
const REDRAW = '\r\u001b[2K';

/**
 * A {@link ProgressLine} on `sink`: redrawn in place when it is a terminal, silent otherwise, so logs
 * and pipes only get the results, never a trail of half-lines.
 */
export function createProgressLine(sink: TextSink): ProgressLine {
  if (sink.isTTY !== true) return { show() {}, clear() {} };
  let shown = false;
  return {
    show(text) {
      sink.write(`${REDRAW}${text}`);
      shown = true;
    },
    clear() {
      if (shown) sink.write(REDRAW);
      shown = false;
    },
  };
}

/** `[########------------]  3/12`: how far a run of `total` steps has come. */
export function progressBar(done: number, total: number, width = 20): string {
  const filled = total <= 0 ? width : Math.round((width * Math.min(done, total)) / total);
  const count = String(total).length;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(done).padStart(count)}/${total}`;
}
