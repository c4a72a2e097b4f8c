import { ERROR_CODES } from './error-codes.js';
import { summarizeIssues, type ValidationIssue } from './issue-summary.js';
import { hasMarker, PlanwrightError, setMarker } from './planwright-error.js';

const marker = 'planwright.error.invalid_response';

/** What the SDK knows about an answer that failed its schema. */
export interface ResponseValidationErrorOptions {
  /** The zod issues; empty when the body could not even be parsed (see `cause`). */
  issues: readonly ValidationIssue[];
  /** The value that failed: the parsed body, or its text when it was not valid JSON. */
  data: unknown;
  /** Replaces the generated message. */
  message?: string;
  status?: number;
  method?: string;
  url?: string;
  cause?: unknown;
}

/**
 * The server answered OK, but the body was not what the SDK expects (wrong shape, or a JSON content
 * type with a body that is not JSON). Usually means the server and the SDK are different versions.
 */
export class ResponseValidationError extends PlanwrightError {
  /** The zod issues, with paths into the body. */
  readonly issues: readonly ValidationIssue[];
  /** The value that failed validation. */
  readonly data: unknown;
  /** HTTP status of the answer, when known. */
  readonly status: number | undefined;
  /** Request method, when known. */
  readonly method: string | undefined;
  /** Full request URL, when known. */
  readonly url: string | undefined;

  constructor(options: ResponseValidationErrorOptions) {
    const target = [options.method, options.url].filter(Boolean).join(' ');
    super({
      code: ERROR_CODES.INVALID_RESPONSE,
      message:
        options.message ??
        `Unexpected response${target ? ` from ${target}` : ''}: ${summarizeIssues(options.issues)}`,
      cause: options.cause,
      isRetryable: false,
      suggestion: 'The server and this client may be different versions: update both.',
    });
    setMarker(this, marker);
    this.name = 'ResponseValidationError';
    this.issues = options.issues;
    this.data = options.data;
    this.status = options.status;
    this.method = options.method;
    this.url = options.url;
  }

  /** True for a `ResponseValidationError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is ResponseValidationError {
    return hasMarker(error, marker);
  }
}
