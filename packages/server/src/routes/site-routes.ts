import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import { HttpError } from '../http/http-error.js';

/** Public site settings: the pricing table's configuration, and the site's own (legal pages, plans). */
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

  // What every visitor may read: no session, nothing secret; the web app's legal and pricing pages.
  app.get('/api/v1/website/config/', async (_request, reply) => {
    const { site, stripe } = deps.config;
    reply.header('cache-control', 'no-cache');
    return {
      company: {
        name: site.company.name,
        email: site.company.email,
        address: site.company.address ?? null,
        jurisdiction: site.company.jurisdiction ?? null,
        configured: site.company.configured,
      },
      legal: { terms_url: site.termsUrl ?? null, privacy_url: site.privacyUrl ?? null },
      pricing: {
        // With a payment provider's table the page shows it; without, the plans below.
        payment_table: stripe !== undefined,
        plans: site.pricingPlans.map((plan) => ({
          name: plan.name,
          price: plan.price,
          period: plan.period,
          description: plan.description,
          features: plan.features,
          action: plan.action,
          highlighted: plan.highlighted,
        })),
      },
      live_documents: deps.config.live.enabled,
    };
  });
}
