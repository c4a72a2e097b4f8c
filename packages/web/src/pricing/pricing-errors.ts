import { ApiError, NetworkError } from '@planwright/sdk';

/** Spec 000 §8 (Pricing): the sentence shown under every pricing failure. */
export const PRICING_SUPPORT_HINT =
  'Please try refreshing the page or contact support if the issue persists.';

/** Shown when the provider's script cannot load (offline, blocked by an extension or a firewall). */
export const PRICING_TABLE_UNAVAILABLE = 'The pricing table could not be loaded from our payment provider.';

/** Spec 000 §8: `Failed to fetch Stripe configuration: {status} {statusText}`. */
export function stripeConfigFailureText(error: unknown): string {
  if (ApiError.isInstance(error)) {
    // HTTP/2 answers carry no status text; fall back to the standard phrase.
    const text = error.statusText || REASON_PHRASES[error.status] || '';
    return `Failed to fetch Stripe configuration: ${error.status} ${text}`.trimEnd();
  }
  // No status to show; the SDK's technical message would help nobody on this page.
  if (NetworkError.isInstance(error))
    return 'Failed to fetch Stripe configuration: no response from the server';
  return 'Failed to fetch Stripe configuration: the server sent an unexpected answer';
}

/** Reason phrases for the statuses this call can realistically answer, for when the error carries none. */
const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
