import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import { HttpError } from '../http/http-error.js';

/** Public site settings: the pricing table's configuration. */
export function siteRoutes(app: FastifyInstance, deps: { config: ServerConfig }): void {
  app.get('/api/v1/website/stripe-config/', async () => {
    const stripe = deps.config.stripe;
    if (!stripe) {
      throw new HttpError(404, 'not_configured', 'Pricing is not configured on this server.');
    }
    return {
      stripe_public_key: stripe.publicKey,
      stripe_pricing_table_id: stripe.pricingTableId,
      client_reference_id: null,
    };
  });
}
