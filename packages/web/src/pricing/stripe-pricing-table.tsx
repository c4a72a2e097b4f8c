import type { StripeConfig } from '@planwright/sdk';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

/** The payment provider's script that defines `<stripe-pricing-table>`. */
export const STRIPE_PRICING_TABLE_SCRIPT = 'https://js.stripe.com/v3/pricing-table.js';

type StripePricingTableAttributes = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  'pricing-table-id': string;
  'publishable-key': string;
  'client-reference-id'?: string;
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'stripe-pricing-table': StripePricingTableAttributes;
    }
  }
}

/** The provider's pricing table; render it only once `STRIPE_PRICING_TABLE_SCRIPT` has loaded. */
export function StripePricingTable({ config }: { config: StripeConfig }) {
  return (
    <stripe-pricing-table
      pricing-table-id={config.stripe_pricing_table_id}
      publishable-key={config.stripe_public_key}
      {...(config.client_reference_id ? { 'client-reference-id': config.client_reference_id } : {})}
    />
  );
}
