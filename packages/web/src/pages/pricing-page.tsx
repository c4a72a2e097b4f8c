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

export const STRIPE_CONFIG_QUERY_KEY = ['site', 'stripe-config'] as const;

/** Spec 000 §9. */
const FREE_TRIAL_DAYS = 14;

/** Pricing (spec 000 §2): heading, free-trial text, the provider's pricing table, a Contact us link. */
export function PricingPage() {
  const client = usePlanwrightClient();
  const config = useQuery({
    queryKey: STRIPE_CONFIG_QUERY_KEY,
    queryFn: () => client.site.stripeConfig(),
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
  if (config.isError) {
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
