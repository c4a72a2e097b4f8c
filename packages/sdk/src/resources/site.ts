import { z } from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';

/** The card-payment pricing table's settings (spec 000 §3 "Pricing config response"). */
export const stripeConfigSchema = z.object({
  stripe_public_key: z.string(),
  stripe_pricing_table_id: z.string(),
  client_reference_id: z.string().nullish(),
});

/** What `GET /api/v1/website/stripe-config/` answers. */
export type StripeConfig = z.output<typeof stripeConfigSchema>;

/** The server's health answer: which database it runs on and its version. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

/** What `GET health` answers. */
export type Health = z.output<typeof healthSchema>;

/** Calls about the site itself rather than a user's data. */
export interface SiteResource {
  /** The pricing table's settings; sends the session token when there is one (for `client_reference_id`). */
  stripeConfig(options?: CallOptions): Promise<StripeConfig>;
  /** Whether the server is up; never sends the session token. */
  health(options?: CallOptions): Promise<Health>;
}

/** The site resource over a request helper. */
export function createSiteResource(http: HttpClient): SiteResource {
  return {
    stripeConfig: (options = {}) =>
      http.get('/api/v1/website/stripe-config/', { schema: stripeConfigSchema, signal: options.signal }),
    health: (options = {}) =>
      http.get('health', { schema: healthSchema, auth: false, signal: options.signal }),
  };
}
