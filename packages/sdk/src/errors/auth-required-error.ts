import { ApiError, type ApiErrorOptions } from './api-error.js';
import { ERROR_CODES } from './error-codes.js';
import { hasMarker, setMarker } from './planwright-error.js';

const marker = 'planwright.error.auth_required';

/**
 * The server answered 401 or 403 (spec 000 §4 "Auth failure on any call"). By the time this is thrown
 * the token store has been cleared and the `onAuthRequired` hook has run.
 */
export class AuthRequiredError extends ApiError {
  constructor(options: ApiErrorOptions) {
    super(options, {
      code: ERROR_CODES.AUTH_REQUIRED,
      message: `Auth required (${options.status})`,
      suggestion: 'Sign in again to continue.',
      isRetryable: false,
    });
    setMarker(this, marker);
    this.name = 'AuthRequiredError';
  }

  /** True for an `AuthRequiredError` from any copy of the SDK. */
  static override isInstance(error: unknown): error is AuthRequiredError {
    return hasMarker(error, marker);
  }
}
