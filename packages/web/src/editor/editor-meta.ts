/**
 * Transaction metadata of the plan editor. A transaction carrying {@link STRUCTURE_META} may change the
 * structure and finalized subsections (a server answer being loaded); it is not a user edit.
 */
export const STRUCTURE_META = 'planwright:structure';

/** Marks the transaction of `setSubsectionFinalizedInEditor` (a user edit: it is saved). */
export const FINALIZE_META = 'planwright:finalize';

/** Undo depth and grouping of spec 001 §9: 100 steps, a new step after 500 ms without typing. */
export const UNDO_DEPTH = 100;
export const UNDO_NEW_GROUP_DELAY_MS = 500;

/** The editor's minimum height (spec 001 §9). */
export const EDITOR_MIN_HEIGHT_PX = 280;
