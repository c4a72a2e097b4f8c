import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PricingPage } from '../src/pages/pricing-page';
import { ScriptLoadError } from '../src/pricing/load-script';
import { type FetchHandler, jsonResponse, renderPage } from './render-page';

// The provider's script is never fetched in unit tests; each test decides how loading it ends.
const loadScript = vi.hoisted(() => vi.fn<(src: string) => Promise<void>>());
vi.mock('../src/pricing/load-script', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/pricing/load-script')>()),
  loadScript,
}));

const HINT = 'Please try refreshing the page or contact support if the issue persists.';
const CONFIG = {
  stripe_public_key: 'pk_test_1',
  stripe_pricing_table_id: 'prctbl_1',
  client_reference_id: null,
};

/** The site settings of a server with a payment provider's table; `plans` are what a server without one shows. */
const SITE = {
  company: {
    name: 'Example Ltd',
    email: 'hello@example.com',
    address: null,
    jurisdiction: null,
    configured: true,
  },
  legal: { terms_url: null, privacy_url: null },
  pricing: {
    payment_table: true,
    plans: [
      {
        name: 'Starter',
        price: 'Free',
        period: '',
        description: 'A first plan.',
        features: ['One business plan'],
        action: 'signup',
        highlighted: false,
      },
      {
        name: 'Team',
        price: 'Contact us',
        period: '',
        description: 'For teams.',
        features: ['Shared blueprints'],
        action: 'contact',
        highlighted: true,
      },
    ],
  },
};

/** A server whose site settings name a payment table; `stripe` answers its configuration call. */
const withTable =
  (stripe: () => Response | Promise<Response>): FetchHandler =>
  (url) =>
    url.endsWith('/api/v1/website/config/') ? jsonResponse(SITE) : stripe();

beforeEach(() => {
  loadScript.mockReset();
  loadScript.mockResolvedValue(undefined);
});
afterEach(cleanup);

describe('PricingPage', () => {
  it('shows the heading, the free trial, a Contact us link and the loading text while the configuration loads', () => {
    renderPage(
      <PricingPage />,
      withTable(() => new Promise<Response>(() => {})),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Pricing' })).toBeTruthy();
    expect(screen.getByText('All plans include a 14-day free trial.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading pricing plans...');
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
  });

  it('renders the provider table with the configuration once its script has loaded', async () => {
    const { container, fetch } = renderPage(
      <PricingPage />,
      withTable(() => jsonResponse({ ...CONFIG, client_reference_id: 'user-42' })),
    );
    await vi.waitFor(() => expect(container.querySelector('stripe-pricing-table')).not.toBeNull());
    const table = container.querySelector('stripe-pricing-table');
    expect(table?.getAttribute('pricing-table-id')).toBe('prctbl_1');
    expect(table?.getAttribute('publishable-key')).toBe('pk_test_1');
    expect(table?.getAttribute('client-reference-id')).toBe('user-42');
    expect(loadScript).toHaveBeenCalledWith('https://js.stripe.com/v3/pricing-table.js');
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual([
      'http://planwright.test/api/v1/website/config/',
      'http://planwright.test/api/v1/website/stripe-config/',
    ]);
    expect(screen.queryByText('Loading pricing plans...')).toBeNull();
  });

  it('leaves out client-reference-id when the server sends none', async () => {
    const { container } = renderPage(
      <PricingPage />,
      withTable(() => jsonResponse(CONFIG)),
    );
    await vi.waitFor(() => expect(container.querySelector('stripe-pricing-table')).not.toBeNull());
    expect(container.querySelector('stripe-pricing-table')?.hasAttribute('client-reference-id')).toBe(false);
  });

  it('keeps the loading text until the script has loaded', async () => {
    loadScript.mockReturnValue(new Promise(() => {}));
    renderPage(
      <PricingPage />,
      withTable(() => jsonResponse(CONFIG)),
    );
    await vi.waitFor(() => expect(loadScript).toHaveBeenCalled());
    expect(screen.getByText('Loading pricing plans...')).toBeTruthy();
  });

  it('reports a failed configuration call with its status and status text (spec 000 §8)', async () => {
    renderPage(
      <PricingPage />,
      withTable(() =>
        jsonResponse({ detail: 'Stripe is not configured.' }, { status: 404, statusText: 'Not Found' }),
      ),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`Failed to fetch Stripe configuration: 404 Not Found${HINT}`);
    expect(loadScript).not.toHaveBeenCalled();
  });

  it('uses the standard reason phrase when the answer carries no status text (HTTP/2)', async () => {
    renderPage(
      <PricingPage />,
      withTable(() => jsonResponse({ detail: 'down' }, { status: 503, statusText: '' })),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to fetch Stripe configuration: 503 Service Unavailable',
    );
  });

  it('says so when the server cannot be reached', async () => {
    renderPage(
      <PricingPage />,
      withTable(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Failed to fetch Stripe configuration: no response from the server${HINT}`,
    );
  });

  it('says the table is unavailable when the provider script cannot load, instead of loading forever', async () => {
    loadScript.mockRejectedValue(new ScriptLoadError('https://js.stripe.com/v3/pricing-table.js', 'error'));
    const { container } = renderPage(
      <PricingPage />,
      withTable(() => jsonResponse(CONFIG)),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`The pricing table could not be loaded from our payment provider.${HINT}`);
    expect(screen.queryByText('Loading pricing plans...')).toBeNull();
    expect(container.querySelector('stripe-pricing-table')).toBeNull();
  });

  it('shows the configured plans and their ways in on a server without a payment provider, and no error', async () => {
    const { fetch } = renderPage(<PricingPage />, (url) =>
      url.endsWith('/api/v1/website/config/')
        ? jsonResponse({ ...SITE, pricing: { ...SITE.pricing, payment_table: false } })
        : jsonResponse({ detail: 'Pricing is not configured.' }, { status: 404, statusText: 'Not Found' }),
    );
    const plans = await screen.findByRole('list', { name: 'Plans' });
    expect(plans.textContent).toContain('Starter');
    expect(plans.textContent).toContain('One business plan');
    expect(screen.getByRole('heading', { name: /Team/ }).textContent).toContain('Recommended');
    expect(screen.getByRole('link', { name: 'Get started with Starter' }).getAttribute('href')).toBe(
      '/account/signup',
    );
    expect(screen.getByRole('link', { name: 'Contact sales about Team' }).getAttribute('href')).toBe(
      '/contact',
    );
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Loading pricing plans...')).toBeNull();
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual([
      'http://planwright.test/api/v1/website/config/',
    ]);
    expect(loadScript).not.toHaveBeenCalled();
  });

  it('still asks for the payment table when the server has no site settings (an older server)', async () => {
    const { container } = renderPage(<PricingPage />, (url) =>
      url.endsWith('/api/v1/website/config/')
        ? jsonResponse({ detail: 'Not found.' }, { status: 404, statusText: 'Not Found' })
        : jsonResponse(CONFIG),
    );
    await vi.waitFor(() => expect(container.querySelector('stripe-pricing-table')).not.toBeNull());
  });
});
