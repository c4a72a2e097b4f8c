import * as z from 'zod';
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

/** One plan of the pricing page when the server has no payment provider's table. */
export const pricingPlanSchema = z.object({
  name: z.string(),
  /** As shown ("Free", "€19", "Contact us"). */
  price: z.string(),
  /** Shown after the price ("per month"); empty for none. */
  period: z.string().catch(''),
  description: z.string().catch(''),
  features: z.array(z.string()).catch([]),
  /** Where the plan's button leads. */
  action: z.enum(['signup', 'contact']).catch('signup'),
  highlighted: z.boolean().catch(false),
});

/** A plan of {@link SiteConfig}. */
export type PricingPlan = z.output<typeof pricingPlanSchema>;

/** The public site's settings: who runs the server, where its legal texts live, its pricing plans. */
export const siteConfigSchema = z.object({
  company: z.object({
    name: z.string(),
    email: z.string(),
    address: z.string().nullish(),
    jurisdiction: z.string().nullish(),
    /** False while the operator has not set their details (the names shown are placeholders). */
    configured: z.boolean(),
  }),
  legal: z.object({
    /** The terms' address when they live elsewhere; null for the web app's own page. */
    terms_url: z.string().nullish(),
    privacy_url: z.string().nullish(),
  }),
  pricing: z.object({
    /** Whether a payment provider's pricing table is configured (then see `stripeConfig`). */
    payment_table: z.boolean(),
    plans: z.array(pricingPlanSchema),
  }),
  /**
   * Whether the server co-edits plans live (its `/ws/collab/` socket; `@planwright/sdk/live`). False from
   * servers that predate it: their plans are saved whole over REST (`SaveController`).
   */
  live_documents: z.boolean().default(false),
});

/** What `GET /api/v1/website/config/` answers. */
export type SiteConfig = z.output<typeof siteConfigSchema>;

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
  /** The public site's settings (company details, legal pages, pricing plans); never sends the session token. */
  config(options?: CallOptions): Promise<SiteConfig>;
  /** Whether the server is up; never sends the session token. */
  health(options?: CallOptions): Promise<Health>;
}

/** The site resource over a request helper. */
export function createSiteResource(http: HttpClient): SiteResource {
  return {
    stripeConfig: (options = {}) =>
      http.get('/api/v1/website/stripe-config/', { schema: stripeConfigSchema, signal: options.signal }),
    config: (options = {}) =>
      http.get('/api/v1/website/config/', { schema: siteConfigSchema, auth: false, signal: options.signal }),
    health: (options = {}) =>
      http.get('health', { schema: healthSchema, auth: false, signal: options.signal }),
  };
}
