import { ERROR_CODES } from './error-codes.js';
import { summarizeIssues, type ValidationIssue } from './issue-summary.js';
import { hasMarker, PlanwrightError, setMarker } from './planwright-error.js';

const marker = 'planwright.error.invalid_input';

/** What the SDK knows about input that failed its schema. */
export interface InvalidInputErrorOptions {
  /** The zod issues; `path[0]` names the field, so forms can put each message next to its input. */
  issues: readonly ValidationIssue[];
  /** What was being validated, for the message (`contact message`). */
  subject?: string;
  cause?: unknown;
}

/** Input handed to the SDK failed its schema; nothing was sent. */
export class InvalidInputError extends PlanwrightError {
  /** The zod issues, with paths naming the fields. */
  readonly issues: readonly ValidationIssue[];

  constructor(options: InvalidInputErrorOptions) {
    super({
      code: ERROR_CODES.INVALID_INPUT,
      message: `Invalid ${options.subject ?? 'input'}: ${summarizeIssues(options.issues)}`,
      cause: options.cause,
      isRetryable: false,
      suggestion: 'Correct the fields named above and try again.',
    });
    setMarker(this, marker);
    this.name = 'InvalidInputError';
    this.issues = options.issues;
  }

  /** True for an `InvalidInputError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is InvalidInputError {
    return hasMarker(error, marker);
  }
}
