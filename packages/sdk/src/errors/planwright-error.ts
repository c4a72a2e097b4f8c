import type { ErrorCode } from './error-codes.js';

const marker = 'planwright.error';

/**
 * @internal Brands `error` with `Symbol.for(markerName)`. Non-enumerable, so the brand stays out of
 * spreads, logs and test diffs.
 */
export function setMarker(error: object, markerName: string): void {
  Object.defineProperty(error, Symbol.for(markerName), { value: true });
}

/** @internal Whether `value` carries the brand, from whichever copy of the SDK created it. */
export function hasMarker(value: unknown, markerName: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[Symbol.for(markerName)] === true
  );
}

/** What every {@link PlanwrightError} is built from. */
export interface PlanwrightErrorOptions {
  code: ErrorCode;
  message: string;
  cause?: unknown;
  /** Whether trying the same operation again may succeed. Defaults to `false`. */
  isRetryable?: boolean;
  /** One line telling a person what to do next; the CLI prints it under the message. */
  suggestion?: string;
}

/**
 * The base of every error the SDK throws.
 *
 * Use `PlanwrightError.isInstance(e)` (and `ApiError.isInstance(e)`, …) instead of `instanceof`: an app
 * can end up with two copies of the SDK (a CLI plugin, a bundler duplicate), and `instanceof` fails
 * across copies. The check looks for a `Symbol.for` marker, which is shared by every copy in the realm.
 */
export class PlanwrightError extends Error {
  /** Stable machine-readable code from `ERROR_CODES`. */
  readonly code: ErrorCode;
  /** The underlying error, when there is one. */
  override readonly cause: unknown;
  /** Whether trying the same operation again may succeed. */
  readonly isRetryable: boolean;
  /** One line telling a person what to do next, when the SDK knows. */
  readonly suggestion: string | undefined;

  constructor(options: PlanwrightErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    setMarker(this, marker);
    this.name = 'PlanwrightError';
    // The `cause` field declaration resets what `Error` just set (fields are defined after `super()`
    // returns), so it is assigned again here, like every other field.
    this.code = options.code;
    this.cause = options.cause;
    this.isRetryable = options.isRetryable ?? false;
    this.suggestion = options.suggestion;
  }

  /** True for any error thrown by any copy of the SDK. */
  static isInstance(error: unknown): error is PlanwrightError {
    return hasMarker(error, marker);
  }
}
