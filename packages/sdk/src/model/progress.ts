import { childrenOf, ownField } from './node-text.js';

/** How far a document is: finalized subsections out of all of them (spec 000 §4). */
export interface DocumentProgress {
  finalized: number;
  total: number;
  /** `finalized / total` as a whole percent, rounded half up; 0 when there are no subsections. */
  percent: number;
}

/** Whole percent of `part` in `whole`, rounded half up; 0 when `whole` is 0. */
export function progressPercent(part: number, whole: number): number {
  return whole > 0 ? Math.round((100 * part) / whole) : 0;
}

/**
 * The progress of a content tree (model/SPEC.md M23): every subsection node of every section counts,
 * those with `finalized: true` are done. A pure walk over the JSON, like `outlineOf`.
 */
export function progressOf(doc: unknown): DocumentProgress {
  let finalized = 0;
  let total = 0;
  for (const section of childrenOf(doc)) {
    if (ownField(section, 'type') !== 'section') continue;
    for (const subsection of childrenOf(section)) {
      if (ownField(subsection, 'type') !== 'subsection') continue;
      total += 1;
      if (ownField(ownField(subsection, 'attrs'), 'finalized') === true) finalized += 1;
    }
  }
  return { finalized, total, percent: progressPercent(finalized, total) };
}
