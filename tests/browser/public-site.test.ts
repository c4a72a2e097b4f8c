import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from '../support/browser.js';

/** The JS `/` may load, gzipped (the budget of the web app's first screen). */
const HOME_JS_BUDGET_BYTES = 120 * 1024;

const harness = useBrowserHarness(
  { env: { STRIPE_PUBLIC_KEY: 'pk_test_example', STRIPE_PRICING_TABLE_ID: 'prctbl_example' } },
  { colorScheme: 'dark' },
);

/** Pages of the public site; Chromium logs the payment provider's script we block on purpose. */
const openPage = (options: BrowserContextOptions = {}): Promise<Page> =>
  harness.openPage(options, {
    expected: [{ text: /^Failed to load resource/, url: /^https:\/\/js\.stripe\.com\// }],
  });

const themeOf = (page: Page) => page.locator('html').getAttribute('data-theme');

describe('public site in Chromium against the real server', () => {
  it('follows the system preference, toggles the theme and keeps the choice after a reload', async () => {
    const page = await openPage({ colorScheme: 'dark' });
    await page.goto(`${harness.server.url}/`);
    await expect.poll(() => themeOf(page)).toBe('coffee');
    await page.getByRole('heading', { level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await themeOf(page)).toBe('caramellatte');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('caramellatte');

    await page.reload();
    expect(await themeOf(page)).toBe('caramellatte');
    await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();

    const light = await openPage({ colorScheme: 'light' });
    await light.goto(`${harness.server.url}/`);
    expect(await themeOf(light)).toBe('caramellatte');
  });

  it('shows the landing page with both audiences and Get started buttons to sign-in', async () => {
    const page = await openPage();
    await page.goto(`${harness.server.url}/`);
    await page.getByRole('heading', { name: 'For Founders' }).waitFor();
    await page.getByRole('heading', { name: 'For Investors' }).waitFor();
    const getStarted = page.getByRole('link', { name: 'Get started' });
    expect(await getStarted.count()).toBe(2);
    for (const href of await getStarted.evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    )) {
      expect(href).toBe('/account/signin');
    }
    const home = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Home', exact: true });
    expect(await home.getAttribute('aria-current')).toBe('page');
  });

  it('validates the contact form, then sends it to the server and clears it', async () => {
    const page = await openPage();
    await page.goto(`${harness.server.url}/contact`);
    const send = page.getByRole('button', { name: 'Send message' });

    await send.click();
    await page.getByText('First name is required').waitFor();
    expect(await page.getByLabel('First name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Message', { exact: true }).fill('I would like to see a demo for our accelerator.');
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/v1/apps/contact/'));
    await send.click();
    expect((await answer).ok()).toBe(true);

    await page.getByText('Thank you for your message! We will get back to you soon.').waitFor();
    expect(await page.getByLabel('First name', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');

    // The server stored it and mailed it on (to the outbox, since no SMTP is configured).
    const mails = readdirSync(harness.server.outboxDir).map((file) =>
      readFileSync(join(harness.server.outboxDir, file), 'utf8'),
    );
    expect(mails.some((mail) => mail.includes('Contact form: Ada Lovelace'))).toBe(true);
  });

  it('loads the Stripe configuration and says so when the pricing table script cannot load', async () => {
    const page = await openPage();
    const config = page.waitForResponse((response) =>
      response.url().endsWith('/api/v1/website/stripe-config/'),
    );
    const script = page.waitForEvent('requestfailed', (request) =>
      request.url().startsWith('https://js.stripe.com/'),
    );
    await page.goto(`${harness.server.url}/pricing`);
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    await page.getByText('All plans include a 14-day free trial.').waitFor();

    expect((await config).status()).toBe(200);
    expect((await script).url()).toBe('https://js.stripe.com/v3/pricing-table.js');
    await page.getByText('The pricing table could not be loaded from our payment provider.').waitFor();
    await page
      .getByText('Please try refreshing the page or contact support if the issue persists.')
      .waitFor();
    expect(await page.getByText('Loading pricing plans...').count()).toBe(0);
    expect(await page.locator('stripe-pricing-table').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
    expect(await page.getByRole('contentinfo').textContent()).toContain(String(new Date().getFullYear()));
    expect(await page.title()).toBe('Pricing · Planwright');
  });

  it('shows the not-found page for an unknown route, with a way home', async () => {
    const page = await openPage();
    await page.goto(`${harness.server.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.getByRole('heading', { name: 'For Founders' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('puts the links in a dropdown menu on small screens', async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${harness.server.url}/`);
    const menuButton = page.getByRole('button', { name: 'Menu' });
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    await menuButton.click();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
    await page.getByRole('heading', { name: 'About Planwright' }).waitFor();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it(`keeps the JavaScript loaded by / within ${HOME_JS_BUDGET_BYTES / 1024} KiB gzip`, async () => {
    const page = await openPage();
    const scripts: Promise<{ url: string; gzip: number }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.url().startsWith(harness.server.url)) {
        scripts.push(response.body().then((body) => ({ url: response.url(), gzip: gzipSync(body).length })));
      }
    });
    await page.goto(`${harness.server.url}/`, { waitUntil: 'networkidle' });
    const loaded = await Promise.all(scripts);
    const total = loaded.reduce((sum, script) => sum + script.gzip, 0);
    console.log(
      `JS loaded by /: ${(total / 1024).toFixed(1)} KiB gzip in ${loaded.length} files\n` +
        loaded
          .map((script) => `  ${(script.gzip / 1024).toFixed(1)} KiB  ${new URL(script.url).pathname}`)
          .join('\n'),
    );
    expect(loaded.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
  });
});
