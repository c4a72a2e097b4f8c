import type { GenerateId } from '../model/model-ids.js';

/** Options every import takes. */
export interface FormatImportOptions {
  /** Makes the ids of new sections, subsections and blocks (tests pass a counter). */
  generateId?: GenerateId;
}
