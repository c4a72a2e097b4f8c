import { formatProgress, progressPercent } from '@planwright/sdk';

/**
 * A document's progress (spec 000 §2, §4): a bar with the percent, and `finalized/total subsections`. The
 * bar's accessible name says what it measures; the percent is its value.
 */
export function ProgressMeter({
  progress,
  label,
}: {
  progress: { finalized: number; total: number };
  /** What the bar measures, for screen readers (`Progress of Acme plan`). */
  label: string;
}) {
  const percent = progressPercent(progress.finalized, progress.total);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-3">
        <progress
          className="progress progress-primary w-full"
          value={percent}
          max={100}
          aria-label={label}
          aria-valuetext={`${percent}%`}
        />
        <span className="w-12 shrink-0 text-right text-sm tabular-nums">{percent}%</span>
      </div>
      <span className="text-xs opacity-80">{formatProgress(progress)}</span>
    </div>
  );
}
