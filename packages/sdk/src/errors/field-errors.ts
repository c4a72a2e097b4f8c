import { ApiError } from './api-error.js';

/** One field's problem in a refused input (`errors: [{param, code, message}]`, `docs/http-api.md`). */
export interface ApiFieldError {
  param: string;
  code: string;
  message: string;
}

/**
 * The field errors of a 400 answer, for showing each by its field (`version: Publish a version above 3.`);
 * `[]` for anything else. Entries without a text message are left out.
 */
export function apiFieldErrors(error: unknown): ApiFieldError[] {
  if (!ApiError.isInstance(error)) return [];
  const errors = (error.data as { errors?: unknown } | null | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const { param, code, message } = (entry ?? {}) as Record<string, unknown>;
    if (typeof message !== 'string' || message.trim() === '') return [];
    return [
      { param: typeof param === 'string' ? param : '', code: typeof code === 'string' ? code : '', message },
    ];
  });
}
