import { ERROR_CODES } from './error-codes.js';
import { hasMarker, PlanwrightError, setMarker } from './planwright-error.js';

const marker = 'planwright.error.format';

/**
 * Why a file was refused. Part of the public contract (the server answers it as `code`, the CLI
 * and the web switch on it): add reasons, never rename them.
 */
export const FORMAT_ERROR_REASONS = [
  /** The file's extension or declared format is not one this conversion accepts. */
  'unsupported_format',
  /** A .docx that is not a zip archive at all (or a truncated one). */
  'not_a_zip',
  /** A password-protected Office file (an OLE2 container) or a zip with encrypted entries. */
  'encrypted',
  /** More zip entries than the limit. */
  'too_many_entries',
  /** An entry whose name escapes the archive (`../`, an absolute path, a drive letter). */
  'unsafe_entry_name',
  /** The file, or what it unpacks to, is larger than the limit. */
  'too_large',
  /** An XML part declares a DOCTYPE or entities, which are never expanded or fetched. */
  'xml_entities',
  /** A zip without `word/document.xml`, or with parts that cannot be read. */
  'not_a_docx',
  /** JSON that does not parse, or a tree that is not a document. */
  'invalid_document',
  /** Text that is not valid UTF-8. */
  'invalid_text',
  /** The conversion took longer than its time limit and was stopped. */
  'timed_out',
  /** The conversion needed more memory than its limit and was stopped. */
  'out_of_memory',
  /** Two zip entries with one name (compared as Office does, ignoring case): readers would disagree on which is read. */
  'duplicate_entry',
] as const;

/** One of the {@link FORMAT_ERROR_REASONS}. */
export type FormatErrorReason = (typeof FORMAT_ERROR_REASONS)[number];

/** What a {@link FormatError} is built from. */
export interface FormatErrorOptions {
  reason: FormatErrorReason;
  /** One line for people, e.g. "The file is password-protected; remove the password in Word and try again." */
  message: string;
  cause?: unknown;
}

/**
 * A file was refused before or during conversion. Nothing half-imported is ever returned: an import
 * either gives a whole document or throws this.
 */
export class FormatError extends PlanwrightError {
  /** Why, as a stable string. */
  readonly reason: FormatErrorReason;

  constructor(options: FormatErrorOptions) {
    super({
      code: ERROR_CODES.FORMAT_ERROR,
      message: options.message,
      cause: options.cause,
      isRetryable: false,
    });
    setMarker(this, marker);
    this.name = 'FormatError';
    this.reason = options.reason;
  }

  /** True for a `FormatError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is FormatError {
    return hasMarker(error, marker);
  }
}

/** Whether `value` is one of the {@link FORMAT_ERROR_REASONS} (for reading a server's answer). */
export function isFormatErrorReason(value: unknown): value is FormatErrorReason {
  return typeof value === 'string' && (FORMAT_ERROR_REASONS as readonly string[]).includes(value);
}
