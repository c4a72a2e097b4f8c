import type { DocumentProgress } from '@planwright/sdk';
import { TOP_BAR_TEXTS as TEXTS } from './workspace-texts';

/**
 * W13: "{finalized} of {total} subsection(s) completed" with the percentage as a badge, from the live
 * content; nothing at all while the document has no subsection.
 */
export function ProgressReadout({ progress }: { progress: DocumentProgress }) {
  if (progress.total <= 0) return null;
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="whitespace-nowrap">{TEXTS.progress(progress.finalized, progress.total)}</span>
      <span className="badge badge-primary badge-soft tabular-nums">{progress.percent}%</span>
    </div>
  );
}
