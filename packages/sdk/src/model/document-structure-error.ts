import { ERROR_CODES } from '../errors/error-codes.js';
import { hasMarker, PlanwrightError, setMarker } from '../errors/planwright-error.js';

const marker = 'planwright.error.invalid_content';

/** Where and why a content tree could not be repaired. */
export interface DocumentStructureErrorOptions {
  /**
   * Where the problem is, from the document root: `''` for the root itself, else like
   * `content[2].content[0]` or `content[0].content[1].text`. The server answers it as `content.<path>`.
   */
  path: string;
  /** What is wrong, in one sentence (`text must be a string`). */
  problem: string;
  cause?: unknown;
}

/**
 * A content tree that normalisation cannot repair: not an object, not `type: 'doc'`, too deep, too many
 * nodes, a text that is not a string… (`model/SPEC.md` M4). Code `invalid_content`, never retryable.
 */
export class DocumentStructureError extends PlanwrightError {
  /** Where the problem is (`''` for the root, else like `content[2].content[0]`). */
  readonly path: string;
  /** What is wrong, without the path. */
  readonly problem: string;

  constructor(options: DocumentStructureErrorOptions) {
    super({
      code: ERROR_CODES.INVALID_CONTENT,
      message:
        options.path === ''
          ? `Invalid document: ${options.problem}`
          : `Invalid document at ${options.path}: ${options.problem}`,
      cause: options.cause,
      isRetryable: false,
      suggestion: 'Send a document tree of type "doc" made of sections (see the SDK model documentation).',
    });
    setMarker(this, marker);
    this.name = 'DocumentStructureError';
    this.path = options.path;
    this.problem = options.problem;
  }

  /** True for a `DocumentStructureError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is DocumentStructureError {
    return hasMarker(error, marker);
  }
}
