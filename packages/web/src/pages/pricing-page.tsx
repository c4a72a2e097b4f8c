import type { PricingPlan } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { loadScript } from '../pricing/load-script';
import {
  PRICING_SUPPORT_HINT,
  PRICING_TABLE_UNAVAILABLE,
  stripeConfigFailureText,
} from '../pricing/pricing-errors';
import { STRIPE_PRICING_TABLE_SCRIPT, StripePricingTable } from '../pricing/stripe-pricing-table';
import { useSiteConfig } from '../site/site-config';

export const STRIPE_CONFIG_QUERY_KEY = ['site', 'stripe-config'] as const;

/** Spec 000 §9. */
const FREE_TRIAL_DAYS = 14;

/**
 * Pricing (spec 000 §2): heading, free-trial text, the provider's pricing table, a Contact us link. A server
 * without a payment provider (a fresh install) shows its configured plans instead of the table.
 */
export function PricingPage() {
  const client = usePlanwrightClient();
  const site = useSiteConfig();
  // An older server without the site settings still gets the provider's table, as before.
  const wantsTable = site.isError || site.data?.pricing.payment_table === true;
  const config = useQuery({
    queryKey: STRIPE_CONFIG_QUERY_KEY,
    queryFn: () => client.site.stripeConfig(),
    enabled: wantsTable,
  });
  const script = useQuery({
    queryKey: ['script', STRIPE_PRICING_TABLE_SCRIPT],
    queryFn: () => loadScript(STRIPE_PRICING_TABLE_SCRIPT).then(() => true),
    enabled: config.isSuccess,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  let table: ReactNode;
  if (site.isSuccess && !wantsTable) {
    table = <PricingPlans plans={site.data.pricing.plans} />;
  } else if (config.isError) {
    table = <PricingFailure text={stripeConfigFailureText(config.error)} />;
  } else if (script.isError) {
    table = <PricingFailure text={PRICING_TABLE_UNAVAILABLE} />;
  } else if (config.isSuccess && script.isSuccess) {
    table = <StripePricingTable config={config.data} />;
  } else {
    table = (
      <p role="status" className="flex items-center justify-center gap-3 py-12 opacity-80">
        <span className="loading loading-spinner" aria-hidden="true" />
        Loading pricing plans...
      </p>
    );
  }

  return (
    <>
      <title>Pricing · Planwright</title>
      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="pricing-title">
        <header className="text-center">
          <h1 id="pricing-title" className="text-4xl font-bold">
            Pricing
          </h1>
          <p className="mt-4 text-lg opacity-80">All plans include a {FREE_TRIAL_DAYS}-day free trial.</p>
        </header>
        <div className="mt-12">{table}</div>
        <p className="mt-12 text-center opacity-80">
          Questions about plans or a larger team?{' '}
          <Link to="/contact" className="link link-primary">
            Contact us
          </Link>
        </p>
      </section>
    </>
  );
}

/** The server's plans, each with the way in it offers: sign-up, or the contact form. */
function PricingPlans({ plans }: { plans: readonly PricingPlan[] }) {
  return (
    <ul className="grid gap-6 md:grid-cols-3" aria-label="Plans">
      {plans.map((plan) => (
        <li
          key={plan.name}
          className={`card border bg-base-100 ${plan.highlighted ? 'border-primary shadow-lg' : 'border-base-300'}`}
          aria-labelledby={`plan-${plan.name}`}
        >
          <div className="card-body">
            <h2 id={`plan-${plan.name}`} className="card-title text-2xl">
              {plan.name}
              {plan.highlighted && <span className="badge badge-primary">Recommended</span>}
            </h2>
            <p>
              <span className="text-3xl font-bold">{plan.price}</span>
              {plan.period && <span className="ml-2 opacity-80">{plan.period}</span>}
            </p>
            {plan.description && <p className="opacity-80">{plan.description}</p>}
            {plan.features.length > 0 && (
              <ul className="mt-2 space-y-1">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <span aria-hidden="true" className="text-success">
                      ✓
                    </span>
                    {feature}
                  </li>
                ))}
              </ul>
            )}
            <div className="card-actions mt-4">
              {plan.action === 'contact' ? (
                <Link
                  to="/contact"
                  className="btn btn-outline w-full"
                  aria-label={`Contact sales about ${plan.name}`}
                >
                  Contact sales
                </Link>
              ) : (
                <Link
                  to="/account/signup"
                  className={`btn w-full ${plan.highlighted ? 'btn-primary' : 'btn-outline'}`}
                  aria-label={`Get started with ${plan.name}`}
                >
                  Get started
                </Link>
              )}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

function PricingFailure({ text }: { text: string }) {
  return (
    <div role="alert" className="alert alert-error alert-soft mx-auto max-w-2xl">
      <div>
        <p className="font-semibold">{text}</p>
        <p>{PRICING_SUPPORT_HINT}</p>
      </div>
    </div>
  );
}
