import { FormatError } from '../errors/format-error.js';
import type { GenerateId } from '../model/model-ids.js';

/** Options every import takes. */
export interface FormatImportOptions {
  /** Makes the ids of new sections, subsections and blocks (tests pass a counter). */
  generateId?: GenerateId;
}

/**
 * Refuses an import's input before reading it: `invalid_text` when it is not a string, `too_large`
 * past `maxLength` characters. `kind` names the format in the message ("Markdown", "JSON").
 */
export function assertImportText(text: unknown, kind: string, maxLength: number): asserts text is string {
  if (typeof text !== 'string') {
    throw new FormatError({ reason: 'invalid_text', message: `${kind} must be given as text.` });
  }
  if (text.length > maxLength) {
    throw new FormatError({
      reason: 'too_large',
      message: `The ${kind} file is too large: at most ${maxLength / (1024 * 1024)} MiB of text is read.`,
    });
  }
}
