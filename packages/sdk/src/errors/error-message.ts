/**
 * A one-line, human-readable message for anything caught: `Error`s (ours or not) give their message,
 * strings are used as they are, anything else gets a generic text rather than `[object Object]`.
 */
export function toErrorMessage(error: unknown, fallback = 'An unexpected error occurred.'): string {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  if (typeof error === 'string' && error.trim() !== '') return error;
  return fallback;
}
