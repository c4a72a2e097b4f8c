import type { z } from 'zod';

/** One field problem, in allauth's shape: `{ message, code, param }`. */
export interface FieldError {
  message: string;
  code: string;
  param?: string;
}

/** The body of every error answer: `{ detail, code?, errors? }`. Never a stack trace. */
export interface ErrorBody {
  detail: string;
  code?: string;
  errors?: FieldError[];
}

/** An error that becomes an HTTP answer with this status and body. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    detail: string,
    readonly errors?: FieldError[],
    /** Headers the answer carries (e.g. `retry-after` on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }

  toBody(): ErrorBody {
    return { detail: this.message, code: this.code, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

function issueCode(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined || input === null ? 'required' : 'invalid';
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? 'required' : 'min_length';
    case 'too_big':
      return 'max_length';
    case 'invalid_format':
      return issue.format === 'email' ? 'invalid_email' : 'invalid';
    default:
      return 'invalid';
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Each zod issue as a field error named by `param`, with allauth-style codes. */
export function fieldErrorsOf(error: z.ZodError, input: unknown): FieldError[] {
  return error.issues.map((issue) => {
    const param = issue.path.map(String).join('.');
    return {
      message: issue.message,
      // A refinement may name its own code: `refine(check, { params: { code: 'password_too_short' } })`.
      code:
        issue.code === 'custom' && typeof issue.params?.code === 'string'
          ? issue.params.code
          : issueCode(issue, valueAt(input, issue.path)),
      ...(param ? { param } : {}),
    };
  });
}

/**
 * Validates untrusted input with a zod schema. Throws a 400 {@link HttpError} whose `errors` name each
 * bad field by `param`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error, input);
  const named = errors.flatMap((error) => (error.param ? [error.param] : []));
  const detail = named.length > 0 ? `Invalid input: ${[...new Set(named)].join(', ')}` : 'Invalid input';
  throw new HttpError(400, 'invalid', detail, errors);
}
