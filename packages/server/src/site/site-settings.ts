import { z } from 'zod';

/** One plan of the pricing page when no payment provider's table is configured. */
export const pricingPlanSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  /** As shown: "Free", "€19", "Contact us"… a text, since currencies and taxes differ per operator. */
  price: z.string().trim().min(1).max(40),
  /** Shown after the price ("per month"); empty for none. */
  period: z.string().trim().max(40).default(''),
  description: z.string().trim().max(200).default(''),
  features: z.array(z.string().trim().min(1).max(120)).max(12).default([]),
  /** Where the plan's button leads: sign-up, or the contact form. */
  action: z.enum(['signup', 'contact']).default('signup'),
  /** The plan drawn out as the recommended one. */
  highlighted: z.boolean().default(false),
});

/** PRICING_PLANS: a JSON array of 1–6 plans. */
export const pricingPlansSchema = z.array(pricingPlanSchema).min(1).max(6);

export type PricingPlan = z.output<typeof pricingPlanSchema>;

/**
 * The plans a fresh install shows: placeholders in the shape operators usually need (a free tier, a paid
 * one, a talk-to-us one), to replace with PRICING_PLANS.
 */
export const DEFAULT_PRICING_PLANS: readonly PricingPlan[] = [
  {
    name: 'Starter',
    price: 'Free',
    period: '',
    description: 'Write your first business plan with AI help.',
    features: ['One business plan', 'The Business Plan blueprint', 'Export to Markdown, Word and PDF'],
    action: 'signup',
    highlighted: false,
  },
  {
    name: 'Professional',
    price: '€19',
    period: 'per month',
    description: 'For founders who write and revise plans often.',
    features: [
      'Unlimited business plans',
      'Your own blueprints',
      'AI chat and rewrites on every section',
      'Import from Word and Markdown',
    ],
    action: 'signup',
    highlighted: true,
  },
  {
    name: 'Team',
    price: 'Contact us',
    period: '',
    description: 'For accelerators, advisers and teams sharing blueprints.',
    features: ['Organisations and shared blueprints', 'Onboarding for your team', 'Priority support'],
    action: 'contact',
    highlighted: false,
  },
];

/** Who runs this server, as the Terms and Privacy pages name them; placeholders until configured. */
export interface CompanyDetails {
  name: string;
  email: string;
  address: string | undefined;
  jurisdiction: string | undefined;
  /** Whether the operator set COMPANY_NAME; the legal pages say so when not. */
  configured: boolean;
}

/** The public site's settings (`GET /api/v1/website/config/`). */
export interface SiteSettings {
  company: CompanyDetails;
  /** Where sign-up's terms link and the footer lead; the built-in pages when unset. */
  termsUrl: string | undefined;
  privacyUrl: string | undefined;
  pricingPlans: readonly PricingPlan[];
}

/** Shown as the operator's name until COMPANY_NAME is set. */
export const PLACEHOLDER_COMPANY_NAME = 'the operator of this Planwright server';
