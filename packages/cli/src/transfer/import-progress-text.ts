import type { ImportProgress } from '@planwright/sdk';
import { progressBar } from './progress-line.js';
import { formatSize } from './transfer-text.js';

/** The steps of a server import as the progress bar counts them. */
const STEPS = { uploading: 1, queued: 2, converting: 3, saving: 4 } as const;
const STEP_COUNT = 4;

/** Whole seconds gone: 12 s, never a rounded-up second that has not passed. */
function elapsed(ms: number): string {
  return `${Math.floor(ms / 1000)} s`;
}

/** A limit as the server's own messages say it: 37.8 s, 10 s. */
function limit(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * The progress line of `planwright import` for one phase: the step count as a bar, the phase, and the
 * server's real figures (time converting and its limit, jobs ahead in the line). Never a made-up
 * percentage: the bar counts steps, not how far a conversion is. `fileName` is already terminal-safe.
 *
 * @example importProgressText({ phase: 'converting', elapsedMs: 12_400, limitMs: 37_800 }, 'plan.docx', 475_000)
 * // '[###############-----] 3/4 Converting plan.docx… 12 s (limit 37.8 s)'
 */
export function importProgressText(progress: ImportProgress, fileName: string, bytes: number): string {
  const bar = progressBar(STEPS[progress.phase], STEP_COUNT);
  switch (progress.phase) {
    case 'uploading':
      return `${bar} Uploading ${fileName} (${formatSize(bytes)})…`;
    case 'queued': {
      const ahead = progress.ahead > 0 ? `, ${progress.ahead} ahead` : '';
      return `${bar} Waiting for a converter… ${elapsed(progress.waitedMs)}${ahead}`;
    }
    case 'converting':
      return `${bar} Converting ${fileName}… ${elapsed(progress.elapsedMs)} (limit ${limit(progress.limitMs)})`;
    case 'saving':
      return `${bar} Saving…`;
  }
}
