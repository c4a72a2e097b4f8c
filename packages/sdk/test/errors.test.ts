import {
  AbortedError,
  ApiError,
  AuthRequiredError,
  ERROR_CODES,
  InvalidInputError,
  NetworkError,
  PlanwrightError,
  ResponseValidationError,
  toErrorMessage,
} from '@planwright/sdk';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

describe('error codes', () => {
  it('are unique snake_case strings', () => {
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

describe('PlanwrightError', () => {
  it('carries code, cause, retryability and suggestion', () => {
    const cause = new Error('inner');
    const error = new PlanwrightError({
      code: ERROR_CODES.NETWORK_ERROR,
      message: 'outer',
      cause,
      isRetryable: true,
      suggestion: 'Try again.',
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PlanwrightError');
    expect(error.message).toBe('outer');
    expect(error.code).toBe('network_error');
    expect(error.cause).toBe(cause);
    expect(error.isRetryable).toBe(true);
    expect(error.suggestion).toBe('Try again.');
  });

  it('defaults to not retryable, no suggestion and no cause', () => {
    const error = new PlanwrightError({ code: ERROR_CODES.API_ERROR, message: 'm' });
    expect(error.isRetryable).toBe(false);
    expect(error.suggestion).toBeUndefined();
    expect(error.cause).toBeUndefined();
    expect(Object.hasOwn(error, 'cause')).toBe(true);
  });
});

describe('isInstance', () => {
  const errors = {
    api: new ApiError({ status: 404 }),
    auth: new AuthRequiredError({ status: 401 }),
    network: new NetworkError({ cause: new TypeError('fetch failed') }),
    aborted: new AbortedError(),
    response: new ResponseValidationError({ issues: [], data: null }),
    input: new InvalidInputError({ issues: [] }),
  };
  const checks = {
    api: ApiError.isInstance,
    auth: AuthRequiredError.isInstance,
    network: NetworkError.isInstance,
    aborted: AbortedError.isInstance,
    response: ResponseValidationError.isInstance,
    input: InvalidInputError.isInstance,
  };

  it('each check accepts its own class (and AuthRequiredError counts as an ApiError), nothing else', () => {
    const table = Object.fromEntries(
      Object.entries(checks).map(([check, isInstance]) => [
        check,
        Object.entries(errors)
          .filter(([, error]) => isInstance(error))
          .map(([name]) => name),
      ]),
    );
    expect(table).toEqual({
      api: ['api', 'auth'],
      auth: ['auth'],
      network: ['network'],
      aborted: ['aborted'],
      response: ['response'],
      input: ['input'],
    });
    for (const error of Object.values(errors)) expect(PlanwrightError.isInstance(error)).toBe(true);
  });

  it('rejects foreign values', () => {
    for (const value of [
      new Error('x'),
      null,
      undefined,
      'api_error',
      42,
      { code: 'api_error', status: 500 },
    ]) {
      expect(PlanwrightError.isInstance(value)).toBe(false);
      expect(ApiError.isInstance(value)).toBe(false);
    }
  });

  it('recognises an object carrying the marker, as an error from another copy of the SDK would', () => {
    const foreign = { [Symbol.for('planwright.error')]: true, [Symbol.for('planwright.error.api')]: true };
    expect(PlanwrightError.isInstance(foreign)).toBe(true);
    expect(ApiError.isInstance(foreign)).toBe(true);
    expect(AuthRequiredError.isInstance(foreign)).toBe(false);
    expect(PlanwrightError.isInstance({ [Symbol.for('planwright.error')]: 'yes' })).toBe(false);
  });

  it('works across two real copies of the SDK module, where instanceof does not', async () => {
    vi.resetModules();
    const copy = await import('@planwright/sdk');
    expect(copy.ApiError).not.toBe(ApiError);
    const fromCopy = new copy.AuthRequiredError({ status: 403 });
    expect(fromCopy instanceof ApiError).toBe(false);
    expect(ApiError.isInstance(fromCopy)).toBe(true);
    expect(AuthRequiredError.isInstance(fromCopy)).toBe(true);
    expect(copy.PlanwrightError.isInstance(new NetworkError({ cause: null }))).toBe(true);
    expect(copy.NetworkError.isInstance(new AbortedError())).toBe(false);
  });
});

describe('ApiError', () => {
  it('uses the response text as the message, else "Request failed with {status}" (spec 000 §8)', () => {
    expect(new ApiError({ status: 400, text: 'Bad title' }).message).toBe('Bad title');
    expect(new ApiError({ status: 400, text: '' }).message).toBe('Request failed with 400');
    expect(new ApiError({ status: 503 }).message).toBe('Request failed with 503');
  });

  it('reads detail and code only when they are strings', () => {
    const withStrings = new ApiError({ status: 400, data: { detail: 'd', code: 'c' } });
    expect([withStrings.detail, withStrings.serverCode]).toEqual(['d', 'c']);
    const withOthers = new ApiError({ status: 400, data: { detail: ['d'], code: 7 } });
    expect([withOthers.detail, withOthers.serverCode]).toEqual([undefined, undefined]);
    const withText = new ApiError({ status: 400, data: 'detail' });
    expect([withText.detail, withText.serverCode]).toEqual([undefined, undefined]);
  });

  it('suggests waiting on 429 and 5xx, nothing on other client errors', () => {
    expect(new ApiError({ status: 429 }).suggestion).toMatch(/wait/i);
    expect(new ApiError({ status: 500 }).suggestion).toMatch(/later/i);
    expect(new ApiError({ status: 404 }).suggestion).toBeUndefined();
  });
});

describe('NetworkError', () => {
  it("names Node's reason below `fetch failed`: a socket code, else the inner message", () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    const badPort = Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') });
    expect(new NetworkError({ method: 'GET', url: 'http://h/api/v1/a', cause: refused }).message).toBe(
      'Network error on GET http://h/api/v1/a: fetch failed (ECONNREFUSED)',
    );
    expect(new NetworkError({ cause: badPort }).message).toBe('Network error: fetch failed (bad port)');
    expect(new NetworkError({ cause: new TypeError('Failed to fetch') }).message).toBe(
      'Network error: Failed to fetch',
    );
    expect(new NetworkError({ cause: 'offline' }).message).toBe('Network error: offline');
  });
});

describe('AuthRequiredError', () => {
  it('has the exact message, code and a sign-in suggestion', () => {
    const error = new AuthRequiredError({ status: 403, text: 'ignored text', data: { detail: 'x' } });
    expect(error.message).toBe('Auth required (403)');
    expect(error.name).toBe('AuthRequiredError');
    expect(error.code).toBe('auth_required');
    expect(error.detail).toBe('x');
    expect(error.isRetryable).toBe(false);
    expect(error.suggestion).toBe('Sign in again to continue.');
  });
});

describe('ResponseValidationError and InvalidInputError', () => {
  const issues =
    z.object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.null() }).safeParse({}).error?.issues ?? [];

  it('summarise the first three issues on one line', () => {
    expect(issues).toHaveLength(4);
    const error = new ResponseValidationError({ issues, data: {}, method: 'GET', url: 'http://x/api/v1/y' });
    expect(error.message).toMatch(
      /^Unexpected response from GET http:\/\/x\/api\/v1\/y: a: .+; b: .+; c: .+; and 1 more$/,
    );
    expect(error.message).not.toContain('\n');
    expect(error.issues).toBe(issues);
    const input = new InvalidInputError({ issues: issues.slice(0, 1), subject: 'contact message' });
    expect(input.message).toMatch(/^Invalid contact message: a: /);
    expect(input.code).toBe('invalid_input');
  });
});

describe('toErrorMessage', () => {
  it('gives a readable line for anything thrown', () => {
    expect(toErrorMessage(new ApiError({ status: 500 }))).toBe('Request failed with 500');
    expect(toErrorMessage(new TypeError('bad'))).toBe('bad');
    expect(toErrorMessage('plain')).toBe('plain');
    expect(toErrorMessage({ message: 'from object' })).toBe('from object');
    expect(toErrorMessage({ nope: 1 })).toBe('An unexpected error occurred.');
    expect(toErrorMessage(new Error(''), 'Failed to save')).toBe('Failed to save');
    expect(toErrorMessage(undefined, 'Failed to load documents')).toBe('Failed to load documents');
  });
});
