import { QueryClient } from '@tanstack/react-query';

const MAX_RETRIES = 2;

/**
 * Errors from the SDK say whether trying again can help (`isRetryable`: false for a 4xx); retrying a
 * 404 only keeps the user waiting. Read duck-typed so this file, which `/` loads, does not pull in the SDK.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  const retryable = (error as { isRetryable?: unknown } | null)?.isRetryable;
  return retryable !== false;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
