import { ApiError, NetworkError } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { shouldRetry } from '../src/api/query-client';

describe('shouldRetry', () => {
  it('never retries an answer that cannot change (4xx)', () => {
    expect(shouldRetry(0, new ApiError({ status: 404 }))).toBe(false);
  });

  it('retries server errors and lost connections, at most twice', () => {
    expect(shouldRetry(0, new ApiError({ status: 503 }))).toBe(true);
    expect(shouldRetry(1, new NetworkError({ cause: new TypeError('Failed to fetch') }))).toBe(true);
    expect(shouldRetry(2, new ApiError({ status: 503 }))).toBe(false);
  });
});
