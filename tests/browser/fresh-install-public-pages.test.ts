import { describe, expect, it } from 'vitest';
import { recordPageProblems, useBrowserHarness } from '../support/browser.js';

/**
 * Issue 20 item 8: the public pages of a server started with no configuration at all (no Stripe, no company
 * details) show real content and no error: the terms sign-up asks users to agree to, the privacy policy,
 * and pricing. Any console error (a 404 included) fails these tests through the harness.
 */
const harness = useBrowserHarness();

describe('public pages on a fresh install, in Chromium against the real server', () => {
  it('shows the plans and the Contact us path on /pricing without Stripe, and no error', async () => {
    const page = await harness.openPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(`${harness.server.url}/pricing`);
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    const plans = page.getByRole('list', { name: 'Plans' });
    await plans.waitFor();
    for (const name of ['Starter', 'Professional', 'Team']) {
      await plans.getByRole('heading', { name }).waitFor();
    }
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByText(/Failed to fetch/).count()).toBe(0);
    expect(await page.getByText('Loading pricing plans...').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Contact us', exact: true }).getAttribute('href')).toBe(
      '/contact',
    );
    expect(requests).not.toContain('/api/v1/website/stripe-config/');

    await page.getByRole('link', { name: 'Get started with Professional' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  });

  it('serves real Terms and Privacy pages at /web/terms and /web/privacy, saying the details are placeholders', async () => {
    const page = await harness.openPage();
    const terms = await page.goto(`${harness.server.url}/web/terms`);
    expect(terms?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Terms and Conditions', level: 1 }).waitFor();
    await page.getByText('has not entered its company details yet', { exact: false }).waitFor();
    await page.getByRole('heading', { name: 'The AI assistant' }).waitFor();
    expect(await page.getByText('Page not found').count()).toBe(0);
    expect(await page.title()).toBe('Terms and Conditions · Planwright');

    await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Privacy' }).click();
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/web/privacy');
    await page.getByText(/controller of that data is the operator of this Planwright server/).waitFor();
  });

  it("leads sign-up's terms link to the real terms page", async () => {
    const page = await harness.openPage();
    await page.goto(`${harness.server.url}/account/signup`);
    const link = page.getByRole('link', { name: 'Terms and Conditions' });
    await link.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    const popupProblems = recordPageProblems(popup);
    await popup.getByRole('heading', { name: 'Terms and Conditions', level: 1 }).waitFor();
    expect(new URL(popup.url()).pathname).toBe('/web/terms');
    expect(await popup.getByText('Page not found').count()).toBe(0);
    expect(popupProblems.list).toEqual([]);
  });
});
