import { type DocumentSummary, progressPercent } from '@planwright/sdk';

/** How far `now` reaches back for "new this week". */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The dashboard's figures about the documents (SPEC.md DS1). */
export interface DocumentStats {
  /** Finalized subsections across the documents. */
  finalized: number;
  /** All subsections across the documents. */
  total: number;
  /** The mean of the documents' own percentages, rounded; 0 with no documents. */
  averagePercent: number;
  /** Documents created in the 7 days before `now`. */
  newThisWeek: number;
}

/**
 * DS1: the Completed tile (finalized of all subsections, and the average progress of a document) and the
 * Documents tile's "new this week", from the documents read (the dashboard reads the newest 100).
 */
export function documentStats(documents: readonly DocumentSummary[], now: number): DocumentStats {
  let finalized = 0;
  let total = 0;
  let percentSum = 0;
  let newThisWeek = 0;
  for (const document of documents) {
    finalized += document.progress.finalized;
    total += document.progress.total;
    percentSum += progressPercent(document.progress.finalized, document.progress.total);
    const created = Date.parse(document.created_at);
    // A time a little ahead of ours (the server's clock) still counts as new.
    if (!Number.isNaN(created) && now - created < WEEK_MS) newThisWeek += 1;
  }
  return {
    finalized,
    total,
    averagePercent: documents.length > 0 ? Math.round(percentSum / documents.length) : 0,
    newThisWeek,
  };
}
